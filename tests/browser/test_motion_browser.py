"""The game-app table: motion that tells the deal, the trick and the hand's end (and none when motion is reduced, with
the same end states), drag to play, one-tap play, sound on at first and off for good after one tap, a buzz in
Telegram when your turn begins, and a fanned hand much larger than the eight-column grid it replaced."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, ViewportSize, expect

from tests.browser.conftest import Phone, Server, open_phone, screenshot_path
from tests.browser.test_sergeant_major_browser import decide

SEED = "a0" * 32
SMALL: ViewportSize = {"width": 360, "height": 640}
TALL: ViewportSize = {"width": 390, "height": 844}
# Drawn width of a hand card before the fan, measured at the commit before it (eight 44 px columns, the card drawn
# 2 px inside each): 40 px at 360×640, 43.75 px at 390×844.
GRID_CARD = {360: 40.0, 390: 43.75}

# Records, from now on, the most animations running at once (finite ones: a looping glow is no story) and every
# element added with a motion class.
RECORD = """() => {
  const rec = { running: 0, inHand: 0, flown: [] };
  window.__motion = rec;
  const sample = () => {
    const live = document.getAnimations().filter((a) => a.playState === 'running'
      && !(a.effect && a.effect.getTiming().iterations === Infinity));
    rec.running = Math.max(rec.running, live.length);
    rec.inHand = Math.max(rec.inHand, live.filter((a) => a.effect && a.effect.target
      && a.effect.target.closest && a.effect.target.closest('.hand')).length);
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (node.classList && ['fly', 'fly-points', 'dragging'].some((c) => node.classList.contains(c))) {
        rec.flown.push(node.className);
      }
    }
  }).observe(document.body, { childList: true });
}"""
SETTLED = """() => document.getAnimations().every((a) => a.playState !== 'running'
  || (a.effect && a.effect.getTiming().iterations === Infinity))
  && !document.querySelector('.fly, .fly-points, .dragging')"""
# What stays on the page once everything has moved: nothing in flight, every hand card in its place.
END_STATE = """() => ({
  flying: document.querySelectorAll('.fly, .fly-points, .dragging').length,
  hand: [...document.querySelectorAll('.hand .card')].map((c) => c.dataset.card),
  moved: [...document.querySelectorAll('.hand .card')].filter((c) => c.getAnimations().length).length,
  done: [...document.querySelectorAll('.trick.done .card')].map((c) => c.dataset.card),
  win: (document.querySelector('.trick.done .card.win') || {dataset: {}}).dataset.seat ?? null,
  live: [...document.querySelectorAll('.trick:not(.done) .card')].map((c) => c.dataset.card),
})"""


def user(n: int) -> dict[str, Any]:
    """A Telegram user speaking English."""
    return {"id": 6100 + n, "first_name": "Ann", "language_code": "en"}


async def ai_table(server: Server, game: str, uid: int, options: dict[str, Any], *, start: bool = True) -> str:
    """A table of ``game`` hosted by ``uid`` with AI players in the other seats."""
    info = await server.service.create_table(game, uid, "Ann", options, seed=SEED)
    for _ in range(info.size - 1):
        await server.service.add_ai(info.id, uid)
    if start:
        await server.service.start_game(info.id, uid)
    return info.id


async def seq_of(page: Page) -> int:
    """The seq the page's table view is at."""
    return int(await page.locator(".table-screen").get_attribute("data-seq") or "-1")


async def state_of(server: Server, table_id: str, uid: int) -> dict[str, Any]:
    """Ann's view of the table's state, from the service."""
    await server.service.idle()
    state: dict[str, Any] = (await server.service.view(table_id, uid))["state"]
    return state


async def strip(page: Page, card: str) -> dict[str, float]:
    """The middle of the part of a hand card that shows (the fan covers the rest)."""
    point: dict[str, float] = await page.locator(f'.hand .card[data-card="{card}"]').evaluate("""(el) => {
      const r = el.getBoundingClientRect();
      const hits = [];
      for (let x = r.left + 1; x < r.right; x += 2) for (let y = r.top + 1; y < r.bottom; y += 2) {
        const hit = document.elementFromPoint(x, y);
        if (hit && hit.closest('.card') === el) hits.push([x, y]);
      }
      const xs = hits.map((p) => p[0]), ys = hits.map((p) => p[1]);
      return {x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2};
    }""")
    return point


