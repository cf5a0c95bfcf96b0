"""Browser fixtures: the real server on a loopback port, Debian's Chromium, phones signed in through a Telegram stub.

``telegram-web-app.js`` is routed to a stub generated per player: it supplies initData
signed with the test bot token (and the table id as ``start_param``), a theme, and
MainButton, BackButton and HapticFeedback objects that record every call in
``window.__tgCalls``. Every other request that leaves the loopback server is aborted.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from playwright.async_api import Browser, BrowserContext, Page, Route, ViewportSize, async_playwright

from engine.config import Settings
from engine.service.tables import TableService
from engine.store.database import Store, database_url
from webapp.app import make_app
from webapp.auth import sign_init_data

TEST_TOKEN = "424242:browser-tests-token"
BOT_USERNAME = "cardroom_test_bot"
SHORT_NAME = "play"  # the Mini App's short name, as BotFather set it
CHROMIUM = "/usr/bin/chromium"
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
PHONE: ViewportSize = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

STUB = """(() => {
  const calls = [];
  window.__tgCalls = calls;
  const record = (name) => (...args) => { calls.push([name, ...args]); };
  const button = (name) => ({
    isVisible: false, text: "", handler: null,
    show() { this.isVisible = true; calls.push([name + ".show"]); },
    hide() { this.isVisible = false; calls.push([name + ".hide"]); },
    setText(text) { this.text = text; calls.push([name + ".setText", text]); },
    onClick(fn) { this.handler = fn; }, offClick() { this.handler = null; },
    enable() {}, disable() {},
  });
  window.Telegram = { WebApp: {
    initData: %(init_data)s,
    initDataUnsafe: %(unsafe)s,
    version: "8.0", platform: "android", colorScheme: %(scheme)s,
    themeParams: %(theme)s,
    viewportHeight: %(height)d, viewportStableHeight: %(height)d,
    safeAreaInset: {top: 0, bottom: 0, left: 0, right: 0},
    contentSafeAreaInset: {top: 0, bottom: 0, left: 0, right: 0},
    ready: record("ready"), expand: record("expand"), onEvent: record("onEvent"),
    disableVerticalSwipes: record("disableVerticalSwipes"), openTelegramLink: record("openTelegramLink"),
    MainButton: button("MainButton"), BackButton: button("BackButton"),
    HapticFeedback: {
      selectionChanged: record("haptic.selection"),
      notificationOccurred: record("haptic.notification"),
      impactOccurred: record("haptic.impact"),
    },
  } };
})();
"""


LIGHT_THEME = {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579", "link_color": "#2481cc",
               "button_color": "#2481cc", "button_text_color": "#ffffff", "secondary_bg_color": "#efeff3"}


def telegram_stub(user: dict[str, Any], start_param: str | None = None, scheme: str = "light",
                  height: int = 844) -> str:
    """The stand-in for telegram-web-app.js: this user's initData signed with the test bot token.

    ``scheme`` "dark" is Telegram saying dark and sending no colours: the page fills every one itself;
    ``height`` the viewport's height Telegram reports.
    """
    auth_date = int(time.time())
    extra = {"start_param": start_param} if start_param else {}
    init_data = sign_init_data(TEST_TOKEN, user, auth_date, **extra)
    unsafe = {"user": user, "auth_date": auth_date, **extra}
    theme = LIGHT_THEME if scheme == "light" else {}
    return STUB % {"init_data": json.dumps(init_data), "unsafe": json.dumps(unsafe), "scheme": json.dumps(scheme),
                   "theme": json.dumps(theme), "height": height}


@dataclass
class Server:
    """The running app: its base URL and the table service behind it."""

    url: str
    service: TableService
    settings: Settings


async def _serve(settings: Settings) -> AsyncIterator[Server]:
    store = Store(database_url(None, settings.data_dir))
    await store.open()
    service = TableService(store, ai_delay=settings.ai_delay)
    await service.start()
    runner = web.AppRunner(make_app(settings, service=service, bot=False))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        yield Server(f"http://{host}:{port}", service, settings)
    finally:
        await runner.cleanup()
        await service.close()
        await store.close()


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    """The app with a test bot token (Telegram mode; the bot itself is not started)."""
    settings = Settings(data_dir=tmp_path, ai_delay=0.0, bot_token=TEST_TOKEN, bot_username=BOT_USERNAME,
                        miniapp_short_name=SHORT_NAME, initdata_max_age=3600)
    async for running in _serve(settings):
        yield running


@pytest.fixture
async def local_server(tmp_path: Path) -> AsyncIterator[Server]:
    """The app with no bot token: local sign-in."""
    async for running in _serve(Settings(data_dir=tmp_path, ai_delay=0.0)):
        yield running


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """Debian's Chromium, headless."""
    async with async_playwright() as pw:
        launched = await pw.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield launched
        await launched.close()


@dataclass
class Phone:
    """One player's browser profile and page."""

    context: BrowserContext
    page: Page
    user: dict[str, Any]
    errors: list[str] = field(default_factory=list)

    async def tg_calls(self) -> list[list[Any]]:
        """The calls the page made on the Telegram stub."""
        calls: list[list[Any]] = await self.page.evaluate("window.__tgCalls || []")
        return calls


async def _offline(route: Route) -> None:
    await route.abort()


async def open_phone(
    browser: Browser, server: Server, user: dict[str, Any] | None = None, *, start_param: str | None = None,
    path: str = "/", locale: str = "en-US", scheme: str = "light", viewport: ViewportSize = PHONE,
) -> Phone:
    """A new browser profile at phone size, signed in as ``user`` through the Telegram stub (or with no Telegram).

    ``locale`` is the browser's language (its Accept-Language); ``scheme`` the colour scheme Telegram says.
    """
    context = await browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=True, has_touch=True,
                                        locale=locale)
    await context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(server.url)
                        else _offline(route))
    if user is not None:
        stub = telegram_stub(user, start_param, scheme, viewport["height"])
        await context.route(TELEGRAM_JS, lambda route: route.fulfill(status=200, content_type="text/javascript",
                                                                      body=stub))
    page = await context.new_page()
    phone = Phone(context, page, user or {})
    page.on("pageerror", lambda exc: phone.errors.append(str(exc)))
    page.on("console", lambda msg: phone.errors.append(msg.text) if msg.type == "error" else None)
    await page.goto(server.url + path)
    return phone


def screenshot_path(name: str) -> Path:
    """Where a screenshot is kept as a test artifact."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / name
