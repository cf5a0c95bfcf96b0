"""No select or button cuts its words on a 360 px phone, in Russian, Korean and Latvian: on the home screen (with
every game's Table options open in turn) and in each game's lobby as its host sees it, every option of every select
fits the select's room for text, and every button's words fit inside it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import Server, screenshot_path
from tests.browser.test_languages_browser import SMALL, new_table, open_in_language, user_for

GAMES = ("coins", "sergeant_major", "kings_corner")

# Every visible select with an option wider than the room the select gives its text (its content box less the
# arrow Chromium draws in it: a value a pixel too wide loses its last letters to "…"), measured in the select's own
# font, and every visible button whose words run past its box.
ARROW = 20
CUT_JS = """(arrow) => {
  const out = [];
  const shown = (el) => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden';
  const measure = document.createElement('span');
  document.body.append(measure);
  for (const select of document.querySelectorAll('select')) {
    if (!shown(select)) continue;
    const cs = getComputedStyle(select);
    measure.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
    for (const name of ['fontFamily', 'fontSize', 'fontWeight', 'fontStyle', 'fontStretch', 'fontKerning',
      'textRendering', 'letterSpacing', 'fontFeatureSettings']) {
      measure.style[name] = cs[name];
    }
    const room = select.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - arrow;
    for (const option of select.options) {
      measure.lang = option.lang || document.documentElement.lang; // the language picker names each in its own
      measure.textContent = option.text;
      const width = measure.getBoundingClientRect().width;
      const name = select.name || select.id;
      if (width > room) out.push(`select ${name}: "${option.text}" ${width.toFixed(1)} > ${room.toFixed(1)}`);
    }
  }
  measure.remove();
  for (const button of document.querySelectorAll('button')) {
    if (!shown(button) || !button.textContent.trim()) continue;
    if (button.scrollWidth > button.clientWidth) {
      const words = button.textContent.trim();
      out.push(`button.${button.className}: "${words}" ${button.scrollWidth} > ${button.clientWidth}`);
    }
  }
  return out;
}"""


async def cut(page: Page) -> list[str]:
    found: list[str] = await page.evaluate(CUT_JS, ARROW)
    return found


@pytest.mark.parametrize("lang", ["ru", "ko", "lv"])
async def test_no_select_or_button_cuts_its_words_at_360_px(browser: Any, server: Server, lang: str) -> None:
    person = user_for(lang, 60)
    ann = await open_in_language(browser, server, person, lang)
    page = ann.page
    await page.set_viewport_size(SMALL)
    wrong: dict[str, list[str]] = {}
    for game in GAMES:
        await page.locator(f".game-card[data-game='{game}'] .options-btn").tap()
        await expect(page.locator(".options-sheet .create-btn")).to_be_visible()
        wrong[f"home {game}"] = await cut(page)
        await page.locator(".options-sheet .sheet-close").tap()
        await expect(page.locator(".options-sheet")).to_have_count(0)
    await ann.context.close()
    for game in GAMES:
        info = await server.service.create_table(game, person["id"], "Ann")
        host = await open_in_language(browser, server, person, lang, start_param=info.id)
        await host.page.set_viewport_size(SMALL)
        await expect(host.page.locator(".lobby .start-btn")).to_be_visible()
        wrong[f"lobby {game}"] = await cut(host.page)
        await host.page.screenshot(path=str(screenshot_path(f"lobby-{game}-{lang}-360x640.png")), full_page=True)
        assert host.errors == []
        await host.context.close()
    assert {place: found for place, found in wrong.items() if found} == {}


@pytest.mark.parametrize("lang", ["ru", "ko", "lv"])
async def test_no_button_cuts_its_words_at_a_table_at_360_px(browser: Any, server: Server, lang: str) -> None:
    person = user_for(lang, 70)
    wrong: dict[str, list[str]] = {}
    for game, options in (("coins", {}), ("sergeant_major", {}), ("kings_corner", {"players": 2})):
        table_id = await new_table(server, game, person["id"], options, seed=f"small-{game}")
        ann = await open_in_language(browser, server, person, lang, start_param=table_id)
        await ann.page.set_viewport_size(SMALL)
        await expect(ann.page.locator(".table-screen")).to_be_visible()
        await ann.page.wait_for_function("() => Number(document.querySelector('.table-screen').dataset.seq) >= 0")
        await expect(ann.page.locator(".hand .card").first).to_be_visible()  # measured once the table is drawn
        wrong[game] = await cut(ann.page)
        await ann.page.screenshot(path=str(screenshot_path(f"table-{game}-{lang}-360x640.png")))
        assert ann.errors == []
        await ann.context.close()
    assert {game: found for game, found in wrong.items() if found} == {}