async def drag(page: Page, card: str, to: str) -> None:
    """Drag a hand card with the mouse (pointer events) and let it go over the middle of ``to``."""
    start = await strip(page, card)
    box = await page.locator(to).bounding_box()
    assert box is not None
    await page.mouse.move(start["x"], start["y"])
    await page.mouse.down()
    steps = 8
    for i in range(1, steps + 1):
        x = start["x"] + (box["x"] + box["width"] / 2 - start["x"]) * i / steps
        y = start["y"] + (box["y"] + box["height"] / 2 - start["y"]) * i / steps
        await page.mouse.move(x, y)
    await expect(page.locator(".card.dragging")).to_have_count(1)
    await page.mouse.up()


async def coins_motion(browser: Any, server: Server, n: int, reduced: bool) -> tuple[Phone, dict[str, Any]]:
    """Ann's phone (motion reduced or not) sees a Coins game dealt, plays the first trick and the next lead shows;
    the record of what moved and the end state."""
    uid = 6100 + n
    table_id = await ai_table(server, "coins", uid, {"first_dealer": "seat:2"}, start=False)
    phone = await open_phone(browser, server, user(n), start_param=table_id)
    page = phone.page
    await page.emulate_media(reduced_motion="reduce" if reduced else "no-preference")
    await expect(page.locator(".lobby")).to_be_visible()
    await page.evaluate(RECORD)
    await server.service.start_game(table_id, uid)
    await expect(page.locator(".hand .card")).to_have_count(16)
    dealt = await page.evaluate("window.__motion.inHand")
    await page.wait_for_function(SETTLED)
    after_deal = await page.evaluate(END_STATE)
    # Ann leads (seat 2 dealt); the AI players answer, the trick is taken
    state = await state_of(server, table_id, uid)
    card = state["legal"][0]
    before = await seq_of(page)
    await drag(page, card, ".felt")
    await page.wait_for_function("s => Number(document.querySelector('.table-screen').dataset.seq) > s", arg=before)
    await expect(page.locator(".trick.done .card")).to_have_count(3)
    await page.wait_for_function(SETTLED)
    took = await page.evaluate(END_STATE)
    # the next lead: the winner's, which the page shows after the trick was read; while Ann takes the tricks she
    # leads them, until an AI player leads and the page stops at her turn with the led card on the felt
    for _ in range(16):
        await expect(page.locator(".status.mine")).to_be_visible(timeout=15_000)  # shown once the cards landed
        state = await state_of(server, table_id, uid)
        if state["trick"]:
            break
        before = await seq_of(page)
        await drag(page, state["legal"][0], ".felt")
        await page.wait_for_function("s => Number(document.querySelector('.table-screen').dataset.seq) > s",
                                     arg=before)
    await expect(page.locator(".trick:not(.done) .card").first).to_be_visible()
    await page.wait_for_function(SETTLED)
    led = await page.evaluate(END_STATE)
    record = await page.evaluate("window.__motion")
    return phone, {"dealt": dealt, "after_deal": after_deal, "took": took, "led": led, "record": record,
                   "points": (await state_of(server, table_id, uid))["scores"]}


async def test_coins_deal_trick_and_sweep_move_and_settle_as_they_would_still(browser: Any, server: Server) -> None:
    moving_phone, moving = await coins_motion(browser, server, 1, reduced=False)
    still_phone, still = await coins_motion(browser, server, 2, reduced=True)
    flown = [name.split() for name in still["record"]["flown"]]
    still["record"]["flown"] = [name for name in flown if "dragging" not in name]  # the finger's card is no motion
    # with motion: the deal flew 16 cards in, the cards played flew, the trick swept to its winner
    assert moving["dealt"] >= 10, moving
    flown = [name.split() for name in moving["record"]["flown"]]
    assert sum("fly" in name for name in flown) >= 5, moving["record"]  # 3 + 1 cards played, 3 swept
    assert sum("dragging" in name for name in flown) >= 1, moving["record"]
    # reduced motion: nothing ever moved, nothing flew
    assert still["dealt"] == 0 and still["record"]["running"] == 0 and still["record"]["flown"] == [], still
    for run in (moving, still):
        # the end states: every card in its place, nothing left in flight
        assert run["after_deal"]["flying"] == 0 and run["after_deal"]["moved"] == 0, run
        assert len(run["after_deal"]["hand"]) == 16, run
        assert len(run["took"]["done"]) == 3 and run["took"]["win"] is not None and run["took"]["flying"] == 0, run
        assert len(run["took"]["hand"]) == 15, run
        assert run["led"]["done"] == [] and len(run["led"]["live"]) >= 1 and run["led"]["flying"] == 0, run
    # the same deal and the same first card on both phones: the same hands after the deal and after the first card
    assert moving["after_deal"]["hand"] == still["after_deal"]["hand"]
    assert moving["took"]["hand"] == still["took"]["hand"]
    await moving_phone.page.screenshot(path=str(screenshot_path("motion-coins-led-390x844.png")))
    assert moving_phone.errors == [] and still_phone.errors == []


