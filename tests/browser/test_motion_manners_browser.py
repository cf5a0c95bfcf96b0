"""Motion with manners: nothing moves over words the player reads. Every animation frame, the boxes of everything in
motion (flying cards, the dealt hand, points, the hand's end on the felt) are measured against the status line and
the words on the felt and above it: the deal never crosses the status bar, Sergeant Major's hand end never lands on
the exchange's words, and "Your turn" shows only once the card played before it has landed."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page, expect

from tests.browser.conftest import Server, open_phone, screenshot_path
from tests.browser.test_motion_browser import SMALL, ai_table, drag, seq_of, state_of, user
from tests.browser.test_sergeant_major_browser import decide

# Every frame: what moves (finite animations' targets, flying copies, the hand's end) against the words to read;
# each overlap is kept, and each moment the status turns to "Your turn" notes what was still flying then.
WATCH = """() => {
  const rec = { overlaps: [], moving: 0, turns: [], handEnds: 0 };
  window.__manners = rec;
  const WORDS = '.status, .sm-notes:not([hidden]), .sm-panel h2, .sm-panel p, .coach:not([hidden])';
  const hit = (a, b) => a.width > 0 && a.height > 0 && b.width > 0 && b.height > 0
    && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const flying = () => {
    const found = new Set(document.querySelectorAll('.fly, .kc-fly, .fly-points'));
    for (const a of document.getAnimations()) {
      if (a.playState !== 'running' || !a.effect || a.effect.getTiming().iterations === Infinity) continue;
      const el = a.effect.target;
      if (el && el.nodeType === 1 && !(a instanceof CSSTransition)) found.add(el);
    }
    return [...found];
  };
  const name = (el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
  const sample = () => {
    const movers = [...flying(), ...document.querySelectorAll('.hand-end')];
    if (movers.length) rec.moving += 1;
    if (document.querySelector('.hand-end')) rec.handEnds += 1;
    const words = [...document.querySelectorAll(WORDS)];
    for (const el of movers) for (const w of words) {
      if (el.contains(w) || w.contains(el)) continue;
      const a = el.getBoundingClientRect(), b = w.getBoundingClientRect();
      if (hit(a, b) && rec.overlaps.length < 20) rec.overlaps.push([name(el), name(w), w.textContent.slice(0, 40)]);
    }
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
  new MutationObserver(() => {
    const mine = document.querySelector('.status.mine');
    if (mine && !rec.wasMine) rec.turns.push(flying().map(name));
    rec.wasMine = Boolean(mine);
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'], childList: true });
}"""
SETTLED = """() => document.getAnimations().every((a) => a.playState !== 'running'
  || (a.effect && a.effect.getTiming().iterations === Infinity)) && !document.querySelector('.fly, .fly-points')"""


async def record(page: Page) -> dict[str, Any]:
    rec: dict[str, Any] = await page.evaluate("window.__manners")
    return rec


async def test_the_deal_and_every_card_keep_off_the_status_and_your_turn_waits_for_the_landing(
        browser: Any, server: Server) -> None:
    uid = 6201
    table_id = await ai_table(server, "coins", uid, {"first_dealer": "seat:2"}, start=False)
    phone = await open_phone(browser, server, user(101), start_param=table_id, viewport=SMALL)
    page = phone.page
    await page.emulate_media(reduced_motion="no-preference")
    await expect(page.locator(".lobby")).to_be_visible()
    await page.evaluate(WATCH)
    await server.service.start_game(table_id, uid)
    await expect(page.locator(".hand .card")).to_have_count(16)
    await page.wait_for_function(SETTLED)
    dealt = await record(page)
    assert dealt["moving"] >= 5, dealt  # the deal did move
    assert dealt["overlaps"] == [], dealt  # ... and never over the status bar
    # Ann leads three tricks, each card by a tap; the AI players' cards fly in after hers and the tricks sweep away
    for _ in range(3):
        await expect(page.locator(".status.mine")).to_be_visible(timeout=15_000)
        state = await state_of(server, table_id, uid)
        before = await seq_of(page)
        await page.locator(f'.hand .card[data-card="{state["legal"][0]}"]').tap()
        await page.wait_for_function("s => Number(document.querySelector('.table-screen').dataset.seq) > s",
                                     arg=before)
    await expect(page.locator(".status.mine")).to_be_visible(timeout=15_000)
    await page.wait_for_function(SETTLED)
    played = await record(page)
    assert played["overlaps"] == [], played
    # "Your turn" came each time with nothing in flight: the card before it had landed
    assert len(played["turns"]) >= 4 and all(moving == [] for moving in played["turns"]), played
    await page.screenshot(path=str(screenshot_path("manners-coins-your-turn-360x640.png")))
    assert phone.errors == []


async def test_sergeant_majors_hand_end_never_lands_on_the_exchange(browser: Any, server: Server) -> None:
    uid = 6202
    # the lesson's deal: hand 1 ends with an exchange to make in hand 2
    table_id = await ai_table(server, "sergeant_major", uid, {"first_dealer": "host", "variant": "classic"})
    phone = await open_phone(browser, server, user(102), start_param=table_id, viewport=SMALL)
    page = phone.page
    await page.emulate_media(reduced_motion="no-preference")
    await expect(page.locator(".sm-table")).to_be_visible()
    await page.evaluate(WATCH)
    # Ann's moves through the service as fast as it takes them, to the second hand; the page follows at its pace
    for _ in range(80):
        view = await server.service.view(table_id, uid)
        state = view["state"]
        if state["hand_no"] > 1:
            break
        if state["turn"] == view["you"]:
            await server.service.act(table_id, uid, decide(state), view["seq"])
        await server.service.idle()
    state = await state_of(server, table_id, uid)
    assert state["hand_no"] == 2 and state["phase"] != "play", state["phase"]
    card = page.locator(".felt .hand-end")
    await expect(card).to_be_visible(timeout=30_000)
    await expect(page.locator(".felt .sm-panel")).to_have_count(0)  # alone on the felt while it shows
    await page.screenshot(path=str(screenshot_path("manners-sm-hand-end-360x640.png")))
    await expect(card).to_have_count(0, timeout=5_000)
    await expect(page.locator(".felt .sm-panel h2")).to_be_visible()  # then the next decision's words
    await page.wait_for_function(SETTLED)
    rec = await record(page)
    assert rec["handEnds"] >= 10, rec  # it was on show for frames on end
    assert rec["overlaps"] == [], rec
    await page.screenshot(path=str(screenshot_path("manners-sm-after-hand-end-360x640.png")))
    assert phone.errors == []


async def test_ann_s_own_card_and_a_drag_keep_off_the_status(browser: Any, server: Server) -> None:
    uid = 6203
    table_id = await ai_table(server, "coins", uid, {"first_dealer": "seat:2"})
    phone = await open_phone(browser, server, user(103), start_param=table_id, viewport=SMALL)
    page = phone.page
    await page.emulate_media(reduced_motion="no-preference")
    await expect(page.locator(".status.mine")).to_be_visible()
    await page.evaluate(WATCH)
    state = await state_of(server, table_id, uid)
    await drag(page, state["legal"][0], ".felt")
    await expect(page.locator(".trick .card")).not_to_have_count(0)
    await page.wait_for_function(SETTLED)
    rec = await record(page)
    assert rec["overlaps"] == [], rec
    assert phone.errors == []
