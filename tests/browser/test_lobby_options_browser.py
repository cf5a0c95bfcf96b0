"""The lobby shows the options the table really has: a value the bot accepted outside the page's presets
(``/new coins target=3``) is the value shown, to the host's picker and to the other players alike."""

from __future__ import annotations

from typing import Any

from playwright.async_api import expect

from tests.browser.conftest import Server, open_phone


def person(n: int) -> dict[str, Any]:
    """A Telegram user speaking English."""
    return {"id": 9300 + n, "first_name": f"P{n}", "language_code": "en", "allows_write_to_pm": True}


async def test_the_lobby_shows_a_target_the_presets_do_not_have(browser: Any, server: Server) -> None:
    host = person(1)
    info = await server.service.create_table("coins", host["id"], "P1", {"target_score": 3})
    ann = await open_phone(browser, server, host, start_param=info.id)
    page = ann.page
    picker = page.locator('.lobby select[name="target_score"]')
    await expect(picker).to_have_value("3")
    await expect(picker.locator("option")).to_have_text(["3", "10", "15", "20"])  # in order among the presets
    guest = await open_phone(browser, server, person(2), start_param=info.id)
    row = guest.page.locator(".lobby .options li").filter(has_text="Target")
    await expect(row.locator(".value")).to_have_text("3")
    assert ann.errors == [] and guest.errors == []