async def test_coins_hand_end_shows_each_players_change_then_the_next_deal(browser: Any, server: Server) -> None:
    uid = 6110
    table_id = await ai_table(server, "coins", uid, {"first_dealer": "seat:2"})
    phone = await open_phone(browser, server, user(10), start_param=table_id, viewport=SMALL)
    page = phone.page
    await expect(page.locator(".hand .card")).to_have_count(16)
    await page.evaluate(RECORD)
    # Ann's cards are played for her through the service, as fast as it takes them; the page follows
    for _ in range(40):
        view = await server.service.view(table_id, uid)
        state = view["state"]
        if state["hand_no"] > 1:
            break
        if state["turn"] == view["you"]:
            await server.service.act(table_id, uid, {"type": "play", "card": state["legal"][0]}, view["seq"])
        await server.service.idle()
    scores = (await state_of(server, table_id, uid))["scores"]
    card = page.locator(".felt .hand-end")
    await expect(card).to_be_visible(timeout=30_000)
    await expect(card.locator("h3")).to_have_text("Hand 1:")
    await expect(card.locator("li")).to_have_count(3)
    values = [int(v.replace("+", "").replace("−", "-")) for v in await card.locator("li b").all_text_contents()]
    assert sorted(values) == sorted(scores), (values, scores)  # hand 1's points are the whole score so far
    await page.screenshot(path=str(screenshot_path("motion-coins-hand-end-360x640.png")))
    await expect(card).to_have_count(0, timeout=5_000)  # it makes way for the next hand
    await expect(page.locator(".hand .card")).to_have_count(16)
    # the next hand's AI players may lead and follow before Ann (their cards fly in turn): once it is her turn,
    # the table has settled and nothing is in flight
    await expect(page.locator(".status.mine")).to_be_visible(timeout=15_000)
    await page.wait_for_function(SETTLED)
    assert await page.evaluate(END_STATE.replace("() =>", "() => (").rstrip() + ").flying") == 0
    record = await page.evaluate("window.__motion")
    assert "fly-points" in record["flown"], record  # a trick's points rose to a score at least once in the hand
    assert phone.errors == []


async def sergeant_major_play(server: Server, uid: int) -> str:
    """A Sergeant Major table Ann deals, brought through trumps and the kitty to her first card."""
    table_id = await ai_table(server, "sergeant_major", uid, {"first_dealer": "host"})
    for _ in range(30):
        view = await server.service.view(table_id, uid)
        state = view["state"]
        if state["phase"] == "play" and state["turn"] == view["you"]:
            return table_id
        if state["turn"] == view["you"]:
            await server.service.act(table_id, uid, decide(state), view["seq"])
        await server.service.idle()
    raise AssertionError("Ann never came to play a card")


