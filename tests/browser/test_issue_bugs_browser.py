"""Bugs a new player met (issue 32): a bad table link, Kings in the Corner's turn log, Sergeant Major's Last trick,
the opponents' panels, the fair-deal sheet and History's Kings scores."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Locator, Page, ViewportSize, expect

from tests.browser.conftest import PHONE, Phone, Server, open_phone, screenshot_path

SEED = "b0675" * 13
SMALL: ViewportSize = {"width": 360, "height": 640}


def user(n: int, lang: str = "en") -> dict[str, Any]:
    """A Telegram user speaking ``lang``."""
    return {"id": 6100 + n, "first_name": "Ann", "language_code": lang}


async def shoot(page: Page, name: str, focus: Locator | None = None) -> None:
    """Screenshots of the page at 390×844 and at 360×640, scrolled to ``focus`` when given."""
    for size in (PHONE, SMALL):
        await page.set_viewport_size(size)
        if focus is not None:
            await focus.scroll_into_view_if_needed()
        await page.screenshot(path=str(screenshot_path(f"{name}-{size['width']}x{size['height']}.png")))
    await page.set_viewport_size(PHONE)


async def test_bad_table_link_says_the_table_is_gone_and_leads_home(browser: Any, server: Server) -> None:
    for lang, words in (("en", "This table does not exist or has ended."),
                        ("ru", "Этого стола нет или игра за ним закончилась.")):
        for scheme in ("light", "dark"):
            phone: Phone = await open_phone(browser, server, user(1, lang), start_param="nosuchtable1",
                                            locale=lang, scheme=scheme)
            page = phone.page
            notice = page.locator(".table-missing")
            await expect(notice).to_contain_text(words)
            await expect(page.locator(".topbar .title")).to_have_count(0)  # no "Loading…" left behind
            await shoot(page, f"table-missing-{lang}-{scheme}")
            await notice.locator("button").tap()
            await expect(page.locator(".create-btn")).to_be_visible()
            assert "table=" not in page.url
            await phone.context.close()
