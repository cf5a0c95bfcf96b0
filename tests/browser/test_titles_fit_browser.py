"""Sergeant Major's title fits a small phone in Russian and Latvian: on home's game card and in the table's bar it
takes at most two lines at 360 px (it wrapped to three)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import expect

from tests.browser.conftest import Server, open_phone, screenshot_path
from tests.browser.test_languages_browser import SMALL, new_table

SERGEANT = ".game-card[data-game='sergeant_major']"
LINES = """(el) => {
  // the lines the element's words are drawn on: its text's boxes, those that overlap vertically being one line
  const boxes = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(node);
    boxes.push(...[...range.getClientRects()].filter((r) => r.height > 0 && r.width > 0));
  }
  boxes.sort((a, b) => a.top - b.top);
  let lines = 0;
  let bottom = -Infinity;
  for (const box of boxes) {
    if (box.top >= bottom - 2) lines += 1;
    bottom = Math.max(bottom, box.bottom);
  }
  return lines;
}"""


@pytest.mark.parametrize("lang", ["ru", "lv"])
async def test_sergeant_majors_title_takes_at_most_two_lines_at_360px(browser: Any, server: Server,
                                                                      lang: str) -> None:
    uid = 9700 + ["ru", "lv"].index(lang)
    ann = {"id": uid, "first_name": "Ann", "language_code": lang}
    await server.service.create_table("sergeant_major", uid, "Ann", {"first_dealer": "host"}, seed="title")
    phone = await open_phone(browser, server, ann, viewport=SMALL)
    page = phone.page
    await expect(page.locator("html")).to_have_attribute("lang", lang)
    title = page.locator(f"{SERGEANT} .game-name")
    await title.scroll_into_view_if_needed()
    lines = {"home": await title.evaluate(LINES)}
    await page.screenshot(path=str(screenshot_path(f"title-sergeant-major-home-{lang}-360x640.png")))
    await page.locator(".table-row, .my-tables li, [data-table]").first.click()
    bar = page.locator(".topbar .title")
    await expect(bar).to_be_visible()
    lines["bar"] = await bar.evaluate(LINES)
    await page.screenshot(path=str(screenshot_path(f"title-sergeant-major-table-{lang}-360x640.png")))
    # in play, beside the fair-deal badge, with the game's default and with a variant under the name
    for options, shot in (({}, "play"), ({"variant": "six_three_eight"}, "variant")):
        table_id = await new_table(server, "sergeant_major", uid, options, f"title {shot}")
        table = await open_phone(browser, server, ann, start_param=table_id, viewport=SMALL)
        await expect(table.page.locator(".hand .card").first).to_be_visible()
        lines[shot] = await table.page.locator(".topbar .title").evaluate(LINES)
        await table.page.screenshot(path=str(screenshot_path(f"title-sergeant-major-{shot}-{lang}-360x640.png")))
        assert table.errors == []
        await table.context.close()
    assert max(lines.values()) <= 2, lines
    assert phone.errors == []
