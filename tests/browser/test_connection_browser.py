"""A lost connection you cannot miss: with the server gone the table says so in words within 2 s and takes no move;
once the server is back (the same address, as after a restart) the table is live again within 2 s and says so."""

from __future__ import annotations

import json
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from playwright.async_api import Browser, expect

from engine.config import Settings
from engine.service.live import TableInfo
from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.browser.conftest import (
    BOT_USERNAME,
    SHORT_NAME,
    TEST_TOKEN,
    Phone,
    Server,
    open_phone,
    screenshot_path,
)
from tests.waiting import until
from webapp.app import make_app

SEED = "c0" * 32
WORDS = {"en": "Connection lost", "ru": "Связь потеряна", "ko": "연결이 끊겼어요", "lv": "Savienojums zudis"}


class Restartable:
    """The app on a fixed port that can go away and come back over the same service and store (a restart)."""

    def __init__(self, settings: Settings, service: TableService) -> None:
        self.settings = settings
        self.service = service
        self.runner: web.AppRunner | None = None
        self.port = 0

    async def up(self) -> None:
        self.runner = web.AppRunner(make_app(self.settings, service=self.service, bot=False))
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", self.port, reuse_address=True)
        await site.start()
        self.port = self.runner.addresses[0][1]

    async def down(self) -> None:
        assert self.runner is not None
        await self.runner.cleanup()  # every socket closed, nothing listening
        self.runner = None


@pytest.fixture
async def restartable(tmp_path: Path) -> AsyncIterator[tuple[Server, Restartable]]:
    settings = Settings(data_dir=tmp_path, ai_delay=0.0, bot_token=TEST_TOKEN, bot_username=BOT_USERNAME,
                        miniapp_short_name=SHORT_NAME, initdata_max_age=3600)
    store = Store(database_url(None, settings.data_dir))
    await store.open()
    service = TableService(store, ai_delay=0.0)
    await service.start()
    app = Restartable(settings, service)
    await app.up()
    try:
        yield Server(f"http://127.0.0.1:{app.port}", service, settings), app
    finally:
        if app.runner is not None:
            await app.runner.cleanup()
        await service.close()
        await store.close()


async def ann_at_a_table(browser: Browser, server: Server, uid: int, lang: str = "en") -> tuple[Phone, TableInfo]:
    """Ann (``uid``) on a 360x640 phone at a Coins table started against AI players, dealt from ``SEED``."""
    info = await server.service.create_table("coins", uid, "Ann", {"first_dealer": "seat:2"}, seed=SEED)
    for _ in range(info.size - 1):
        await server.service.add_ai(info.id, uid)
    await server.service.start_game(info.id, uid)
    phone = await open_phone(browser, server, {"id": uid, "first_name": "Ann", "language_code": lang},
                             start_param=info.id, locale=lang, viewport={"width": 360, "height": 640})
    return phone, info


@pytest.mark.parametrize("lang", ["en", "ru", "ko", "lv"])
async def test_a_lost_connection_is_said_in_words_takes_no_move_and_comes_back_on_its_own(
    browser: Browser, restartable: tuple[Server, Restartable], lang: str
) -> None:
    server, app = restartable
    uid = 8800
    phone, info = await ann_at_a_table(browser, server, uid, lang)
    page = phone.page
    await expect(page.locator(".hand .card")).to_have_count(16)
    await expect(page.locator(".conn.open")).to_have_count(1)
    seq = (await server.service.view(info.id, uid))["seq"]

    await app.down()
    lost = time.monotonic()
    await expect(page.locator(".offline-note")).to_be_visible(timeout=2_000)
    assert time.monotonic() - lost < 2.0
    await expect(page.locator(".offline-note")).to_contain_text(WORDS[lang])
    await page.screenshot(path=str(screenshot_path(f"connection-lost-{lang}-360x640.png")))
    await page.locator(".hand .card").first.tap(force=True)  # a tap while away: nothing is sent, nothing picked
    await expect(page.locator('.hand .card[aria-pressed="true"]')).to_have_count(0)

    await app.up()
    back = time.monotonic()
    await expect(page.locator(".offline-note")).to_be_hidden(timeout=2_500)
    assert time.monotonic() - back < 2.5  # the longest wait between tries (1.5 s) and the welcome
    await expect(page.locator(".conn.open")).to_have_count(1)
    assert (await server.service.view(info.id, uid))["seq"] == seq, "no move was made while the server was away"
    first = (await server.service.view(info.id, uid))["state"]["hand"][0]
    await page.locator(f'.hand .card[data-card="{first}"]').tap()  # live again: one tap plays
    await expect(page.locator(f'.hand .card[data-card="{first}"]')).to_have_count(0)
    assert (await server.service.view(info.id, uid))["seq"] > seq
    assert [e for e in phone.errors if "ERR_CONNECTION_REFUSED" not in e and "WebSocket" not in e] == []


