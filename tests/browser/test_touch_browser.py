"""A thumb on a small phone: every control is at least 44 px, and a big Kings hand lets each card be tapped."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import Server, open_phone, screenshot_path
from tests.browser.test_accessibility_browser import SCREENS, SMALL, big_kings_hand, open_screen

# Every control on screen as its box, and for a card in a hand the part of it a tap reaches (sampled every 2 px):
# a fanned card is covered by its neighbours, so its box is not where it can be tapped.
TARGETS_JS = """() => {
  const reach = (el) => {
    const r = el.getBoundingClientRect();
    let left = Infinity, right = -Infinity, top = Infinity, bottom = -Infinity;
    for (let x = r.left + 1; x < r.right; x += 2) {
      for (let y = r.top + 1; y < r.bottom; y += 2) {
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === el || el.contains(hit))) {
          left = Math.min(left, x); right = Math.max(right, x); top = Math.min(top, y); bottom = Math.max(bottom, y);
        }
      }
    }
    return {left, top, width: right - left + 2, height: bottom - top + 2};
  };
  const controls = [...document.querySelectorAll('button, a[href], input, select, summary, [role="button"]')]
    .filter((el) => el.offsetParent !== null && !el.disabled && !el.closest('[hidden], .sr-only'));
  return controls.map((el) => {
    const r = el.getBoundingClientRect();
    const box = el.matches('.hand .card') ? reach(el) : {left: r.left, top: r.top, width: r.width, height: r.height};
    const text = (el.getAttribute('aria-label') || el.textContent).trim().slice(0, 30);
    return {what: el.className || el.tagName, text, ...box};
  });
}"""


@pytest.mark.parametrize("screen", SCREENS)
async def test_every_control_is_a_thumb_wide_on_a_small_phone(browser: Any, server: Server, screen: str) -> None:
    phone = await open_screen(browser, server, screen, "light", 40 + SCREENS.index(screen), SMALL)
    page = phone.page
    if screen == "kings_corner":
        await page.wait_for_function("() => document.querySelector('.kc-table').dataset.turn !== 'wait'")
    await page.screenshot(path=str(screenshot_path(f"touch-{screen}-360x640.png")))
    targets = await page.evaluate(TARGETS_JS)
    assert len(targets) >= 5, targets
    small = [f"{t['what']} {t['text']!r}: {t['width']:.1f}x{t['height']:.1f}" for t in targets
             if t["width"] < 44 or t["height"] < 44]
    assert not small, "\n".join(small)
    assert phone.errors == []


# The middle of the part of a hand card a tap reaches, the card brought into the hand's view first.
STRIP_JS = """(el) => {
  el.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  const hits = [];
  for (let x = r.left + 1; x < r.right; x += 2) {
    for (let y = r.top + 1; y < r.bottom; y += 2) {
      const hit = document.elementFromPoint(x, y);
      if (hit && hit.closest('.card') === el) hits.push([x, y]);
    }
  }
  const xs = hits.map((p) => p[0]), ys = hits.map((p) => p[1]);
  const left = Math.min(...xs), right = Math.max(...xs), top = Math.min(...ys), bottom = Math.max(...ys);
  return {x: (left + right) / 2, y: (top + bottom) / 2, width: right - left + 2, height: bottom - top + 2};
}"""


async def only_selected(page: Page) -> list[str]:
    """The hand cards shown as chosen."""
    cards: list[str] = await page.locator('.kc-hand .card[aria-pressed="true"]').evaluate_all(
        "els => els.map(e => e.dataset.card)")
    return cards


async def test_kings_big_hand_every_card_is_tapped_where_it_shows(browser: Any, server: Server) -> None:
    table_id = await big_kings_hand(server, 7790, 15)
    phone = await open_phone(browser, server, {"id": 7790, "first_name": "Ann", "language_code": "en"},
                             start_param=table_id, viewport=SMALL)
    page = phone.page
    cards = page.locator(".kc-hand .card")
    await expect(cards.first).to_be_visible()
    await page.wait_for_function("() => document.querySelector('.kc-table').dataset.turn === 'mine'")
    n = await cards.count()
    assert n >= 15
    assert int(await page.locator(".kc-hand").get_attribute("data-rows") or "0") == 2
    # the hand and End turn in view, and the page never wider than the phone
    fit = await page.evaluate("""() => ({scroll: document.documentElement.scrollWidth - innerWidth,
      hand: document.querySelector('.kc-hand').getBoundingClientRect().bottom,
      end: document.querySelector('.kc-end-turn').getBoundingClientRect().bottom, height: innerHeight})""")
    assert fit["scroll"] <= 0 and fit["hand"] <= fit["height"] and fit["end"] <= fit["height"], fit
    await page.screenshot(path=str(screenshot_path("kings-corner-big-hand-360x640.png")))
    for i in range(n):
        card = cards.nth(i)
        name = await card.get_attribute("data-card")
        strip = await card.evaluate(STRIP_JS)
        assert strip["width"] >= 44 and strip["height"] >= 44, (name, strip)
        await page.touchscreen.tap(strip["x"], strip["y"])
        await expect(card).to_have_attribute("aria-pressed", "true")
        assert await only_selected(page) == [name]
    # a card of the lower row is chosen (the last one tapped): it stays put, and every card of the row above
    # still shows a whole strip to tap
    assert await cards.nth(n - 1).evaluate("el => getComputedStyle(el).transform") == "none"
    upper = page.locator(".kc-hand .fan-row").first.locator(".card")
    for i in range(await upper.count()):
        strip = await upper.nth(i).evaluate(STRIP_JS)
        assert strip["width"] >= 44 and strip["height"] >= 44, (i, strip)
    await page.screenshot(path=str(screenshot_path("kings-corner-big-hand-lower-chosen-360x640.png")))
    # a card of the upper row, chosen, rises out of the fan
    first = upper.first
    strip = await first.evaluate(STRIP_JS)
    await page.touchscreen.tap(strip["x"], strip["y"])
    await expect(first).to_have_attribute("aria-pressed", "true")
    lifted = await first.evaluate("el => getComputedStyle(el).transform")
    assert lifted != "none", lifted
    assert phone.errors == []
