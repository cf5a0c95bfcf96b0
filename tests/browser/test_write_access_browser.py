"""Someone the bot cannot message yet, seated by the bot (the group's Join, an invitation) and not by the page, opens
the table on a 360×640 phone: the page says in one line why and asks Telegram for write access, once on that device;
Telegram's yes reaches the server, which may message them from then on. Someone the bot may already message is never
asked."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from playwright.async_api import Page, ViewportSize, expect

from tests.browser.conftest import Phone, Server, open_phone, screenshot_path

SMALL: ViewportSize = {"width": 360, "height": 640}
HOST = 9400
LINE = "Allow messages so the bot can tell you when it is your turn."
ASK = "web_app_request_write_access"


def person(user_id: int, *, can_write: bool = False) -> dict[str, Any]:
    """A Telegram user speaking English; ``can_write``: launch data saying the bot may write to them."""
    user: dict[str, Any] = {"id": user_id, "first_name": "Bob", "language_code": "en"}
    if can_write:
        user["allows_write_to_pm"] = True
    return user


async def seated_by_the_bot(server: Server, user_id: int, *, start: bool) -> str:
    """A Coins table hosted by someone else, with an AI and ``user_id``, who joined through the bot."""
    service = server.service
    info = await service.create_table("coins", HOST, "Host", {"target_score": 1})
    await service.add_ai(info.id, HOST)
    await service.join(info.id, user_id, "Bob")
    if start:
        await service.start_game(info.id, HOST)
    return info.id


async def asks(phone: Phone) -> int:
    """How many times the page has asked Telegram for write access since it loaded."""
    return len([name for name, _ in await phone.tg_calls() if name == ASK])


async def wait_asked(phone: Phone, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await asks(phone):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never asked; posted: {await phone.tg_calls()}")


async def until_reachable(server: Server, user_id: int, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await server.service.people.can_message(user_id):
            return True
        await asyncio.sleep(0.05)
    return False


async def table_shown(page: Page) -> None:
    await expect(page.locator(".table-screen[data-status]")).to_be_visible()


async def test_write_access_asked_once_for_a_person_seated_by_the_bot(browser: Any, server: Server) -> None:
    bob = 9401
    table_id = await seated_by_the_bot(server, bob, start=True)
    phone = await open_phone(browser, server, person(bob), start_param=table_id, viewport=SMALL, write_access=None)
    page = phone.page
    await wait_asked(phone)
    line = page.locator(".write-access-note")
    await expect(line).to_have_text(LINE)
    await expect(line).to_be_visible()
    await page.screenshot(path=str(screenshot_path("write-access-asked-360x640.png")))
    assert not await server.service.people.can_message(bob)

    await phone.deliver("write_access_requested", {"status": "allowed"})
    await expect(line).to_have_count(0)
    assert await until_reachable(server, bob), "the server says the bot may message him now"

    await page.reload()  # the table opened again on the same phone: not asked again
    await table_shown(page)
    await page.wait_for_timeout(500)
    assert await asks(phone) == 0
    await expect(page.locator(".write-access-note")).to_have_count(0)
    assert phone.errors == []


async def test_write_access_cancelled_changes_nothing_and_is_not_asked_again(browser: Any, server: Server) -> None:
    bob = 9402
    table_id = await seated_by_the_bot(server, bob, start=False)  # a lobby he joined with the group's Join
    phone = await open_phone(browser, server, person(bob), start_param=table_id, viewport=SMALL,
                             write_access="cancelled")
    page = phone.page
    await wait_asked(phone)
    await expect(page.locator(".write-access-note")).to_have_count(0)  # the answer came: the line goes
    await page.wait_for_timeout(300)
    assert not await server.service.people.can_message(bob)

    await page.reload()
    await table_shown(page)
    await page.wait_for_timeout(500)
    assert await asks(phone) == 0, "asked once on this phone, whatever the answer"
    assert phone.errors == []


async def test_write_access_never_asked_of_a_person_the_bot_may_message(browser: Any, server: Server) -> None:
    started, vouched = 9403, 9404
    await server.service.people.remember(started, "Bob")
    await server.service.people.set_can_message(started, True)  # he started the bot
    for user_id, can_write in ((started, False), (vouched, True)):
        table_id = await seated_by_the_bot(server, user_id, start=True)
        phone = await open_phone(browser, server, person(user_id, can_write=can_write), start_param=table_id,
                                 viewport=SMALL)
        await table_shown(phone.page)
        await phone.page.wait_for_timeout(800)
        assert await asks(phone) == 0, user_id
        await expect(phone.page.locator(".write-access-note")).to_have_count(0)
        assert phone.errors == []
        await phone.context.close()
