"""Browser fixtures: the real server on a loopback port, Debian's Chromium, phones opened as Telegram opens a Mini App.

``telegram-web-app.js`` is routed to Telegram's own script (vendored in ``fixtures/telegram``), and the page is
opened as Telegram's clients open it: launch parameters in the URL fragment (initData signed with the test bot
token, the table id as ``start_param``; the client's version, platform and theme), and a
``window.TelegramWebviewProxy`` installed before the script loads, which is how the script talks to the Android,
iOS and desktop clients. The proxy records every event the script posts (``Phone.tg_calls``) and answers the
requests a client answers at once (theme, viewport, safe areas, full screen; write access when the test says how the
person answers); other events a client would send are delivered by the test with ``Phone.deliver``. Every other
request that leaves the loopback server is aborted.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from aiohttp import web
from playwright.async_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Route,
    ViewportSize,
    async_playwright,
    expect,
)

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
TELEGRAM_SCRIPT = (Path(__file__).parent / "fixtures" / "telegram" / "telegram-web-app.js").read_text()
PHONE: ViewportSize = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
NO_INSET = {"top": 0, "bottom": 0, "left": 0, "right": 0}

# The client's side of the bridge, run before any of the page's scripts: the launch fragment on every page of the
# server's (as Telegram opens it; the script keeps it for the tab's later pages too), and the proxy that records
# what the script posts and answers what a client answers at once.
CLIENT = """(() => {
  const client = %(client)s;
  if (location.origin !== client.origin) return;
  if (!location.hash.includes("tgWebAppData=")) {
    history.replaceState(null, "", location.pathname + location.search + "#" + client.launch);
  }
  const events = [];
  window.__tgCalls = events;
  const answer = (name, data) => setTimeout(() => window.Telegram.WebView.receiveEvent(name, data), 0);
  const mobile = client.platform === "android" || client.platform === "ios";
  window.TelegramWebviewProxy = {
    postEvent(name, data) {
      let parsed = null;
      try { parsed = data ? JSON.parse(data) : null; } catch { parsed = data; }
      events.push([name, parsed]);
      if (name === "web_app_request_theme") answer("theme_changed", { theme_params: client.theme });
      else if (name === "web_app_request_viewport") {
        answer("viewport_changed", { height: client.height, is_state_stable: true, is_expanded: true });
      } else if (name === "web_app_request_safe_area") answer("safe_area_changed", client.safe);
      else if (name === "web_app_request_content_safe_area") answer("content_safe_area_changed", client.content);
      else if (name === "web_app_request_fullscreen") {
        if (mobile) answer("fullscreen_changed", { is_fullscreen: true });
        else answer("fullscreen_failed", { error: "UNSUPPORTED" });
      } else if (name === "web_app_request_write_access" && client.write_access) {
        answer("write_access_requested", { status: client.write_access });
      }
    },
  };
})();
"""


LIGHT_THEME = {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579", "link_color": "#2481cc",
               "button_color": "#2481cc", "button_text_color": "#ffffff", "secondary_bg_color": "#efeff3"}
# Telegram saying dark with its background alone: the page fills every other colour itself
DARK_THEME = {"bg_color": "#17212b"}


def telegram_client(origin: str, user: dict[str, Any], start_param: str | None = None, scheme: str = "light",
                    height: int = 844, *, platform: str = "android", version: str = "8.0",
                    safe: dict[str, int] | None = None, content: dict[str, int] | None = None,
                    write_access: str | None = None) -> str:
    """The init script of a Telegram client opening the Mini App at ``origin`` for this user.

    initData is signed with the test bot token now; ``scheme`` "dark" is Telegram's dark background and no other
    colour; ``height`` the viewport's height the client reports; ``platform`` and ``version`` the client's;
    ``safe`` and ``content`` the device's and Telegram's own safe-area insets it reports; ``write_access`` the
    person's answer to a request for write access ("allowed" or "cancelled"; None: the test delivers it).
    """
    auth_date = int(time.time())
    extra = {"start_param": start_param} if start_param else {}
    init_data = sign_init_data(TEST_TOKEN, user, auth_date, **extra)
    theme = LIGHT_THEME if scheme == "light" else DARK_THEME
    launch = urlencode({"tgWebAppData": init_data, "tgWebAppVersion": version, "tgWebAppPlatform": platform,
                        "tgWebAppThemeParams": json.dumps(theme, separators=(",", ":"))}, quote_via=quote)
    client = {"origin": origin, "launch": launch, "platform": platform, "theme": theme, "height": height,
              "safe": safe or NO_INSET, "content": content or NO_INSET, "write_access": write_access}
    return CLIENT % {"client": json.dumps(client)}


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


SHORT_INIT_DATA_AGE = 3  # seconds


@pytest.fixture
async def short_server(tmp_path: Path) -> AsyncIterator[Server]:
    """The app taking initData for a few seconds only: past that, a sign-in needs the session token it handed out."""
    settings = Settings(data_dir=tmp_path, ai_delay=0.0, bot_token=TEST_TOKEN, bot_username=BOT_USERNAME,
                        miniapp_short_name=SHORT_NAME, initdata_max_age=SHORT_INIT_DATA_AGE)
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
        """The events Telegram's script posted to the client, each ``[name, data]``, oldest first."""
        calls: list[list[Any]] = await self.page.evaluate("window.__tgCalls || []")
        return calls

    async def deliver(self, name: str, data: dict[str, Any] | None = None) -> None:
        """An event from the Telegram client to the page, as a client sends it (``popup_closed``, ...)."""
        await self.page.evaluate("([name, data]) => window.Telegram.WebView.receiveEvent(name, data)",
                                 [name, data or {}])


