"""Each request and socket has a request id: said back in the answer, and carried by the JSON log lines it causes."""

from __future__ import annotations

import io
import json
import logging
import re
from typing import Any

import pytest

from engine.logs import JsonFormatter
from engine.service.tables import TableService
from tests.web.conftest import Client, local_signin, tma
from tests.web.sockets import Peer


async def test_a_request_id_is_kept_from_the_proxy_or_drawn_fresh(client: Client) -> None:
    assert (await client.get("/healthz", headers={"X-Request-Id": "edge-7f3a.1"})).headers["X-Request-Id"] \
        == "edge-7f3a.1"
    drawn = (await client.get("/healthz", headers={"X-Request-Id": "no spaces\u00e9 or {json}"})).headers
    assert re.fullmatch(r"[0-9a-f]{16}", drawn["X-Request-Id"])
    assert drawn["X-Request-Id"] != (await client.get("/healthz")).headers["X-Request-Id"]


async def test_a_move_that_fails_on_a_socket_is_logged_with_its_table_and_request(
    client: Client, service: TableService, monkeypatch: pytest.MonkeyPatch,
) -> None:
    ann, _ = await local_signin(client, "Ann")
    table = await (await client.post("/api/tables", json={"game": "coins", "play_now": True},
                                      headers=tma(ann))).json()

    async def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(service, "act", broken)
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    logging.getLogger("webapp.ws").addHandler(handler)
    try:
        peer = Peer(await client.ws_connect(f"/ws/{table['id']}", headers={"X-Request-Id": "sock-1"}))
        await peer.send({"type": "hello", "init_data": ann, "last_seq": None})
        await peer.until(lambda f: f["type"] == "welcome")
        await peer.send({"type": "act", "ref": "m", "seq": 0, "action": {"type": "play", "card": "A-cups"}})
        assert (await peer.until(lambda f: f.get("ref") == "m"))["code"] == "server_error"
        await peer.close()
    finally:
        logging.getLogger("webapp.ws").removeHandler(handler)
    (line,) = [json.loads(text) for text in out.getvalue().splitlines()]
    assert (line["table_id"], line["request_id"], line["level"]) == (table["id"], "sock-1", "error")
    assert line["message"] == f"move failed at table {table['id']}" and "RuntimeError: a bug" in line["error"]
    assert ann not in out.getvalue()  # no initData in the log