@pytest.mark.parametrize("game", ["coins", "sergeant_major"])
async def test_drag_a_card_onto_the_felt_plays_it_and_elsewhere_puts_it_back(
        browser: Any, server: Server, game: str) -> None:
    n = 20 + ["coins", "sergeant_major"].index(game)
    uid = 6100 + n
    if game == "coins":
        table_id = await ai_table(server, game, uid, {"first_dealer": "seat:2"})
    else:
        table_id = await sergeant_major_play(server, uid)
    phone = await open_phone(browser, server, user(n), start_param=table_id, viewport=SMALL)
    page = phone.page
    await expect(page.locator(".ring.seated .felt")).to_be_visible()
    state = await state_of(server, table_id, uid)
    count = len(state["hand"])
    await expect(page.locator(".hand .card")).to_have_count(count)
    card = state["legal"][0]
    # let go over the status bar: the card goes back, nothing is sent
    before = await seq_of(page)
    await drag(page, card, ".status")
    await expect(page.locator(".card.dragging")).to_have_count(0)
    await expect(page.locator(f'.hand .card[data-card="{card}"]')).not_to_have_class("lifted")
    await expect(page.locator(f'.hand .card[data-card="{card}"]')).to_have_attribute("aria-pressed", "false")
    assert await seq_of(page) == before
    assert len((await state_of(server, table_id, uid))["hand"]) == count
    # over the felt: played
    await drag(page, card, ".felt")
    await expect(page.locator(f'.hand .card[data-card="{card}"]')).to_have_count(0)
    await expect(page.locator(f'.trick .card[data-card="{card}"]')).to_be_visible()
    assert card not in (await state_of(server, table_id, uid))["hand"]
    # nothing of the drag is left behind (the AI players' cards may be flying in by now: theirs are not checked)
    await expect(page.locator(f'.card.dragging, .fly[data-card="{card}"]')).to_have_count(0)
    await page.wait_for_function(SETTLED)
    await page.screenshot(path=str(screenshot_path(f"drag-{game}-360x640.png")))
    assert phone.errors == []


async def test_one_tap_plays_a_card_at_first_and_cards_are_confirmed_once_it_is_off(browser: Any,
                                                                                        server: Server) -> None:
    uid = 6130
    table_id = await ai_table(server, "coins", uid, {"first_dealer": "seat:2"})
    phone = await open_phone(browser, server, user(30), start_param=table_id)
    page = phone.page
    await expect(page.locator(".hand .card")).to_have_count(16)
    await expect(page.locator(".actions .hint")).to_have_text("Tap a card to play it.")
    state = await state_of(server, table_id, uid)
    first, second = state["hand"][0], state["hand"][1]
    before = await seq_of(page)
    await page.locator(f'.hand .card[data-card="{first}"]').tap()  # on at first: Ann leads, every card is legal
    await expect(page.locator(f'.hand .card[data-card="{first}"]')).to_have_count(0)
    assert await seq_of(page) > before
    assert first not in (await state_of(server, table_id, uid))["hand"]
    await page.locator(".topbar .settings-btn").tap()  # the page's own gear, in or out of Telegram
    switch = page.locator(".settings-sheet").get_by_role("button", name="One-tap play")
    await expect(switch).to_have_attribute("aria-pressed", "true")
    await switch.tap()
    await expect(switch).to_have_attribute("aria-pressed", "false")
    await page.screenshot(path=str(screenshot_path("settings-one-tap-390x844.png")))
    assert await page.evaluate("localStorage.getItem('cardroom.one_tap')") == "off"
    await page.reload()  # remembered
    await expect(page.locator(".hand .card")).to_have_count(15)
    await expect(page.locator(".actions .hint")).to_have_text("Tap a card, then tap it again to play it.",
                                                              timeout=20_000)  # the AI players' turns first
    await page.locator(f'.hand .card[data-card="{second}"]').tap()  # off: one tap only picks the card
    await expect(page.locator(f'.hand .card[data-card="{second}"]')).to_have_attribute("aria-pressed", "true")
    assert second in (await state_of(server, table_id, uid))["hand"]
    before = await seq_of(page)
    await page.locator(f'.hand .card[data-card="{second}"]').tap()  # and the second tap plays it
    await expect(page.locator(f'.hand .card[data-card="{second}"]')).to_have_count(0)
    assert await seq_of(page) > before
    assert phone.errors == []


async def test_sound_is_on_at_first_and_off_for_good_after_one_tap(browser: Any, server: Server) -> None:
    table_id = await ai_table(server, "coins", 6140, {"first_dealer": "seat:2"})
    phone = await open_phone(browser, server, user(40), start_param=table_id)
    page = phone.page
    toggle = page.locator(".topbar .sound-btn")
    await expect(toggle).to_have_attribute("aria-pressed", "true")
    assert await page.evaluate("localStorage.getItem('cardroom.sound')") is None  # nobody chose: the default
    await toggle.tap()
    await expect(toggle).to_have_attribute("aria-pressed", "false")
    assert await page.evaluate("localStorage.getItem('cardroom.sound')") == "off"
    await page.reload()
    await expect(page.locator(".topbar .sound-btn")).to_have_attribute("aria-pressed", "false")
    assert phone.errors == []


