"""The lobby's Invite on a phone inside Telegram: with seats to fill it is on the first screen, under the seats and
above Start and the options; Invite hands Telegram the invitation the bot prepared (``shareMessage``), and the page
says when it was sent. Screenshots at 390×844."""

from __future__ import annotations

from typing import Any

from playwright.async_api import FloatRect, Page, Route, expect

from tests.browser.conftest import BOT_USERNAME, PHONE, SHORT_NAME, Server, open_phone, screenshot_path

ANN_ID = 7851
ANN: dict[str, Any] = {"id": ANN_ID, "first_name": "Ann", "language_code": "en", "allows_write_to_pm": True}


async def on_screen(page: Page, selector: str) -> FloatRect:
    """The element's box, which lies whole inside the viewport."""
    box = await page.locator(selector).bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (selector, box)
    return box


async def test_invite_sheet_hands_telegram_the_prepared_invitation_and_says_it_was_sent(
    browser: Any, server: Server,
) -> None:
    info = await server.service.create_table("kings_corner", ANN_ID, "Ann")
    link = f"https://t.me/{BOT_USERNAME}/{SHORT_NAME}?startapp={info.id}"
    ann = await open_phone(browser, server, ANN, start_param=info.id)
    page = ann.page
    asked: list[str] = []

    async def prepared(route: Route) -> None:
        asked.append(route.request.method)
        await route.fulfill(status=200, content_type="application/json",
                            body=f'{{"id": "prep-7851", "expires": 1900000000, "link": "{link}"}}')

    await page.route("**/api/tables/*/invite", prepared)
    invite = page.locator(".invite-btn")
    await expect(invite).to_have_text("Invite a friend")
    await expect(page.locator(".invite-btn + .hint")).to_be_visible()
    assert await page.evaluate("document.scrollingElement.scrollTop") == 0
    parts = (".lobby .seats", ".invite-btn", ".invite-btn + .hint", ".start-btn", ".lobby h3")
    seats, button, below, start, options = [await on_screen(page, s) for s in parts]
    assert seats["y"] < button["y"] < below["y"] < start["y"] < options["y"], "seats, Invite, Start, the options"
    await expect(page.locator(".lobby h3")).to_have_text(["Options"])  # no heading repeating the button's words
    assert button["height"] >= 44, "a thumb-sized button"
    await page.screenshot(path=str(screenshot_path("invite-sheet-390x844.png")))

    await invite.tap()
    await page.wait_for_function("() => (window.__tgCalls || []).some(([n, d]) =>"
                                 " n === 'web_app_send_prepared_message' && d.id === 'prep-7851')")
    assert asked == ["POST"]
    await ann.deliver("prepared_message_sent")
    toast = page.locator("#toast")
    await expect(toast).to_have_text("Invitation sent.")
    await on_screen(page, "#toast")
    await page.screenshot(path=str(screenshot_path("invite-sent-390x844.png")))
    assert ann.errors == []
