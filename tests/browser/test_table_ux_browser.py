"""The table people learn in one game and trust: rules sheets, followable tricks, fair deals checked in the page,
and every table fitting a small phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import Phone, Server, open_phone, screenshot_path

GAMES = ["coins", "sergeant_major", "kings_corner"]
SEED = "5eed" * 16


def user(n: int) -> dict[str, Any]:
    """A Telegram user speaking English."""
    return {"id": 5600 + n, "first_name": "Ann", "language_code": "en"}


async def new_table(server: Server, game: str, uid: int, options: dict[str, Any] | None = None, *,
                    seed: str = SEED, start: bool = True) -> str:
    """A table of ``game`` hosted by ``uid`` with AI players in the other seats, started unless ``start`` is off."""
    info = await server.service.create_table(game, uid, "Ann", options or {}, seed=seed)
    for _ in range(info.size - 1):
        await server.service.add_ai(info.id, uid)
    if start:
        await server.service.start_game(info.id, uid)
    return info.id


async def open_table(browser: Any, server: Server, n: int, table_id: str) -> Phone:
    """Ann's phone with the table open."""
    phone = await open_phone(browser, server, user(n), start_param=table_id)
    await expect(phone.page.locator(".table-screen")).to_be_visible()
    return phone


async def check_rules_sheet(page: Page, game: str) -> None:
    """The rules sheet is open for ``game`` and closes again."""
    sheet = page.locator(".sheet.rules-sheet")
    await expect(sheet).to_be_visible()
    await expect(sheet.locator(".rules")).to_have_attribute("data-game", game)
    if game == "coins":
        await expect(sheet.locator(".cycle")).to_contain_text("Cups")
        await expect(sheet.locator(".rules-trick")).to_have_count(3)
        odd = sheet.locator(".rt-card.odd")
        await expect(odd).to_have_count(1)
        await expect(odd.locator("figcaption")).to_have_text("never wins")
        await expect(sheet.locator(".rt-card.win")).to_have_count(3)
    await sheet.locator(".sheet-close").tap()
    await expect(sheet).to_have_count(0)


@pytest.mark.parametrize("game", GAMES)
async def test_rules_sheet_opens_from_lobby_and_table(browser: Any, server: Server, game: str) -> None:
    uid = 5600 + GAMES.index(game)
    lobby_id = await new_table(server, game, uid, start=False)
    phone = await open_table(browser, server, GAMES.index(game), lobby_id)
    page = phone.page
    await expect(page.locator(".lobby")).to_be_visible()
    await expect(page.locator(".options .option-help").first).to_be_visible()
    await page.locator(".lobby .rules-btn").tap()
    await check_rules_sheet(page, game)
    await page.locator(".start-btn").tap()
    await expect(page.locator(".table-body .hand")).to_be_visible()
    await page.locator(".topbar .rules-btn").tap()
    await check_rules_sheet(page, game)
    if game == "coins":
        await page.locator(".topbar .rules-btn").tap()
        await page.screenshot(path=str(screenshot_path("rules-coins-390x844.png")))
    assert phone.errors == []
