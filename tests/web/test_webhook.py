"""The webhook route: Telegram's secret header checked, then the update queued for the bot."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from aiohttp import web

from engine.config import Settings
from engine.service.tables import TableService
from tests.web.conftest import TEST_TOKEN
from webapp.app import make_app
from webapp.keys import BOT
from webapp.webhook import WEBHOOK_PATH, setup_webhook

UPDATE = {"update_id": 7, "message": {"message_id": 1, "date": 1_750_000_000, "text": "/help",
                                      "chat": {"id": 5, "type": "private"}, "from": {"id": 5, "is_bot": False,
                                                                                      "first_name": "Ann"}}}


class FakeBotData:
    webhook_secret: str | None = "made-up-at-start"


class FakeApplication:
    """What the route uses of a python-telegram-bot Application."""

    def __init__(self) -> None:
        self.update_queue: asyncio.Queue[Any] = asyncio.Queue()
        self.bot = None
        self.bot_data = FakeBotData()


async def _client(aiohttp_client: Any, settings: Settings, service: TableService) -> tuple[Any, FakeApplication]:
    app = make_app(replace(settings, bot_token=TEST_TOKEN), service=service, bot=False)
    fake = FakeApplication()
    app[BOT] = fake
    setup_webhook(app)
    return await aiohttp_client(app), fake


async def test_webhook_refuses_a_wrong_or_missing_secret(
    aiohttp_client: Any, settings: Settings, service: TableService
) -> None:
    client, fake = await _client(aiohttp_client, settings, service)
    for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "guess"}):
        resp = await client.post(WEBHOOK_PATH, json=UPDATE, headers=headers)
        assert resp.status == 403
    assert fake.update_queue.empty()


async def test_webhook_queues_the_update_with_the_bots_secret(
    aiohttp_client: Any, settings: Settings, service: TableService
) -> None:
    client, fake = await _client(aiohttp_client, settings, service)
    resp = await client.post(WEBHOOK_PATH, json=UPDATE, headers={"X-Telegram-Bot-Api-Secret-Token": "made-up-at-start"})
    assert resp.status == 200
    update = fake.update_queue.get_nowait()
    assert (update.update_id, update.message.text) == (7, "/help")


async def test_webhook_prefers_the_configured_secret(
    aiohttp_client: Any, settings: Settings, service: TableService
) -> None:
    client, fake = await _client(aiohttp_client, replace(settings, webhook_secret="from-env"), service)
    header = "X-Telegram-Bot-Api-Secret-Token"
    wrong = await client.post(WEBHOOK_PATH, json=UPDATE, headers={header: "made-up-at-start"})
    right = await client.post(WEBHOOK_PATH, json=UPDATE, headers={header: "from-env"})
    assert (wrong.status, right.status, fake.update_queue.qsize()) == (403, 200, 1)


async def test_webhook_route_is_absent_without_a_bot(aiohttp_client: Any, settings: Settings,
                                                     service: TableService) -> None:
    client = await aiohttp_client(make_app(settings, service=service))
    assert (await client.post(WEBHOOK_PATH, json=UPDATE)).status in (404, 405)
    assert isinstance(client.app, web.Application)
