"""The Mini App inside Telegram's own script, on Android, iOS and desktop clients: Telegram's popups, settings button,
closing confirmation, full screen with safe areas, home screen, write access and active state, asserted on the
events the script posts to the client and on the page's answers to the events a client sends back."""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any

import pytest
from playwright.async_api import Dialog, WebSocketRoute, expect

import webapp.auth
from tests.browser.conftest import SHORT_INIT_DATA_AGE, Phone, Server, open_phone, screenshot_path
from tests.service.helpers import play_out

PLATFORMS = ["android", "ios", "tdesktop"]
PHONES = ["android", "ios"]


def user(n: int, *, can_write: bool = True) -> dict[str, Any]:
    """A Telegram user speaking English; ``can_write`` is initData's allows_write_to_pm."""
    person: dict[str, Any] = {"id": 8800 + n, "first_name": "Ann", "language_code": "en"}
    if can_write:
        person["allows_write_to_pm"] = True
    return person


async def new_table(server: Server, uid: int, *, start: bool = True, host: int | None = None) -> str:
    """A Coins table to 1 point with AI players; hosted by ``host`` (else ``uid``), who then leaves a seat free."""
    owner = host or uid
    info = await server.service.create_table("coins", owner, "Host" if host else "Ann", {"target_score": 1})
    for _ in range(info.size - (2 if host else 1)):
        await server.service.add_ai(info.id, owner)
    if start:
        await server.service.start_game(info.id, owner)
    return info.id


async def posted(phone: Phone, name: str) -> list[Any]:
    """The data of each event ``name`` the page's Telegram script posted, oldest first."""
    return [data for event, data in await phone.tg_calls() if event == name]


