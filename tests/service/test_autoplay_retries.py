"""An AI turn that fails is tried again; a database out of reach is said in a line, anything else with its traceback."""

from __future__ import annotations

import logging

import pytest

from engine.service.autoplay import Autoplay


async def test_a_failing_ai_turn_is_retried_and_only_an_unexpected_failure_is_logged_as_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    failures: list[Exception] = [TimeoutError(), ConnectionRefusedError("refused"), RuntimeError("a bug")]
    steps: list[str] = []

    async def step(table_id: str) -> bool:
        steps.append(table_id)
        if failures:
            raise failures.pop(0)
        return False  # nobody automatic to act any more

    async def no_wait(_seconds: float) -> None:
        return None

    autoplay = Autoplay(step, sleep=no_wait)
    with caplog.at_level(logging.WARNING, logger="engine.service.autoplay"):
        autoplay.kick("t1")
        await autoplay.idle()
    assert steps == ["t1"] * 4 and autoplay.retries == 3
    records = [(r.levelname, r.exc_info is not None) for r in caplog.records]
    assert records == [("WARNING", False), ("WARNING", False), ("ERROR", True)]
    assert "out of reach (ConnectionRefusedError: refused)" in caplog.records[1].getMessage()
