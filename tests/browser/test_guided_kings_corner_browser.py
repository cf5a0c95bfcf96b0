"""The guided first game of Kings in the Corner, played to its end by following the coach: Kings to the corners,
building down in alternating colours, moving piles, empty sides and ending a turn."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Position, expect

from tests.browser.conftest import Server, open_phone
from tests.browser.guided import Lesson, finish, follow, open_lesson

VISIBLE_EDGE: Position = {"x": 6, "y": 24}  # where a fanned card shows from under its neighbour
SEQ_PAST = "s => Number(document.querySelector('.table-screen').dataset.seq) > s"
PREFERENCE = ("place_king", "build", "move_king_pile", "move_pile", "fill_side", "end_turn")
STEP_ACTIONS = {"king": ("place_king",), "build": ("build",), "move": ("move_pile", "move_king_pile"),
                "fill": ("fill_side",), "end_turn": ("end_turn",)}


def first_of(legal: list[dict[str, Any]], types: tuple[str, ...]) -> dict[str, Any]:
    """The move the coach talks about: the first legal move of the first of these kinds that has one."""
    for kind in types:
        for action in legal:
            if action["type"] == kind:
                return action
    raise AssertionError(f"no {types} among {legal}")


async def move(lesson: Lesson) -> None:
    """Make the move the coach rings (or, once it has taught every kind, the first by preference) by tapping."""
    page = lesson.page
    state = await lesson.state()
    step = await lesson.note_step()
    action = first_of(state["legal"], STEP_ACTIONS.get(step or "", PREFERENCE))
    if step in STEP_ACTIONS:
        focus = page.locator(".coach-focus")
        await expect(focus.first).to_be_visible()
        ringed = await focus.evaluate_all("els => els.map(e => e.dataset.card || e.dataset.space || 'end')")
        wanted = [action.get(k) for k in ("card", "space", "corner", "side", "src", "dst") if action.get(k)]
        assert set(wanted or ["end"]) <= set(ringed), (step, action, ringed)
    before = await lesson.seq()
    kind = action["type"]
    if kind == "end_turn":
        await page.locator(".kc-end-turn").tap()
    elif kind in ("move_pile", "move_king_pile"):
        await page.locator(f'.kc-pile[data-space="{action.get("src") or action["side"]}"]').tap()
        await page.locator(f'.kc-pile[data-space="{action.get("dst") or action["corner"]}"]').tap()
    else:
        await page.locator(f'.kc-hand .card[data-card="{action["card"]}"]').tap(position=VISIBLE_EDGE)
        space = action.get("space") or action.get("corner") or action["side"]
        await page.locator(f'.kc-pile[data-space="{space}"]').tap()
    await page.wait_for_function(SEQ_PAST, arg=before)


async def test_kings_corner_guided_game_to_its_end_following_the_coach(browser: Any, server: Server) -> None:
    phone = await open_phone(browser, server, {"id": 7301, "first_name": "Nova", "language_code": "en"})
    lesson = await open_lesson(phone, server, "kings_corner", "Learn")

    async def check(step: str, text: str) -> None:
        assert step == "welcome" and "corners stay empty until a King" in text

    await follow(lesson, check, lambda: move(lesson))
    seen = (await lesson.page.locator(".coach").get_attribute("data-seen") or "").split()
    assert seen[:2] == ["welcome", "king"], seen  # the person plays first, and holds a King
    assert {"build", "move", "fill", "end_turn", "watch"} <= set(seen), seen
    assert seen.index("king") < seen.index("build") < seen.index("end_turn") < seen.index("watch")
    await finish(lesson, "kings_corner", max_taps=25)
