"""A newcomer's first lost game at 360×640: the end sheet shows their rating on the 1500 scale with "?" over its
change, History shows the same number with "?" and says what "?" means, and no rating anywhere has a minus sign."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import ViewportSize, expect

from tests.browser.conftest import Server, open_phone, screenshot_path
from tests.service.newcomer import first_game_lost

SMALL: ViewportSize = {"width": 360, "height": 640}
MINUS = "\u2212"


async def test_a_newcomers_lost_first_game_reads_1500_scale_with_a_question_mark(browser: Any, server: Server) -> None:
    table_id, uid = await first_game_lost(server.service, 9700, name="Ann")
    [change] = await server.service.record.rating_changes(table_id)
    rating, lost = change["after"], change["change"]
    assert 0 <= rating <= 1500 and lost <= 0 and change["provisional"] is True
    shown, lost_text = f"{rating}?", f"{MINUS}{-lost}" if lost else "0"

    phone = await open_phone(browser, server, {"id": uid, "first_name": "Ann", "language_code": "en"},
                             start_param=table_id, viewport=SMALL)
    page = phone.page
    sheet = page.locator(".sheet.game-over")
    await expect(sheet.locator(".placements.rated")).to_have_count(1)
    mine = sheet.locator("li.you .prate")
    await expect(mine.locator(".prating")).to_have_text(shown)
    await expect(mine.locator(".pdelta")).to_have_text(lost_text)
    await expect(mine).to_have_attribute("aria-label", f"Rating {shown} ({lost_text})")
    await expect(sheet.locator("li:not(.you) .prate")).to_have_text(["", ""])  # the AI players are never rated
    await expect(sheet.locator(".play-again")).to_be_in_viewport()
    await page.screenshot(path=str(screenshot_path("rating-scale-end-sheet-360x640.png")))
    ratings = " ".join(await sheet.locator(".prating").all_inner_texts())
    assert ratings == shown and not re.search(rf"[-{MINUS}]\d", ratings)

    await sheet.locator(".go-home").click()
    await page.locator("#tab-history").tap()
    card = page.locator('.my-stats .stat-game[data-game="coins"]')
    await expect(card.locator(".stat-rating")).to_have_text(f"Rating {shown}")
    await expect(card.locator(".stat-best")).to_have_text(f"Best {shown}")
    await expect(page.locator(".my-stats .provisional-note")).to_have_text(
        "A rating with ? is provisional: fewer than 10 games finished.")
    figures = await page.locator(".my-stats").inner_text()
    assert MINUS not in figures and not re.search(r"-\d", figures)
    await page.screenshot(path=str(screenshot_path("rating-scale-history-360x640.png")))

    await page.locator("#tab-leaderboard").tap()
    row = page.locator(".board tbody tr.you")
    await expect(row.locator(".rating")).to_have_text(shown)
    await expect(page.locator(".leaderboard .provisional-note")).to_be_visible()
    await page.screenshot(path=str(screenshot_path("rating-scale-leaderboard-360x640.png")))
    assert phone.errors == []