async def test_a_connection_that_goes_silent_is_said_lost_within_ten_seconds_and_a_missed_update_is_caught_up(
    browser: Browser, restartable: tuple[Server, Restartable]
) -> None:
    """The network goes away with nothing closed (a phone in a tunnel): the page notices by its own pings; and an
    update lost on the way (the one that made it the person's turn) is caught up by the table's seq in a pong."""
    server, _ = restartable
    uid = 8810
    phone, info = await ann_at_a_table(browser, server, uid)
    page = phone.page
    state = {"cut": False, "drop_updates": False}
    silenced: list[Any] = []  # the connections the cut went through: nothing passes either way

    async def route(ws: Any) -> None:
        if state["cut"]:  # no network: a new connection fails at once
            await ws.close()
            return
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if ws not in silenced:
                upstream.send(message)

        def from_server(message: str | bytes) -> None:
            if ws in silenced or (state["drop_updates"] and json.loads(message).get("type") == "update"):
                return
            ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)
        state["last"] = ws

    await page.route_web_socket(re.compile(r"/ws/"), route)
    await page.reload()
    await expect(page.locator(".hand .card")).to_have_count(16)
    await expect(page.locator(".conn.open")).to_have_count(1)

    state["cut"] = True
    silenced.append(state["last"])
    cut = time.monotonic()
    await expect(page.locator(".offline-note")).to_be_visible(timeout=12_000)
    noticed = time.monotonic() - cut
    assert noticed < 10.0, f"a silent connection was noticed after {noticed:.1f} s"
    state["cut"] = False
    await expect(page.locator(".offline-note")).to_be_hidden(timeout=2_500)

    def seq_now() -> int:
        snapshot = server.service.snapshot(info.id)
        assert snapshot is not None
        return snapshot.info.seq

    seq = seq_now()
    first = (await server.service.view(info.id, uid))["state"]["hand"][0]
    state["drop_updates"] = True  # from now on the page hears no update: its move's nor the AI players' replies
    await page.locator(f'.hand .card[data-card="{first}"]').tap()
    await until(lambda: seq_now() >= seq + 3)  # both AI players have answered: Ann's turn, which the page missed
    state["drop_updates"] = False
    caught = time.monotonic()
    now = seq_now()
    await page.wait_for_function("s => Number(document.querySelector('.table-screen').dataset.seq) === s", arg=now,
                                 timeout=8_000)
    assert time.monotonic() - caught < 8.0
    await expect(page.locator(".hand .card")).to_have_count(15)
    assert [e for e in phone.errors if "WebSocket" not in e] == []


async def test_a_move_in_flight_when_the_connection_drops_is_made_once_it_is_back_without_another_tap(
    browser: Browser, restartable: tuple[Server, Restartable]
) -> None:
    server, _ = restartable
    uid = 8820
    phone, info = await ann_at_a_table(browser, server, uid)
    page = phone.page
    state = {"armed": False}
    acts: list[dict[str, Any]] = []

    async def route(ws: Any) -> None:
        upstream = ws.connect_to_server()

        async def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "act":
                acts.append(frame)
                if state["armed"]:  # the move leaves the phone and the connection drops under it
                    state["armed"] = False
                    await ws.close()
                    return
            upstream.send(message)

        ws.on_message(from_page)
        upstream.on_message(lambda message: ws.send(message))

    await page.route_web_socket(re.compile(r"/ws/"), route)
    await page.reload()
    await expect(page.locator(".hand .card")).to_have_count(16)
    seq = (await server.service.view(info.id, uid))["seq"]
    first = (await server.service.view(info.id, uid))["state"]["hand"][0]
    state["armed"] = True
    await page.locator(f'.hand .card[data-card="{first}"]').tap()  # one tap
    await expect(page.locator(f'.hand .card[data-card="{first}"]')).to_have_count(0, timeout=5_000)
    assert (await server.service.view(info.id, uid))["seq"] > seq, "the move was made on the server"
    assert [a["seq"] for a in acts] == [seq, seq] and acts[0]["ref"] == acts[1]["ref"], "sent again, as it was"
    await expect(page.locator("#toast.show", has_text="the move was not sent")).to_have_count(0)
    assert [e for e in phone.errors if "WebSocket" not in e] == []
