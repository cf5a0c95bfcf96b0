"""Pytest fixtures for the fake Bot API; import them into a conftest.py to use them."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakes.botapi import FakeBotApi


@pytest.fixture
def ptb_timedelta(monkeypatch: pytest.MonkeyPatch) -> None:
    """Opt in to python-telegram-bot's timedelta periods so RetryAfter raises no deprecation warning."""
    monkeypatch.setenv("PTB_TIMEDELTA", "1")


@pytest.fixture
async def botapi(ptb_timedelta: None) -> AsyncIterator[FakeBotApi]:
    """A started fake Bot API with Telegram's default limits."""
    async with FakeBotApi() as fake:
        yield fake
