"""The page follows its table to the process that owns it, and comes back when that process is gone.

Two web processes on one PostgreSQL database, each with its own address: the page opens
at the first, whose socket for the table is redirected to the second (the table's owner).
When the owner stops, the page's socket cannot reach it and comes back to the first
process, which takes the table over.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp import web
from playwright.async_api import expect

from engine.config import Settings
from engine.service.loading import peers_for
from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.browser.conftest import BOT_USERNAME, SHORT_NAME, TEST_TOKEN, Server, open_phone
from tests.postgres import database as database
from tests.waiting import until
from webapp.app import make_app
from webapp.keys import ROOMS

ANN_ID, BOB_ID = 6301, 6302
ANN: dict[str, Any] = {"id": ANN_ID, "first_name": "Ann", "language_code": "en"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def process(database: str, tmp_path: Path) -> AsyncIterator[tuple[Server, web.Application]]:
    """One web process on the shared database, with its own address."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(data_dir=tmp_path, ai_delay=0.0, bot_token=TEST_TOKEN, bot_username=BOT_USERNAME,
                        miniapp_short_name=SHORT_NAME, initdata_max_age=3600, database_url=database,
                        process_url=url)
    store = Store(database_url(database, tmp_path))
    await store.open()
    service = TableService(store, ai_delay=0.0, peers=peers_for(store, url))
    await service.start()
    app = make_app(settings, service=service, bot=False)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield Server(url, service, settings), app
    finally:
        await runner.cleanup()
        await service.close()
        await store.close()


async def test_the_page_is_sent_to_the_tables_owner_and_comes_back_when_the_owner_is_gone(
    browser: Any, database: str, tmp_path: Path
) -> None:
    async with process(database, tmp_path) as (first, first_app):
        async with process(database, tmp_path) as (owner, owner_app):
            info = await owner.service.create_table("coins", ANN_ID, "Ann")
            await owner.service.join(info.id, BOB_ID, "Bob")
            assert await owner.service.claim(info.id)
            ann = await open_phone(browser, first, ANN, start_param=info.id)
            await expect(ann.page.locator(".lobby .seats li.taken .pname", has_text="Bob")).to_have_count(1)
            await until(lambda: owner_app[ROOMS].count(info.id) == 1)
            assert first_app[ROOMS].count(info.id) == 0  # the first process sent the socket on
        # the owner is gone: the page's socket comes back to the first process, which takes the table (at once when
        # the owner freed its lease first; else once the owner's closing frees it and says so)
        await until(lambda: first_app[ROOMS].count(info.id) == 1, within=20)
        await until(lambda: first.service.drives(info.id), within=5)
        await first.service.join(info.id, 6303, "Cat")
        await expect(ann.page.locator(".lobby .seats li.taken .pname", has_text="Cat")).to_have_count(1)
        assert all("WebSocket" in error for error in ann.errors), ann.errors  # only the dead owner refused it
        await ann.context.close()
