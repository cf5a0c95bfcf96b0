"""The guided first game of Sergeant Major, played to its end by following the coach: trumps, the kitty and the
tricks, won within the first hand in about two minutes, with the card to play ringed on every turn to the last."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from engine.games.sergeant_major import trick_winner
from tests.browser.conftest import Server, open_phone
from tests.browser.guided import COACH, Lesson, finish, follow, open_lesson

PLAY_STEPS = ("lead", "follow", "void")
SEQ_PAST = "s => Number(document.querySelector('.table-screen').dataset.seq) > s"
PLAYS_JS = ("els => els.map(e => [Number(e.querySelector('.order').textContent), Number(e.dataset.seat), "
            "e.dataset.card])")
RINGED_LEGAL_JS = """legal => {
  const ringed = [...document.querySelectorAll('.hand .card.coach-focus')];
  return ringed.length === 1 && legal.includes(ringed[0].dataset.card);
}"""


async def move(lesson: Lesson) -> None:
    """Do what the coach rings: a trump suit, the cards to put away or give, the card to play; then wait until the
    page shows the move made (it may still be showing a finished trick)."""
    page = lesson.page
    state = await lesson.state()
    # the coach speaks on every decision and every turn: wait for it, then read it
    wanted = {"trump": "trump", "kitty": "kitty", "exchange": "give"}.get(state["phase"], "(lead|follow|void)")
    await expect(page.locator(COACH)).to_have_attribute("data-step", re.compile(f"^{wanted}(_|$)"))
    step = await lesson.note_step()
    if state["phase"] == "trump":
        assert step == "trump"
        await page.locator(".sm-suit-btn.coach-focus").tap()
        await expect(page.locator(".sm-suit-btn")).to_have_count(0)
    elif state["phase"] in ("kitty", "exchange"):
        assert step and step.split("_h")[0] in ("kitty", "give"), step
        ringed = page.locator(".hand .card.coach-focus")
        await expect(ringed).to_have_count(state["choose"]["count"])
        for card in await ringed.evaluate_all("els => els.map(e => e.dataset.card)"):
            await page.locator(f'.hand .card[data-card="{card}"]').tap()
        # in Telegram the confirmation is Telegram's own main button
        await page.wait_for_function("() => window.Telegram.WebApp.MainButton.isVisible")
        await page.evaluate("window.Telegram.WebView.receiveEvent('main_button_pressed')")
        lesson.button_taps += 1
        await page.wait_for_function("() => !window.Telegram.WebApp.MainButton.isVisible")
    else:
        ringed = page.locator(".hand .card.coach-focus")
        if step and step.split("_h")[0] in PLAY_STEPS:
            await page.wait_for_function(RINGED_LEGAL_JS, arg=state["legal"])
        card = await ringed.first.get_attribute("data-card") if await ringed.count() else state["legal"][0]
        assert card in state["legal"]
        before = await lesson.seq()
        await page.locator(f'.hand .card[data-card="{card}"]').tap()  # one tap plays it
        # the page has the move (the card itself may be back in hand: a hand's last card, and the next deal)
        await page.wait_for_function(SEQ_PAST, arg=before)


async def test_sergeant_major_guided_game_to_its_end_following_the_coach(browser: Any, server: Server) -> None:
    phone = await open_phone(browser, server, {"id": 7201, "first_name": "Nova", "language_code": "en"})
    lesson = await open_lesson(phone, server, "sergeant_major", "Learn")
    seats = (await server.service.info(lesson.table_id)).seats
    names = ["You", *[s.name.split(" ")[0] for s in seats[1:]]]
    page = lesson.page

    async def check(step: str, text: str) -> None:
        if step in ("trick_high", "trick_trump"):
            state = await lesson.state()
            cards = await page.locator(".trick.done .card").evaluate_all(PLAYS_JS)
            plays = sorted(cards)
            winner = plays[trick_winner([c for _, _, c in plays], state["trump"])][1]
            assert await page.locator(".trick.done .card.win").get_attribute("data-seat") == str(winner)
            assert names[winner] in text, (names[winner], text)
            trumped = any(c.endswith(state["trump"]) for _, _, c in plays)
            assert (step == "trick_trump") == trumped, (step, plays)
        elif step == "hand_over":
            state = await lesson.state()
            for seat, result in enumerate(state["prev_result"]):
                shown = f"+{result}" if result > 0 else f"−{-result}" if result < 0 else "0"
                assert f"{names[seat]}" in text and f"({shown})" in text, (seat, result, text)

    await follow(lesson, check, lambda: move(lesson))
    seen = (await page.locator(".coach").get_attribute("data-seen") or "").split()
    assert seen[:3] == ["welcome", "trump", "kitty"], seen  # the person deals hand 1
    assert {"trick_high", "trick_trump"} <= set(seen) and any(step.startswith("follow_") for step in seen)
    # won within the first hand, and the coach rings the card to play on every turn, to the last trick
    state = await lesson.state()
    assert state["hand_no"] == 1 and state["winners"] == [0], state["winners"]
    plays = [step for step in seen if step.split("_h")[0] in PLAY_STEPS]
    assert plays[-1].startswith(tuple(f"{kind}_h{state['hand_no']}_t" for kind in PLAY_STEPS)), plays[-3:]
    await finish(lesson, "sergeant_major", max_taps=25)
