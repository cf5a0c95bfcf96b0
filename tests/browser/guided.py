"""Playing a guided first game in the browser by following its coach: read each step, check what it claims
against the rules, and play what it rings (or any legal card once it rings nothing)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Page, expect

from tests.browser.conftest import Phone, Server, screenshot_path

COACH = ".coach"
# what the page waits on: a step to read, the player's turn, or the end
NEXT_JS = """() => {
  const coach = document.querySelector('.coach');
  if (document.querySelector('.sheet.game-over')) return 'over';
  if (coach && !coach.hidden && coach.querySelector('.coach-next')) return 'read';
  if (document.querySelector('.status.mine, .kc-table[data-turn="mine"]')) return 'turn';
  return false;
}"""

STEP_GONE_JS = "s => { const c = document.querySelector('.coach'); return c.hidden || c.dataset.step !== s; }"


@dataclass
class Lesson:
    """One guided game being played: the page, the server, the steps seen in order."""

    phone: Phone
    server: Server
    table_id: str = ""
    steps: list[str] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)
    button_taps: int = 0  # presses of Telegram's own main button, which is outside the page

    async def taps(self) -> int:
        """The taps the learner made on the page since the lesson opened, and on Telegram's main button."""
        on_page: int = await self.page.evaluate("window.__lessonTaps || 0")
        return on_page + self.button_taps

    @property
    def page(self) -> Page:
        return self.phone.page

    async def state(self) -> dict[str, Any]:
        """The player's own view of the game, from the server."""
        state: dict[str, Any] = (await self.server.service.view(self.table_id, self.phone.user["id"]))["state"]
        return state

    async def note_step(self) -> str | None:
        """The step the coach shows now (noted once, in order)."""
        coach = self.page.locator(COACH)
        if await coach.is_hidden():
            return None
        step = await coach.get_attribute("data-step")
        if step and step not in self.steps:  # in the order first shown (advice for every turn comes back)
            self.steps.append(step)
            self.texts[step] = await coach.locator(".coach-text").inner_text()
        return step

    async def seq(self) -> int:
        return int(await self.page.locator(".table-screen").get_attribute("data-seq") or "-1")

    async def shoot(self, name: str) -> None:
        await self.page.screenshot(path=str(screenshot_path(name)))


async def open_lesson(phone: Phone, server: Server, game: str, label: str) -> Lesson:
    """From home: tap Learn (its words ``label``) on the game's card; the lesson's table is open."""
    page = phone.page
    learn = page.locator(f".game-card[data-game='{game}'] .learn-btn")
    await expect(learn).to_have_text(label)
    await learn.tap()
    await expect(page.locator(f"{COACH}[data-step='welcome']")).to_be_visible()
    table_id = await page.locator(".table-screen").get_attribute("data-table")
    assert table_id
    info = await server.service.info(table_id)
    assert info.lesson and info.status == "playing"
    # every finger on the page from here on counts as a tap (a tap is one touch, whatever it lands on)
    await page.evaluate("window.__lessonTaps = 0; "
                        "document.addEventListener('touchstart', () => { window.__lessonTaps += 1; }, true)")
    return Lesson(phone, server, table_id)


async def follow(
    lesson: Lesson, check: Callable[[str, str], Awaitable[None]], move: Callable[[], Awaitable[None]],
    *, max_rounds: int = 400,
) -> None:
    """Read every step (``check`` gets its id and text while its moment is on show, then "Got it"), and play each
    turn with ``move``, until the game is over."""
    page = lesson.page
    for _ in range(max_rounds):
        handle = await page.wait_for_function(NEXT_JS, timeout=60_000)
        what = await handle.json_value()
        step = await lesson.note_step()
        if what == "over":
            return
        if what == "read":
            assert step
            await check(step, lesson.texts.get(step, ""))
            await page.locator(f"{COACH} .coach-next").tap()
            await page.wait_for_function(STEP_GONE_JS, arg=step)
            continue
        await move()
    raise AssertionError(f"the guided game did not end in {max_rounds} rounds: {lesson.steps}")


async def finish(lesson: Lesson, game: str, *, max_taps: int | None = None) -> None:
    """The game is over and offers a real game; taking it opens a real game of the same game, already dealt. The
    lesson took at most ``max_taps`` taps (Learn, the real game's button and anything after not counted)."""
    page = lesson.page
    sheet = page.locator(".sheet.game-over")
    await expect(sheet.locator(".lesson-done")).to_be_visible()
    taps, seconds = await lesson.taps(), time.monotonic() - lesson.started
    print(f"{game} lesson: {taps} taps, {seconds:.0f} s, {len(lesson.steps)} steps")
    if max_taps is not None:
        assert taps <= max_taps, (taps, lesson.steps)
    result = (await lesson.server.service.info(lesson.table_id)).result
    assert result is not None and result["placements"][0] == 1, result  # following the coach wins
    real = sheet.locator(".real-game")
    await expect(real).to_be_visible()
    await expect(sheet.locator(".play-again")).to_have_count(0)
    info = await lesson.server.service.info(lesson.table_id)
    assert info.status == "finished" and info.result is not None
    await real.tap()
    await expect(page.locator(".table-screen")).not_to_have_attribute("data-table", lesson.table_id)
    await expect(page.locator(".hand .card").first).to_be_visible()
    await expect(page.locator(".lobby")).to_have_count(0)
    new_id = await page.locator(".table-screen").get_attribute("data-table")
    assert new_id and new_id != lesson.table_id
    fresh = await lesson.server.service.info(new_id)
    assert fresh.game == game and not fresh.lesson and fresh.status == "playing"
    assert lesson.phone.errors == []
