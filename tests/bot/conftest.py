"""The real bot Application against the local Bot API server, with a real table service on SQLite."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from telegram import Update
from telegram.ext import TypeHandler

from engine.config import Settings
from engine.service.tables import TableService
from tests.fakes.botapi import FakeBotApi
from tests.postgres import database as database
from tgbot.app import build_application, start_bot, stop_bot
from tgbot.limits import rate_limiter

os.environ.setdefault("PTB_TIMEDELTA", "1")

SCALE = 0.05  # every flood-control period, on the fake and in the bot's limiter alike
GROUP = -1001
ANN, BOB, CID, DAN = 11, 12, 13, 14
BOT_USERNAME = "cardroom_test_bot"
SHORT_NAME = "play"


@dataclass
class Harness:
    """The fake Telegram, the service and the running bot, with a way to wait until all is quiet."""

    fake: FakeBotApi
    service: TableService
    application: Any
    settings: Settings
    processed: set[int] = field(default_factory=set)
    pushed: set[int] = field(default_factory=set)  # update ids put straight on the update queue (webhook path)

    async def send(self, update: dict[str, Any]) -> dict[str, Any]:
        """Hand an update to the fake Telegram (the bot polls it) and wait until everything settled."""
        await self.fake.send_update(update)
        await self.settle()
        return update

    async def settle(self, within: float = 20.0) -> None:
        """Wait until the bot took every update, handled it, the AI moved and every message is up to date."""
        async with asyncio.timeout(within):
            while True:
                wanted = {u["update_id"] for u in self.fake.pending_updates}
                if wanted or not self.application.update_queue.empty():
                    await asyncio.sleep(0.005)
                    continue
                if self._unhandled():
                    await asyncio.sleep(0.005)
                    continue
                await self.service.autoplay.idle()
                await self.application.bot_data.notifier.idle()
                await asyncio.sleep(0.01)
                if (not self.fake.pending_updates and self.application.update_queue.empty()
                        and not self._unhandled() and not self.application.bot_data.notifier.busy):
                    return

    def _unhandled(self) -> bool:
        sent = {u["update_id"] for call in self.fake.calls_to("getUpdates") for u in call.response.get("result", [])}
        return bool((sent | self.pushed) - self.processed)

    async def table_id(self) -> str:
        """The newest table of the group."""
        rows = sorted((r for r in await self.service.store.tables.unfinished_tables() if r.chat_id == GROUP),
                      key=lambda r: r.created_at)
        return rows[-1].id


async def make_harness(service: TableService, *, scale: float = SCALE, webapp_url: str = "http://cards.test",
                       status_interval: float = 0.2, read_timeout: float = 1.0, max_retries: int = 0,
                       fake: FakeBotApi | None = None, slack: float = 0.02) -> Harness:
    """The bot against a new fake Telegram, or against ``fake`` (the same Telegram after a restart)."""
    if fake is None:
        fake = FakeBotApi(bot_username=BOT_USERNAME, time_scale=scale)
        await fake.start()
    settings = Settings(bot_token=fake.token, bot_api_base_url=fake.base_url, webapp_url=webapp_url,
                        miniapp_short_name=SHORT_NAME, webhook_secret="s3cret")
    application = build_application(settings, service,
                                    limiter=rate_limiter(scale, slack=slack, max_retries=max_retries),
                                    status_interval=status_interval, read_timeout=read_timeout)
    harness = Harness(fake, service, application, settings)

    async def mark(update: Update, _context: Any) -> None:
        harness.processed.add(update.update_id)

    application.add_handler(TypeHandler(Update, mark), group=99)
    await start_bot(application, settings)
    fake.add_group(GROUP)
    return harness


@pytest.fixture(autouse=True)
def dealt_alike(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's tables are dealt from seeds drawn from its own name, so a whole game plays the same every run: a
    random deal made a game's length, and so what a test could count in it, differ from run to run (a Coins game to
    3 once gave the friend who never started the bot 4 turns, where the test needs 5 to measure a rate)."""
    base, numbers = hashlib.sha256(request.node.nodeid.encode()).hexdigest(), itertools.count()
    monkeypatch.setattr("engine.service.lobby.new_seed",
                        lambda: hashlib.sha256(f"{base}:{next(numbers)}".encode()).hexdigest())


@pytest.fixture
async def bot(service: TableService) -> AsyncIterator[Harness]:
    harness = await make_harness(service)
    yield harness
    await stop_bot(harness.application)
    await harness.fake.close()