async def wait_posted(phone: Phone, name: str, data: Any = None, seconds: float = 5.0) -> None:
    """Wait until the script has posted ``name`` (with ``data``, when given)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seen = await posted(phone, name)
        if seen and (data is None or data in seen):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{name} {data} never posted; posted: {await phone.tg_calls()}")


class SignInClock:
    """The sign-in's wall clock, standing still until the test moves it: a page that is slow to load (a loaded
    machine) still signs in with initData seconds old, and initData turns too old exactly when the test says."""

    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        """What ``time.time()`` says to the sign-in."""
        return self.now


async def test_session_token_lets_a_socket_back_in_after_init_data_is_too_old(
    browser: Any, short_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = short_server
    clock = SignInClock()
    monkeypatch.setattr(webapp.auth, "time", clock)
    table_id = await new_table(server, 8801)
    ann = await open_phone(browser, server, user(1))
    page = ann.page
    await expect(page.locator(".game-picker")).to_be_visible()
    sockets: list[WebSocketRoute] = []
    hellos: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = []

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "hello":
                hellos.append(frame)
            upstream.send(message)

        def from_server(message: str | bytes) -> None:
            frames.append(json.loads(message))
            ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)
        sockets.append(ws)

    await page.route_web_socket(re.compile(r"/ws/"), route)
    await page.goto(f"{server.url}/?table={table_id}")
    await expect(page.locator(".hand .card").first).to_be_visible()
    welcomes = [f for f in frames if f["type"] == "welcome"]
    assert len(welcomes) == 1 and welcomes[0]["session"]
    assert hellos[0]["session"], "the first hello brings the session /api handed out"
    assert await page.evaluate("sessionStorage.getItem('cardroom.session')") == welcomes[0]["session"]

    clock.now += SHORT_INIT_DATA_AGE + 1.5  # initData is now too old to sign in with alone
    await ann.context.clear_cookies()  # only the token the page kept can get it in
    await sockets[0].close()
    await expect(page.locator(".conn.open")).to_have_count(0)
    await expect(page.locator(".conn.open")).to_have_count(1, timeout=10000)
    assert len(hellos) == 2 and hellos[1]["session"] == welcomes[0]["session"]
    assert [f["type"] for f in frames].count("welcome") == 2
    assert not [f for f in frames if f["type"] == "error"], frames
    await expect(page.locator(".hand .card").first).to_be_visible()

    # the same initData with no session is refused now: the token is what let the socket in
    refused = await page.evaluate("""(tableId) => new Promise((done) => {
      const ws = new WebSocket(`ws://${location.host}/ws/${tableId}`);
      ws.onopen = () => ws.send(JSON.stringify({type: "hello", init_data: Telegram.WebApp.initData, last_seq: null}));
      ws.onmessage = (m) => done(JSON.parse(m.data));
    })""", table_id)
    assert refused["type"] == "error" and refused["code"] == "unauthorized"

    # /api calls carry it too: home, then a new table
    await ann.deliver("back_button_pressed")
    await page.locator(".game-card[data-game='coins'] .options-btn").tap()
    await page.locator(".options-sheet .create-btn").tap()
    await expect(page.locator(".table-screen[data-status='lobby']")).to_be_visible()
    assert ann.errors == []


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_cancelling_a_table_asks_in_telegrams_popup(browser: Any, server: Server, platform: str) -> None:
    n = PLATFORMS.index(platform)
    table_id = await new_table(server, 8810 + n, start=False)
    ann = await open_phone(browser, server, user(10 + n), start_param=table_id, platform=platform)
    page = ann.page
    dialogs: list[str] = []

    async def on_dialog(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        await dialog.dismiss()

    page.on("dialog", on_dialog)
    cancel = page.locator(".lobby button.danger", has_text="Cancel table")
    await cancel.tap()
    await wait_posted(ann, "web_app_open_popup")
    popup = (await posted(ann, "web_app_open_popup"))[0]
    assert popup["message"] == "Cancel this table for everyone?"
    assert popup["buttons"] == [{"id": "yes", "type": "destructive", "text": "Cancel table"},
                                {"id": "no", "type": "cancel"}]
    await ann.deliver("popup_closed", {"button_id": "no"})
    await asyncio.sleep(0.3)
    assert (await server.service.info(table_id)).status == "lobby"
    await cancel.tap()
    await wait_until_count(ann, "web_app_open_popup", 2)
    await ann.deliver("popup_closed", {"button_id": "yes"})
    await expect(page.locator(".notice", has_text="This table was cancelled.")).to_be_visible()
    assert (await server.service.info(table_id)).status == "abandoned"
    assert dialogs == [], "the browser's confirm() never shows inside Telegram"
    assert ann.errors == []


async def wait_until_count(phone: Phone, name: str, count: int) -> None:
    """Wait until the script has posted ``name`` ``count`` times."""
    for _ in range(100):
        if len(await posted(phone, name)) >= count:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{name} posted fewer than {count} times")


async def test_an_older_telegram_without_popups_asks_with_the_browsers_confirm(browser: Any, server: Server) -> None:
    table_id = await new_table(server, 8815, start=False)
    ann = await open_phone(browser, server, user(15), start_param=table_id, version="6.0")
    page = ann.page
    dialogs: list[str] = []

    async def on_dialog(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        await dialog.accept()

    page.on("dialog", on_dialog)
    await page.locator(".lobby button.danger", has_text="Cancel table").tap()
    await expect(page.locator(".notice", has_text="This table was cancelled.")).to_be_visible()
    assert dialogs == ["Cancel this table for everyone?"]
    calls = [name for name, _ in await ann.tg_calls()]
    assert "web_app_open_popup" not in calls and "web_app_setup_settings_button" not in calls
    assert "web_app_request_fullscreen" not in calls and "web_app_setup_closing_behavior" not in calls
    assert ann.errors == []


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_settings_button_opens_the_persons_settings(browser: Any, server: Server, platform: str) -> None:
    n = PLATFORMS.index(platform)
    ann = await open_phone(browser, server, user(20 + n), platform=platform)
    page = ann.page
    await expect(page.locator(".game-picker")).to_be_visible()
    await wait_posted(ann, "web_app_setup_settings_button", {"is_visible": True})
    await expect(page.locator(".settings-sheet")).to_have_count(0)
    await ann.deliver("settings_button_pressed")
    sheet = page.locator(".settings-sheet")
    await expect(sheet.locator("h2")).to_have_text("Settings")
    await expect(sheet.get_by_label("Language")).to_have_value("en")
    sound = sheet.get_by_role("button", name="Sound")
    await expect(sound).to_have_attribute("aria-pressed", "true")  # on at first
    await sound.tap()
    await expect(sound).to_have_attribute("aria-pressed", "false")
    await page.screenshot(path=str(screenshot_path(f"settings-sheet-{platform}-390x844.png")))
    assert await page.evaluate("localStorage.getItem('cardroom.sound')") == "off"
    await sheet.get_by_label("Language").select_option("ru")
    await expect(page.locator("html")).to_have_attribute("lang", "ru")
    await expect(page.locator(".game-card .play-btn").first).to_have_text("Играть")
    assert ann.errors == []


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_closing_asks_first_only_while_the_game_is_played(browser: Any, server: Server, platform: str) -> None:
    n = PLATFORMS.index(platform)
    table_id = await new_table(server, 8830 + n)
    ann = await open_phone(browser, server, user(30 + n), start_param=table_id, platform=platform)
    page = ann.page
    await expect(page.locator(".hand .card").first).to_be_visible()
    await wait_posted(ann, "web_app_setup_closing_behavior", {"need_confirmation": True})
    assert await page.evaluate("Telegram.WebApp.isClosingConfirmationEnabled") is True
    await play_out(server.service, table_id)
    await expect(page.locator(".sheet.game-over")).to_be_visible()
    await wait_posted(ann, "web_app_setup_closing_behavior", {"need_confirmation": False})
    closing = await posted(ann, "web_app_setup_closing_behavior")
    assert closing == [{"need_confirmation": True}, {"need_confirmation": False}]

    # after the finished game, Telegram is asked whether the Mini App is on the home screen, and offers it if not
    await wait_posted(ann, "web_app_check_home_screen")
    answer = "unsupported" if platform == "tdesktop" else "missed"
    await ann.deliver("home_screen_checked", {"status": answer})
    await asyncio.sleep(0.3)
    added = await posted(ann, "web_app_add_to_home_screen")
    assert len(added) == (0 if platform == "tdesktop" else 1)

    # once per device: the next finished game does not ask again
    second = await new_table(server, 8830 + n)
    await page.goto(f"{server.url}/?table={second}")
    await expect(page.locator(".hand .card").first).to_be_visible()
    await play_out(server.service, second)
    await expect(page.locator(".sheet.game-over")).to_be_visible()
    await asyncio.sleep(0.3)
    assert await posted(ann, "web_app_check_home_screen") == []
    assert ann.errors == []


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_leaving_a_table_mid_game_lets_telegram_close_at_once(browser: Any, server: Server,
                                                                     platform: str) -> None:
    n = PLATFORMS.index(platform)
    table_id = await new_table(server, 8840 + n)
    ann = await open_phone(browser, server, user(40 + n), start_param=table_id, platform=platform)
    await expect(ann.page.locator(".hand .card").first).to_be_visible()
    await wait_posted(ann, "web_app_setup_closing_behavior", {"need_confirmation": True})
    await ann.deliver("back_button_pressed")
    await expect(ann.page.locator(".game-picker")).to_be_visible()
    await wait_posted(ann, "web_app_setup_closing_behavior", {"need_confirmation": False})
    assert ann.errors == []


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_table_takes_the_full_screen_clear_of_telegrams_controls(browser: Any, server: Server,
                                                                       platform: str) -> None:
    n = PLATFORMS.index(platform)
    table_id = await new_table(server, 8850 + n)
    ann = await open_phone(browser, server, user(50 + n), start_param=table_id, platform=platform)
    page = ann.page
    topbar = page.locator(".table-screen .topbar")
    await expect(topbar).to_be_visible()
    await asyncio.sleep(0.3)
    fullscreen = await posted(ann, "web_app_request_fullscreen")
    if platform == "tdesktop":
        assert fullscreen == [], "a desktop client keeps its window"
        assert await page.evaluate("Telegram.WebApp.isFullscreen") is False
    else:
        assert len(fullscreen) == 1
        assert await page.evaluate("Telegram.WebApp.isFullscreen") is True
    box = await topbar.bounding_box()
    assert box is not None and box["y"] < 10
    # in full screen the phone's status bar and Telegram's own buttons sit over the page's top
    await ann.deliver("safe_area_changed", {"top": 47, "bottom": 34, "left": 0, "right": 0})
    await ann.deliver("content_safe_area_changed", {"top": 46, "bottom": 0, "left": 0, "right": 0})
    await expect(page.locator("html")).to_have_css("--tg-safe-top", "93px")
    box = await topbar.bounding_box()
    assert box is not None and box["y"] >= 93, box
    hand = await page.locator(".hand").bounding_box()
    assert hand is not None and hand["y"] + hand["height"] <= 844 - 34 + 1, hand
    await ann.deliver("content_safe_area_changed", {"top": 0, "bottom": 0, "left": 0, "right": 0})
    await ann.deliver("safe_area_changed", {"top": 0, "bottom": 0, "left": 0, "right": 0})
    await expect(page.locator("html")).to_have_css("--tg-safe-top", "0px")
    box = await topbar.bounding_box()
    assert box is not None and box["y"] < 10
    assert ann.errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_full_screen_table_screenshots_with_a_safe_area(browser: Any, server: Server, scheme: str) -> None:
    n = ["light", "dark"].index(scheme)
    table_id = await new_table(server, 8860 + n)
    inset = {"top": 47, "bottom": 34, "left": 0, "right": 0}
    ann = await open_phone(browser, server, user(60 + n), start_param=table_id, platform="ios", scheme=scheme,
                           safe=inset, content={"top": 46, "bottom": 0, "left": 0, "right": 0})
    page = ann.page
    await expect(page.locator(".hand .card").first).to_be_visible()
    await expect(page.locator("html")).to_have_css("--tg-safe-top", "93px")
    await expect(page.locator("html")).to_have_css("--tg-safe-bottom", "34px")
    assert await page.evaluate("Telegram.WebApp.isFullscreen") is True
    box = await page.locator(".table-screen .topbar").bounding_box()
    assert box is not None and box["y"] >= 93
    await page.wait_for_timeout(400)
    await page.screenshot(path=str(screenshot_path(f"fullscreen-table-{scheme}-390x844.png")))
    assert ann.errors == []


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_taking_a_seat_asks_telegram_for_write_access(browser: Any, server: Server, platform: str) -> None:
    n = PLATFORMS.index(platform)
    table_id = await new_table(server, 8870 + n, start=False, host=8970 + n)
    ann = await open_phone(browser, server, user(70 + n, can_write=False), start_param=table_id, platform=platform,
                           write_access=None)  # the test answers Telegram's request itself
    page = ann.page
    await page.locator(".lobby .join-btn").tap()
    await wait_posted(ann, "web_app_request_write_access")
    await ann.deliver("write_access_requested", {"status": "allowed"})
    await expect(page.locator(".lobby .join-btn")).to_have_count(0)
    info = await server.service.info(table_id)
    assert 8870 + n in [s.user_id for s in info.seats]
    assert len(await posted(ann, "web_app_request_write_access")) == 1
    assert await page.evaluate("Telegram.WebApp.initDataUnsafe.user.allows_write_to_pm") is True
    assert not [name for name, _ in await ann.tg_calls() if name == "web_app_open_tg_link"], "not sent to the chat"
    assert ann.errors == []


async def test_a_person_the_bot_can_write_to_is_not_asked(browser: Any, server: Server) -> None:
    table_id = await new_table(server, 8875, start=False, host=8975)
    ann = await open_phone(browser, server, user(75), start_param=table_id)
    await ann.page.locator(".lobby .join-btn").tap()
    await expect(ann.page.locator(".lobby .join-btn")).to_have_count(0)
    assert await posted(ann, "web_app_request_write_access") == []
    assert ann.errors == []


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_active_changes_reach_the_page(browser: Any, server: Server, platform: str) -> None:
    n = PLATFORMS.index(platform)
    ann = await open_phone(browser, server, user(80 + n), platform=platform)
    page = ann.page
    await expect(page.locator(".game-picker")).to_be_visible()
    src = await page.evaluate("[...document.scripts].map((s) => s.src).find((s) => s.includes('/shell/app.js'))")
    tg_url = src.replace("/shell/app.js", "/shell/tg.js")
    await page.evaluate("""async (url) => {
      const tg = await import(url);
      window.__active = [tg.isActive()];
      window.__stop = tg.onActiveChange((active) => window.__active.push(active, tg.isActive()));
    }""", tg_url)
    await ann.deliver("visibility_changed", {"is_visible": False})
    await ann.deliver("visibility_changed", {"is_visible": True})
    assert await page.evaluate("window.__active") == [True, False, False, True, True]
    await page.evaluate("window.__stop()")
    await ann.deliver("visibility_changed", {"is_visible": False})
    assert await page.evaluate("window.__active") == [True, False, False, True, True]
    assert ann.errors == []


@pytest.mark.parametrize("platform", PLATFORMS)
async def test_settings_switch_turn_messages_off_for_the_bot_too(browser: Any, server: Server, platform: str) -> None:
    n = PLATFORMS.index(platform)
    ann = await open_phone(browser, server, user(90 + n), platform=platform)
    page = ann.page
    await expect(page.locator(".game-picker")).to_be_visible()
    await ann.deliver("settings_button_pressed")
    sheet = page.locator(".settings-sheet")
    switch = sheet.get_by_role("button", name="Turn messages")
    await expect(switch).to_have_attribute("aria-pressed", "true")  # on until switched off
    await expect(switch).to_be_enabled()
    await switch.tap()
    await expect(switch).to_have_attribute("aria-pressed", "false")
    await expect(switch).to_be_enabled()  # the server took it
    assert not await server.service.people.wants_turn_messages(ann.user["id"])
    await page.screenshot(path=str(screenshot_path(f"settings-turn-messages-{platform}-390x844.png")))
    await page.reload()
    await expect(page.locator(".game-picker")).to_be_visible()
    await ann.deliver("settings_button_pressed")
    await expect(page.locator(".settings-sheet").get_by_role("button", name="Turn messages")).to_have_attribute(
        "aria-pressed", "false")  # read back from the account
    assert ann.errors == []


async def test_signing_out_everywhere_asks_in_telegrams_popup_and_ends_the_other_phones_sign_in_too(
    browser: Any, server: Server
) -> None:
    person = user(40)
    laptop = await open_phone(browser, server, person, viewport={"width": 390, "height": 844})
    ann = await open_phone(browser, server, person, viewport={"width": 360, "height": 640})
    page = ann.page
    await page.locator(".settings-btn").first.tap()
    button = page.locator(".settings-sheet .sign-out-btn")
    await button.scroll_into_view_if_needed()
    await expect(button).to_have_text("Sign out everywhere")
    await page.screenshot(path=str(screenshot_path("settings-sign-out-360x640.png")))
    await button.tap()
    await wait_posted(ann, "web_app_open_popup")
    popup = (await posted(ann, "web_app_open_popup"))[0]
    assert popup["buttons"][0] == {"id": "yes", "type": "destructive", "text": "Sign out everywhere"}
    await ann.deliver("popup_closed", {"button_id": "yes"})
    await expect(page.locator(".signed-out")).to_contain_text("signed out everywhere")
    await page.screenshot(path=str(screenshot_path("signed-out-360x640.png")))
    await page.locator(".signed-out button", has_text="Close").tap()  # and the Mini App closes
    await wait_posted(ann, "web_app_close")
    assert not await server.service.sign_outs.still_signed_in(person["id"], time.time() - 1)

    await laptop.page.reload()  # the other device, with the sign-in data it was opened with, is refused and told why
    await expect(laptop.page.locator(".notice")).to_have_text(
        "You signed out everywhere; open the app again from Telegram.")
    answer = await laptop.page.evaluate(
        "() => fetch('/api/me', {headers: {Authorization: 'tma ' + Telegram.WebApp.initData}})"
        ".then(r => r.json().then(b => [r.status, b.message]))")
    assert answer == [401, "You signed out everywhere; open the app again from Telegram."]
    assert ann.errors == []
