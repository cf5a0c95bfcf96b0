"""The guided first game of Coins, played to its end by following the coach, in English and in Russian."""

from __future__ import annotations

from typing import Any

from playwright.async_api import expect

from engine.games.coins import trick_winner
from tests.browser.conftest import Server, open_phone
from tests.browser.guided import Lesson, finish, follow, open_lesson

PLAY_STEPS = ("first_play", "second_play")
TRICK_STEPS = {"trick_one": 1, "trick_two": 2, "trick_three": 3}  # how many suits the trick it explains holds


async def play_ringed_card(lesson: Lesson) -> None:
    """Tap the card the coach rings (any card is legal in Coins): one tap plays it."""
    page = lesson.page
    ringed = page.locator(".hand .card.coach-focus")
    if await lesson.note_step() in PLAY_STEPS:
        await expect(ringed).to_have_count(1)
    card = page.locator(".hand .card").first if not await ringed.count() else ringed.first
    name = await card.get_attribute("data-card")
    assert name
    state = await lesson.state()
    assert name in state["legal"]
    await card.tap()
    await expect(page.locator(f'.hand .card[data-card="{name}"]')).to_have_count(0)  # the page shows it played


async def play(server: Server, browser: Any, locale: str, label: str, names: dict[int, str]) -> Lesson:
    user = {"id": 7101 if locale == "en" else 7102, "first_name": "Nova", "language_code": locale[:2]}
    phone = await open_phone(browser, server, user, locale=locale)
    lesson = await open_lesson(phone, server, "coins", label)
    seats = (await server.service.info(lesson.table_id)).seats
    page = lesson.page
    explained: list[int] = []

    async def check(step: str, text: str) -> None:
        if step not in TRICK_STEPS:
            return
        # the trick it explains is the one on show: its kind, and the winner it names is the rules' winner
        cards = await page.locator(".trick.done .card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert len({c.split("-")[1] for c in cards}) == TRICK_STEPS[step], (step, cards)
        plays = await page.locator(".trick.done .card").evaluate_all("els => els.map(e => Number(e.dataset.seat))")
        order = await page.locator(".trick.done .card .order").all_inner_texts()
        by_order = [c for _, c in sorted(zip(order, cards, strict=True))]
        seat_by_order = [s for _, s in sorted(zip(order, plays, strict=True))]
        winner = seat_by_order[trick_winner(by_order)]
        assert await page.locator(".trick.done .card.win").get_attribute("data-seat") == str(winner)
        assert names[winner] in text, (names[winner], text)
        if winner != 0:
            assert seats[winner].name.split(" ")[0] in text
        explained.append(winner)

    await follow(lesson, check, lambda: play_ringed_card(lesson))
    seen = (await page.locator(".coach").get_attribute("data-seen") or "").split()
    assert seen[:3] == ["welcome", "cycle", "first_play"], seen
    # each trick kind is explained the first time a trick of that kind is taken, right then
    assert [s for s in seen if s in TRICK_STEPS] == [s for s in lesson.steps if s in TRICK_STEPS]
    assert len(explained) >= 2 and "points" in seen
    return lesson


async def test_coins_guided_game_to_its_end_following_the_coach(browser: Any, server: Server) -> None:
    lesson = await play(server, browser, "en-US", "Learn", {0: "You", 1: "Ada", 2: "Basil"})
    assert "Cups beat Coins" in lesson.texts["cycle"]
    assert "The first to 5 points wins" in lesson.texts["welcome"]
    await finish(lesson, "coins", max_taps=25)


async def test_coins_guided_game_speaks_russian(browser: Any, server: Server) -> None:
    lesson = await play(server, browser, "ru-RU", "Обучение", {0: "Ты", 1: "Ada", 2: "Basil"})
    assert "Кубки бьют Монеты" in lesson.texts["cycle"]
    await expect(lesson.page.locator(".sheet.game-over .real-game")).to_have_text("Сыграть настоящую партию")
    await finish(lesson, "coins", max_taps=25)
