"""A bot that cannot start (Telegram down, a 5xx at getMe, setMyCommands or setWebhook) leaves the Mini App up."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from engine.config import Settings
from engine.service.tables import TableService
from tests.bot.conftest import ANN, BOT_USERNAME, GROUP, make_harness
from tests.fakes.botapi import FakeBotApi
from tgbot.app import BotRunner, stop_bot, webhook_secret
from webapp.app import make_app
from webapp.keys import BOT


async def test_the_web_process_keeps_serving_and_retries_the_bot_with_backoff(
    service: TableService, aiohttp_client: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
) -> None:
    monkeypatch.setattr(BotRunner, "FIRST_DELAY", 0.05)
    caplog.set_level(logging.WARNING, logger="tgbot.app")
    async with FakeBotApi(bot_username=BOT_USERNAME) as fake:
        for method in ("getMe", "setMyCommands", "setWebhook"):
            fake.inject_fault(method, "server_error", status=502)
        settings = Settings(bot_token=fake.token, bot_api_base_url=fake.base_url, webapp_url="https://cards.example",
                            webhook_secret="s3cret", data_dir=tmp_path)
        client = await aiohttp_client(make_app(settings, service=service))
        application = client.app[BOT]

        health = await (await client.get("/healthz")).json()
        assert health["ok"] is True and health["bot"]["state"] in ("starting", "retrying")
        assert (await client.get("/")).status == 200, "the Mini App is served while the bot is down"

        await application.bot_data.runner.started.wait()

        health = await (await client.get("/healthz")).json()
        assert health["bot"] == {"state": "running", "attempts": 4, "error": None, "retry_in": None}
        assert fake.webhook["url"] == "https://cards.example/telegram/webhook"
        tries = [r.getMessage() for r in caplog.records if "could not start" in r.getMessage()]
        assert len(tries) == 3 and "trying again in 0.1 s" in tries[0] and "NetworkError" in tries[0]
        # the first try stops at its first menu; two later tries each set the 8 menus (2 scopes x 4 languages)
        assert [c.ok for c in fake.calls_to("setMyCommands")] == [False] + [True] * 16
        assert len(fake.calls_to("getMe")) == 2


class Follower:
    """Peers of a process that does not lead: another process holds every lease."""

    origin = "follower"

    async def start(self, on_notice: Any, on_resume: Any) -> None:
        return None

    async def close(self) -> None:
        return None

    async def lease(self, table_id: str) -> bool:
        return False

    async def release(self, table_id: str) -> None:
        return None

    def holds(self, table_id: str) -> bool:
        return False

    def in_touch(self) -> bool:
        return True

    async def owner(self, table_id: str) -> str | None:
        return None


async def test_a_process_that_does_not_lead_registers_nothing_and_polls_nothing(
    aiohttp_client: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, service: TableService,
) -> None:
    follower = TableService(service.store, peers=Follower(), heal_every=None)
    async with FakeBotApi(bot_username=BOT_USERNAME) as fake:
        settings = Settings(bot_token=fake.token, bot_api_base_url=fake.base_url, data_dir=tmp_path)  # polling
        client = await aiohttp_client(make_app(settings, service=follower))
        runner = client.app[BOT].bot_data.runner
        await asyncio.wait_for(runner.standing_by.wait(), timeout=10)
        health = await (await client.get("/healthz")).json()
        assert health["bot"]["state"] == "standby"
        assert fake.calls_to("setMyCommands") == [] and fake.calls_to("getUpdates") == []
        assert fake.calls_to("deleteWebhook") == [] and not runner.started.is_set()


class Switchable(Follower):
    """Peers whose lease of every table the test gives and takes away (a lost connection frees it)."""

    origin = "switchable"

    def __init__(self) -> None:
        self.leading = True

    async def lease(self, table_id: str) -> bool:
        return self.leading

    def holds(self, table_id: str) -> bool:
        return self.leading


async def test_a_poller_that_loses_the_lead_stops_polling_and_takes_it_back_when_it_is_free(
    aiohttp_client: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, service: TableService,
) -> None:
    monkeypatch.setattr(BotRunner, "STANDBY_CHECK", 0.05)
    peers = Switchable()
    process = TableService(service.store, peers=peers, heal_every=None)
    async with FakeBotApi(bot_username=BOT_USERNAME) as fake:
        settings = Settings(bot_token=fake.token, bot_api_base_url=fake.base_url, data_dir=tmp_path)  # polling
        client = await aiohttp_client(make_app(settings, service=process))
        application = client.app[BOT]
        runner = application.bot_data.runner
        await asyncio.wait_for(runner.started.wait(), timeout=10)
        assert application.updater.running

        peers.leading = False  # its connection dropped, and another process took the lead
        await asyncio.wait_for(runner.standing_by.wait(), timeout=10)
        assert not application.updater.running
        assert (await (await client.get("/healthz")).json())["bot"]["state"] == "standby"
        polls = len(fake.calls_to("getUpdates"))
        await asyncio.sleep(0.3)
        assert len(fake.calls_to("getUpdates")) == polls, "a process that does not lead asks Telegram nothing"

        runner.started.clear()
        peers.leading = True  # the lead is free again
        await asyncio.wait_for(runner.started.wait(), timeout=10)
        assert application.updater.running
        assert (await (await client.get("/healthz")).json())["bot"]["state"] == "running"


def test_every_process_checks_the_same_webhook_secret_derived_from_the_token() -> None:
    one, two = Settings(bot_token="1:abc"), Settings(bot_token="1:abc")
    assert webhook_secret(one) == webhook_secret(two) != webhook_secret(Settings(bot_token="1:abd"))
    assert webhook_secret(Settings(bot_token="1:abc", webhook_secret="mine")) == "mine"
    assert set(webhook_secret(one)) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


async def test_messages_a_process_could_not_send_while_the_database_was_away_go_out_once_it_is_back(
    tmp_path: Path, service: TableService,
) -> None:
    peers = Switchable()
    process = TableService(service.store, peers=peers, heal_every=None)
    await process.start()
    harness = await make_harness(process)
    try:
        peers.leading = False  # the connection is lost: no table's lease can be claimed, so nothing is sent
        info = await process.create_table("coins", ANN, "Ann", chat_id=GROUP)
        await harness.settle()
        assert [c for c in harness.fake.calls_to("sendMessage") if c.params.get("chat_id") == GROUP] == []
        peers.leading = True
        await process.resume()  # back in touch: every table is caught up and the skipped passes are made
        await harness.settle()
        sent = [c for c in harness.fake.calls_to("sendMessage") if c.params.get("chat_id") == GROUP]
        assert len(sent) == 1 and "Ann" in sent[0].params["text"], [c.params for c in sent]
        assert await harness.application.bot_data.notifier.home(info.id) is not None
    finally:
        await stop_bot(harness.application)
        await harness.fake.close()
        await process.close()