def _console_error(msg: ConsoleMessage) -> str:
    """A console error with where it came from: a failed resource's message names the resource's URL."""
    where = msg.location.get("url") if msg.location else None
    return f"{msg.text} ({where})" if where else msg.text


async def _offline(route: Route) -> None:
    await route.abort()


async def open_phone(
    browser: Browser, server: Server, user: dict[str, Any] | None = None, *, start_param: str | None = None,
    path: str = "/", locale: str = "en-US", scheme: str = "light", viewport: ViewportSize = PHONE,
    platform: str = "android", version: str = "8.0", safe: dict[str, int] | None = None,
    content: dict[str, int] | None = None, confirm_cards: bool = False, write_access: str | None = "cancelled",
) -> Phone:
    """A new browser profile at phone size, opened by a Telegram client as ``user`` (or with no Telegram).

    ``locale`` is the browser's language (its Accept-Language); ``scheme`` the colour scheme Telegram says;
    ``platform``, ``version``, ``safe`` and ``content`` the client's (see ``telegram_client``); ``confirm_cards``
    a person who turned one-tap play off in the settings (each card picked, then played by a second tap);
    ``write_access`` how the person answers Telegram's request for write access (see ``telegram_client``): at
    first they dismiss it, as most do, so the table is measured as it stays (None: the test answers itself).
    """
    context = await browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=True, has_touch=True,
                                        locale=locale)
    await context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(server.url)
                        else _offline(route))
    if user is not None:
        await context.add_init_script(telegram_client(server.url, user, start_param, scheme, viewport["height"],
                                                      platform=platform, version=version, safe=safe,
                                                      content=content, write_access=write_access))
        await context.route(TELEGRAM_JS, lambda route: route.fulfill(status=200, content_type="text/javascript",
                                                                      body=TELEGRAM_SCRIPT))
    if confirm_cards:
        await context.add_init_script("try { localStorage.setItem('cardroom.one_tap', 'off'); } catch {}")
    page = await context.new_page()
    phone = Phone(context, page, user or {})
    page.on("pageerror", lambda exc: phone.errors.append(str(exc)))
    page.on("console", lambda msg: phone.errors.append(_console_error(msg)) if msg.type == "error" else None)
    await page.goto(server.url + path)
    return phone


# A dark page as Telegram paints one: the client's theme colours dropped, the page's own dark scheme on.
THEME_JS = """s => {
  const root = document.documentElement;
  root.dataset.scheme = s;
  if (s === "dark") {
    for (const v of ["--bg", "--text", "--hint", "--link", "--accent", "--accent-text", "--bg2", "--panel", "--danger",
      "--accent-strong"]) root.style.removeProperty(v);
    root.style.setProperty("--bg", "#17212b");
  }
}"""


# Where the first element a CSS selector matches is, measured in one step in the page: a list the page draws
# again (home's tables on a live update) replaces its elements, and one found by one call may be gone by the next.
PLACE_JS = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, height: r.height, scrolled: document.scrollingElement.scrollTop };
}"""


async def in_view(page: Page, selector: str) -> None:
    """The element is on the first screen: visible, and its box inside the viewport without scrolling anything."""
    await expect(page.locator(selector)).to_be_visible()
    size = page.viewport_size
    assert size is not None
    place: dict[str, float] | None = None
    for _ in range(50):  # the page settles within a few frames once the element is visible
        place = await page.evaluate(PLACE_JS, selector)
        if place is not None and place["height"] > 0:
            break
        await page.wait_for_timeout(20)
    assert place is not None and place["height"] > 0, (selector, place)
    assert place["top"] >= 0 and place["bottom"] <= size["height"], (selector, place, size)
    assert place["scrolled"] == 0, (selector, place)


def screenshot_path(name: str) -> Path:
    """Where a screenshot is kept as a test artifact."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / name
