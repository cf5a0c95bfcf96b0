"""A table opened from its start parameter makes no request that fails: its id is never read as a replay's.

The page reads a start parameter ``r_<id>`` as the replay of table ``<id>``. A table whose own id began with
``r_`` (one in 4,096 of them, before ids were drawn to avoid it) was first asked for as a replay, a 404 in the
page's console, and only then opened.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.async_api import expect

from tests.browser.conftest import Server, open_phone

ANN_ID = 6900
ANN: dict[str, Any] = {"id": ANN_ID, "first_name": "Ann", "language_code": "en"}


async def test_a_table_whose_first_drawn_id_read_as_a_replay_opens_with_no_failed_request(
    browser: Any, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    draws: Iterator[str] = iter(["r_AbCdEf", "AbCdEfGh"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda _n: next(draws))
    info = await server.service.create_table("coins", ANN_ID, "Ann", {})
    monkeypatch.undo()
    for _ in range(info.size - 1):
        await server.service.add_ai(info.id, ANN_ID)
    await server.service.start_game(info.id, ANN_ID)
    phone = await open_phone(browser, server, ANN, start_param=info.id)
    await expect(phone.page.locator(".table-screen")).to_be_visible()
    await expect(phone.page.locator(".hand .card")).to_have_count(16)
    assert phone.errors == []
    assert info.id == "AbCdEfGh"
