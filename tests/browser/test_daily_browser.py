"""Today's deal on home at 360×640: one tap opens the day's Coins deal; once played, its share, standings and line."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from playwright.async_api import ViewportSize, expect

from engine.ai.base import choose
from engine.service.tables import TableService
from tests.browser.conftest import Server, open_phone, screenshot_path
from tests.service.helpers import play_out

SMALL: ViewportSize = {"width": 360, "height": 640}
COINS_ROW = ".daily-game:has(.pname:text-is('Coins'))"


async def play_as_easy(service: TableService, table_id: str) -> None:
    """The person's moves made as the easy AI would make them, from the rules' own legal actions, to the end of the
    table (a trump to name, cards to give, Kings in the Corner's several moves and an end to a turn)."""
    while True:
        await service.autoplay.idle()
        table = service.live(table_id)
        if table is None or table.row.status != "playing":  # over (an ended table leaves memory)
            return
        [seat] = table.to_act()
        user = table.row.seats[seat].user_id
        if user is None:  # an AI player's turn the service has not yet taken up
            await asyncio.sleep(0.01)
            continue
        view = table.game.view(table.state, seat)
        legal = table.game.legal_actions(table.state, seat)
        action = choose(table.row.game, "easy", view, legal, f"test-{table.seq}")
        await service.act(table_id, user, dict(action), table.seq)


async def test_daily_deal_from_home_in_one_tap_then_share_and_standings(browser: Any, local_server: Server) -> None:
    phone = await open_phone(browser, local_server, path="/?lang=en", viewport=SMALL)
    page = phone.page
    await page.locator("#signin-name").fill("Ann")
    await page.locator(".signin button[type=submit]").tap()
    await expect(page.locator(".daily h2")).to_have_text("Today's deal")
    await expect(page.locator(".daily-game")).to_have_count(3)
    await page.screenshot(path=screenshot_path("daily_home_360.png"))

    await page.locator(f"{COINS_ROW} .daily-play").tap()
    await expect(page.locator(".table-screen[data-status='playing'] .hand .card")).to_have_count(16)
    table_id = await page.locator(".table-screen").get_attribute("data-table")
    assert table_id
    info = await local_server.service.info(table_id)
    assert info.seed is None and [s.is_ai for s in info.seats] == [False, True, True]

    await play_out(local_server.service, table_id)  # the person's first legal card, to the end of the first hand
    await local_server.service.daily.wait_settled()
    # the table stops after the hand it scores and says how the person did, not that it was cancelled
    await expect(page.locator(".notice.daily-over p").first).to_have_text(
        "You played today's deal: you beat or tied 100% of the field.")
    await expect(page.locator(".notice.daily-over .daily-share")).to_be_visible()
    await page.wait_for_function("document.getAnimations().length === 0")  # the last trick's cards have flown
    await page.screenshot(path=screenshot_path("daily_table_over_360.png"))
    await page.locator(".notice.daily-over .daily-share").tap()  # outside Telegram: the line is copied (or shown)
    await expect(page.locator("#toast.show")).to_have_text(re.compile(r"Result copied|Cardroom · Coins · "))
    await page.goto(local_server.url + "/?lang=en")
    await expect(page.locator(f"{COINS_ROW} .daily-percent")).to_have_text("100%")  # alone in the field
    await expect(page.locator(f"{COINS_ROW} .daily-play")).to_have_count(0)  # played: no second start
    await page.locator(f"{COINS_ROW} .daily-standings-btn").tap()
    await expect(page.locator(".daily-sheet .daily-standings li")).to_have_count(1)
    await expect(page.locator(".daily-sheet .daily-standings li.mine")).to_contain_text("Ann — 100%")
    await expect(page.locator(".daily-sheet .daily-line")).to_contain_text("Cardroom · Coins · ")
    await page.screenshot(path=screenshot_path("daily_standings_360.png"))
    assert phone.errors == []
    await phone.context.close()


async def test_daily_deal_of_every_game_opens_dealt_from_home_and_is_played_to_its_result(
    browser: Any, local_server: Server
) -> None:
    phone = await open_phone(browser, local_server, path="/?lang=en", viewport=SMALL)
    page = phone.page
    await page.locator("#signin-name").fill("Bob")
    await page.locator(".signin button[type=submit]").tap()
    for title, seats in (("Sergeant Major (3-5-8)", 3), ("Kings in the Corner", 2)):
        await page.locator(f".daily-game:has(.pname:text-is('{title}')) .daily-play").tap()
        await expect(page.locator(".table-screen[data-status='playing']")).to_be_visible()
        await expect(page.locator(".table-screen .hand .card").first).to_be_visible()  # dealt: the hand is there
        table_id = await page.locator(".table-screen").get_attribute("data-table")
        assert table_id
        info = await local_server.service.info(table_id)
        assert info.size == seats and info.seed is None and info.seats[0].name == "Bob"
        await page.locator(".home-btn").tap()
        row = f".daily-game:has(.pname:text-is('{title}'))"
        await expect(page.locator(f"{row} .daily-play")).to_have_text("Resume")
        await page.locator(f"{row} .daily-play").tap()  # resumed: the same table
        await expect(page.locator(".table-screen")).to_have_attribute("data-table", table_id)
        await play_as_easy(local_server.service, table_id)  # Bob plays as the easy AI would, to the deal's result
        await local_server.service.daily.wait_settled()
        await page.reload()  # back at the table later (the page would otherwise replay each of the quick moves)
        await expect(page.locator(".notice.daily-over p").first).to_have_text(
            "You played today's deal: you beat or tied 100% of the field.")
        await expect(page.locator(".notice.daily-over .play-again")).to_have_count(0)  # played once a day
        await page.screenshot(path=screenshot_path(f"daily_{info.game}_over_360.png"))
        await page.locator(".home-btn").tap()
        await expect(page.locator(f"{row} .daily-percent")).to_have_text("100%")
        await expect(page.locator(f"{row} .daily-play")).to_have_count(0)
    assert phone.errors == []
    await phone.context.close()