@pytest.mark.parametrize("game", ["coins", "sergeant_major"])
async def test_the_fanned_hand_is_much_larger_on_both_phones_light_and_dark(
        browser: Any, server: Server, game: str) -> None:
    n = 50 + ["coins", "sergeant_major"].index(game)
    uid = 6100 + n
    if game == "coins":
        table_id = await ai_table(server, game, uid, {"first_dealer": "seat:2"})
    else:
        table_id = await sergeant_major_play(server, uid)
    for scheme in ("light", "dark"):
        for viewport in (SMALL, TALL):
            phone = await open_phone(browser, server, user(n), start_param=table_id, viewport=viewport, scheme=scheme)
            page = phone.page
            await expect(page.locator(".hand .card").first).to_be_visible()
            await page.wait_for_function(SETTLED)
            size = f"{viewport['width']}x{viewport['height']}"
            await page.screenshot(path=str(screenshot_path(f"table-{game}-{scheme}-{size}.png")))
            fit = await page.evaluate("""() => {
              const cards = [...document.querySelectorAll('.hand .card')].map((c) => c.getBoundingClientRect());
              const felt = document.querySelector('.felt').getBoundingClientRect();
              return {width: Math.min(...cards.map((r) => r.width)), bottom: Math.max(...cards.map((r) => r.bottom)),
                      right: Math.max(...cards.map((r) => r.right)), left: Math.min(...cards.map((r) => r.left)),
                      felt: felt.height, height: innerHeight, scroll: document.documentElement.scrollHeight};
            }""")
            # at least half as wide again as the grid's cards, all in view, and the page not scrolling
            assert fit["width"] >= 1.5 * GRID_CARD[viewport["width"]], fit
            assert fit["left"] >= 0 and fit["right"] <= viewport["width"], fit
            assert fit["bottom"] <= fit["height"] and fit["scroll"] <= fit["height"], fit
            # the felt only as tall as the trick needs
            assert fit["felt"] <= 200, fit
            assert phone.errors == []
            await phone.context.close()


async def test_telegram_buzzes_once_each_time_your_turn_begins(browser: Any, server: Server) -> None:
    uid = 6160
    table_id = await ai_table(server, "coins", uid, {"first_dealer": "seat:2"})
    phone = await open_phone(browser, server, user(60), start_param=table_id)
    page = phone.page
    await expect(page.locator(".status.mine")).to_be_visible()  # Ann leads the first trick

    async def buzzes() -> int:
        buzz = ["web_app_trigger_haptic_feedback", {"type": "impact", "impact_style": "medium"}]
        return sum(1 for call in await phone.tg_calls() if call == buzz)

    assert await buzzes() == 1
    card = (await state_of(server, table_id, uid))["legal"][0]
    await page.locator(f'.hand .card[data-card="{card}"]').tap()  # one tap plays it
    await expect(page.locator(".status.mine")).to_have_count(0)
    await expect(page.locator(".status.mine")).to_be_visible(timeout=15_000)  # her turn again: this trick or the next
    assert await buzzes() == 2
    assert phone.errors == []


async def test_kings_drag_a_card_onto_a_pile_plays_it_there(browser: Any, server: Server) -> None:
    uid = 6170
    table_id = await ai_table(server, "kings_corner", uid, {"players": 2})
    moves: list[dict[str, Any]] = []
    for _ in range(40):
        await server.service.idle()
        view = await server.service.view(table_id, uid)
        state = view["state"]
        if state["turn"] != view["you"]:
            continue
        moves = [a for a in state["legal"] if "card" in a]
        if moves:
            break
        await server.service.act(table_id, uid, {"type": "end_turn"}, view["seq"])
    assert moves, "Ann never had a card to put down"
    action = moves[0]
    card = action["card"]
    space = action.get("space") or action.get("corner") or action.get("side")
    phone = await open_phone(browser, server, user(70), start_param=table_id, viewport=SMALL)
    page = phone.page
    await expect(page.locator('.kc-table[data-turn="mine"]')).to_be_visible()
    await drag(page, card, f'.kc-pile[data-space="{space}"]')
    await expect(page.locator(f'.hand .card[data-card="{card}"]')).to_have_count(0)
    await expect(page.locator(f'.kc-pile[data-space="{space}"] .card[data-card="{card}"]')).to_have_count(1)
    assert card not in (await state_of(server, table_id, uid))["hand"]
    await page.screenshot(path=str(screenshot_path("drag-kings_corner-360x640.png")))
    assert phone.errors == []
