"""The coach on a phone: it never covers the hand or the main action, at 390x844 and 360x640, light and dark;
screenshots kept as artifacts."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from playwright.async_api import Page, ViewportSize, expect

from tests.browser.conftest import Server, open_phone, screenshot_path

SIZES: dict[str, ViewportSize] = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}
BOX_JS = "sel => [...document.querySelectorAll(sel)].map(e => e.getBoundingClientRect().toJSON()).filter(r => r.height)"


async def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    found: list[dict[str, float]] = await page.evaluate(BOX_JS, selector)
    return found


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["top"] < b["bottom"] and b["top"] < a["bottom"] and a["left"] < b["right"] and b["left"] < a["right"]


async def check_clear(page: Page, name: str) -> None:
    """The coach shows, covers neither the hand nor the actions, and fits the screen; a screenshot."""
    (coach,) = await boxes(page, ".coach")
    size = page.viewport_size
    assert size and coach["bottom"] <= size["height"] and coach["right"] <= size["width"]
    for other in await boxes(page, ".hand, .actions, .hand .card, .play-btn"):
        assert not overlap(coach, other), (name, coach, other)
    await page.screenshot(path=str(screenshot_path(name)), animations="disabled")


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_coach_leaves_hand_and_action_clear_on_phones(
    browser: Any, local_server: Server, scheme: Literal["light", "dark"]
) -> None:
    for size, viewport in SIZES.items():
        phone = await open_phone(browser, local_server, confirm_cards=True)  # a card picked shows the play button
        page = phone.page
        await page.emulate_media(color_scheme=scheme)
        await page.set_viewport_size(viewport)
        await page.locator("#signin-name").fill("Nova")
        await page.locator(".signin button[type=submit]").tap()
        await page.locator(".game-card[data-game='coins'] .learn-btn").tap()
        coach = page.locator(".coach[data-step='welcome']")
        await expect(coach).to_be_visible()
        await check_clear(page, f"coach-coins-welcome-{size}-{scheme}.png")
        await page.locator(".coach-next").tap()
        await expect(page.locator(".coach[data-step='cycle']")).to_be_visible()
        await expect(page.locator(".cycle.coach-focus")).to_be_visible()
        await check_clear(page, f"coach-coins-cycle-{size}-{scheme}.png")
        await page.locator(".coach-next").tap()
        await expect(page.locator(".coach[data-step='first_play']")).to_be_visible()
        ringed = page.locator(".hand .card.coach-focus")
        await ringed.tap()  # picked: the play button shows below the hand
        await expect(page.locator(".play-btn")).to_be_visible()
        await check_clear(page, f"coach-coins-first-play-{size}-{scheme}.png")
        assert phone.errors == []
        await phone.context.close()
