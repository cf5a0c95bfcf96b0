"""POST /api/daily/{game}/share: the result line of today's deal, prepared by the bot for the page's shareMessage."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from engine.config import Settings
from engine.service.tables import TableService
from tests.fakes.botapi import FakeBotApi
from tests.service.helpers import play_out
from tests.web.conftest import Client, local_signin, signed, templates_dir, tma
from webapp.app import make_app
from webapp.keys import BOT

os.environ.setdefault("PTB_TIMEDELTA", "1")
ANN = 11


async def finish(service: TableService, user_id: int, name: str) -> None:
    info = await service.daily.start("coins", user_id, name)
    await play_out(service, info.id)
    await service.daily.wait_settled()


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi(bot_username="cardroom_daily_bot", inline=True) as started:
        started.user_starts_bot(ANN, "Ann")
        yield started


async def test_share_prepares_the_result_line_as_a_message_with_no_card(
    fake: FakeBotApi, settings: Settings, service: TableService, aiohttp_client: Any
) -> None:
    with_bot = replace(settings, bot_token=fake.token, bot_api_base_url=fake.base_url, miniapp_short_name="play",
                       webapp_url="http://cards.test", initdata_max_age=3600)
    app = make_app(with_bot, service=service, templates_dir=templates_dir())
    client: Client = await aiohttp_client(app)
    await app[BOT].bot_data.runner.started.wait()  # type: ignore[attr-defined]
    headers = tma(signed(ANN, token=fake.token))
    early = await client.post("/api/daily/coins/share", headers=headers)
    assert early.status == 409 and (await early.json())["code"] == "daily_not_finished"

    await finish(service, ANN, "Ann")
    response = await client.post("/api/daily/coins/share", headers=headers)
    assert response.status == 200, await response.text()
    body = await response.json()
    assert body["line"].startswith("Cardroom · Coins · ") and body["line"].endswith("% · 🔥1")
    prepared = fake.prepared_messages[body["id"]]
    assert prepared.user_id == ANN
    [save] = fake.calls_to("savePreparedInlineMessage")
    assert save.params["result"]["input_message_content"]["message_text"] == body["line"]
    assert "reply_markup" not in save.params["result"]  # a line to read, not a table to join


async def test_share_without_a_bot_gives_the_line_to_copy(client: Client, service: TableService) -> None:
    init_data, user_id = await local_signin(client, "Ann")
    await finish(service, user_id, "Ann")
    response = await client.post("/api/daily/coins/share", headers=tma(init_data))
    body = await response.json()
    assert response.status == 200 and body["id"] is None and body["line"].startswith("Cardroom · Coins · ")
