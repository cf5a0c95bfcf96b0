"""LOG_FORMAT=json: every log line is one JSON object, with the table id when the log call carries it."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from engine.config import Settings
from engine.logs import REQUEST_ID, JsonFormatter, setup_logging
from engine.service.bus import Update
from engine.service.tables import TableService


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """The root logger's lines as JSON, written to a string."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield out
    finally:
        root.removeHandler(handler)


def lines(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


async def test_a_failing_listener_is_logged_as_one_json_line_with_its_table(
    service: TableService, json_lines: io.StringIO,
) -> None:
    table = await service.play_now("coins", 7, "Ann")
    await service.autoplay.idle()  # the AI seats before Ann have played

    async def failing(_update: Update) -> None:
        raise RuntimeError("the listener broke")

    listening = service.listen(table.id, failing)
    live = service.live(table.id)
    assert live is not None
    (legal, *_rest) = live.game.legal_actions(live.state, 0)
    await service.act(table.id, 7, legal, live.seq)
    listening.close()
    (line,) = [entry for entry in lines(json_lines) if entry["logger"] == "engine.service.bus"]
    assert line["level"] == "error" and line["table_id"] == table.id
    assert line["message"] == f"a listener of table {table.id} failed"
    assert "RuntimeError: the listener broke" in line["error"]
    assert line["time"].endswith("Z") and "T" in line["time"]


def test_a_json_line_carries_the_person_and_the_request_and_nothing_unasked(json_lines: io.StringIO) -> None:
    token = REQUEST_ID.set("req-42")
    try:
        logging.getLogger("cardroom.test").warning("seat %d left", 2, extra={"table_id": "t1", "user_id": 7})
    finally:
        REQUEST_ID.reset(token)
    logging.getLogger("cardroom.test").warning("plain")
    first, second = lines(json_lines)
    assert first == {"time": first["time"], "level": "warning", "logger": "cardroom.test", "message": "seat 2 left",
                     "request_id": "req-42", "table_id": "t1", "user_id": 7}
    assert second == {"time": second["time"], "level": "warning", "logger": "cardroom.test", "message": "plain"}


def test_log_format_json_makes_the_process_log_json_and_text_stays_the_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = logging.getLogger()
    kept = list(root.handlers), root.level
    try:
        assert Settings.from_env({}).log_format == "text"
        setup_logging(Settings.from_env({"LOG_FORMAT": "JSON"}).log_format)
        logging.getLogger("cardroom.test").info("ready", extra={"table_id": "t9"})
        setup_logging("text")
        logging.getLogger("cardroom.test").info("readable")
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in kept[0]:
            root.addHandler(handler)
        root.setLevel(kept[1])
    json_line, text_line = capsys.readouterr().err.splitlines()
    assert json.loads(json_line)["table_id"] == "t9"
    assert text_line.endswith("INFO cardroom.test: readable") and not text_line.startswith("{")


def test_a_bot_token_and_an_initdata_signature_never_reach_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    token = "7312345678:AAF3kq9Zr2W-x_Yb0cDeFgHiJkLmNoPqRsTu"
    root = logging.getLogger()
    kept = list(root.handlers), root.level
    try:
        for log_format in ("json", "text"):
            setup_logging(log_format)
            logging.getLogger("httpx").info("HTTP Request: POST https://api.telegram.org/bot%s/getMe", token)
            try:
                raise ConnectionError(f"https://api.telegram.org/bot{token}/sendMessage refused")
            except ConnectionError:
                logging.getLogger("cardroom.test").exception("sending failed (user=%s&hash=%s)", "{}", "ab" * 32)
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in kept[0]:
            root.addHandler(handler)
        root.setLevel(kept[1])
    logged = capsys.readouterr().err
    assert token not in logged and "ab" * 32 not in logged and "httpx" not in logged
    assert logged.count("<bot token>") == 2 and logged.count("hash=<hidden>") == 2  # each format: traceback, message
