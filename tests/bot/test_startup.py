"""A bot that cannot start (Telegram down, a 5xx at getMe, setMyCommands or setWebhook) leaves the Mini App up."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from engine.config import Settings
from engine.service.tables import TableService
from tests.bot.conftest import BOT_USERNAME
from tests.fakes.botapi import FakeBotApi
from tgbot.app import BotRunner
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
        assert [c.ok for c in fake.calls_to("setMyCommands")] == [False, True, True, True, True]
        assert len(fake.calls_to("getMe")) == 2
