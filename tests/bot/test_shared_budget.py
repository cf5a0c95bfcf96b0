"""Two processes on one PostgreSQL database spend one budget of Bot API calls, as Telegram counts them together.

Each process runs its own table service and bot against the same fake Telegram (which
refuses beyond 30 calls in any second of the bot's). Each has its own limiter, good for 28
a second alone; together, with every call's room taken from the database's one budget, they
stay within 28 a second and meet no 429; two calls of theirs in one chat keep Telegram's
one a second there; and their posts to one group keep to its 20 a minute together.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.bot.conftest import GROUP, Harness, make_harness
from tests.fakes.botapi import FakeBotApi
from tests.fakes.botapi.model import Call
from tgbot.app import stop_bot

pytestmark = pytest.mark.postgres
SCALE = 1.0  # Telegram's own seconds: the calls are counted as they arrive, and a shorter second magnifies jitter
BUDGET = 28  # the bot's calls in any of Telegram's seconds, every process together
GROUP_SCALE = 0.25  # a group's minute is 15 s: its window is long beside any jitter, and the test stays short
# a chat's second is then 250 ms; the two processes, the fake and their clients share one event loop here, so a call
# may arrive a few hundred ms after its room was taken (one full-suite run had two posts spaced 385 ms as taken
# arrive 97 ms apart, and a 429)
GROUP_SLACK = 0.3
GROUP_LIMIT = 20  # Telegram's posts a minute in one group


@pytest.fixture
async def processes(database: str, tmp_path: Path) -> AsyncIterator[list[Harness]]:
    """Two processes' services and bots over one database and one fake Telegram, in webhook mode."""
    async with two_processes(database, tmp_path, SCALE, slack=0.02) as bots:
        yield bots


@pytest.fixture
async def processes_quick(database: str, tmp_path: Path) -> AsyncIterator[list[Harness]]:
    """The same, with Telegram's periods shrunk to ``GROUP_SCALE``."""
    async with two_processes(database, tmp_path, GROUP_SCALE, slack=GROUP_SLACK) as bots:
        yield bots


@contextlib.asynccontextmanager
async def two_processes(database: str, tmp_path: Path, scale: float, *, slack: float
                        ) -> AsyncIterator[list[Harness]]:
    """Two processes' services and bots over one database and one fake Telegram whose periods are ``scale`` long."""
    fake = FakeBotApi(bot_username="cardroom_test_bot", time_scale=scale)
    await fake.start()
    stores = [Store(database_url(database, tmp_path)) for _ in range(2)]
    for store in stores:
        await store.open()
    services = [TableService(store, ai_delay=0, heal_every=None) for store in stores]
    for service in services:
        await service.start()
        assert service.bot_budget is not None
        service.bot_budget.timeout = 5.0  # a loaded test machine is slow, not a database out of reach
    bots = [await make_harness(service, scale=scale, webapp_url="https://cards.example", fake=fake, slack=slack)
            for service in services]
    yield bots
    for bot in bots:
        await stop_bot(bot.application)
    for service, store in zip(services, stores, strict=True):
        await service.close()
        await store.close()
    await fake.close()


def busiest_window(times: list[float], seconds: float) -> int:
    """The most calls in any span of ``seconds`` (half open, as Telegram's window slides)."""
    times = sorted(times)
    most, start = 0, 0
    for end, at in enumerate(times):
        while times[start] <= at - seconds:
            start += 1
        most = max(most, end - start + 1)
    return most


async def burst(processes: list[Harness], people: list[list[int]]) -> list[Call]:
    """Each process sends one message to each of its people at once; the calls Telegram got meanwhile."""
    fake = processes[0].fake
    for user in {user for mine in people for user in mine}:
        fake.add_user(user, f"P{user}")
        fake.world.started_users.add(user)
    began = len(fake.calls)

    async def send(bot: Harness, mine: list[int]) -> None:
        await asyncio.gather(*(bot.application.bot.send_message(user, "Your turn") for user in mine))

    await asyncio.gather(*(send(bot, mine) for bot, mine in zip(processes, people, strict=True)))
    return fake.calls[began:]


async def test_two_processes_together_stay_within_the_bots_one_budget(processes: list[Harness]) -> None:
    people = [list(range(9001, 9061)), list(range(9101, 9161))]  # 120 calls, each process alone good for 28 a second
    calls = await burst(processes, people)
    assert len([c for c in calls if c.method == "sendMessage" and c.ok]) == 120
    assert processes[0].fake.count_429 == 0
    assert busiest_window([c.time for c in calls], SCALE) <= BUDGET
    assert all(bot.service.bot_budget is not None and bot.service.bot_budget.fallbacks == 0 for bot in processes)


async def test_two_processes_writing_to_the_same_people_keep_one_message_a_second_in_each_chat(
    processes: list[Harness],
) -> None:
    everyone = list(range(9001, 9031))
    calls = await burst(processes, [everyone, everyone])  # each person gets a message from each process
    assert len([c for c in calls if c.method == "sendMessage" and c.ok]) == 60
    assert processes[0].fake.count_429 == 0
    for user in everyone:
        times = sorted(c.time for c in calls if c.params.get("chat_id") in (user, str(user)))
        assert len(times) == 2 and times[1] - times[0] >= SCALE, (user, times)
    assert busiest_window([c.time for c in calls], SCALE) <= BUDGET


async def test_two_processes_posting_to_one_group_keep_to_its_twenty_a_minute_together(
    processes_quick: list[Harness],
) -> None:
    fake = processes_quick[0].fake
    minute = 60.0 * GROUP_SCALE
    began = len(fake.calls)

    async def post(bot: Harness, count: int) -> None:
        for i in range(count):
            await bot.application.bot.send_message(GROUP, f"Status {i}")

    await asyncio.gather(*(post(bot, 15) for bot in processes_quick))  # 30 posts, each process alone good for 19

    calls = [c for c in fake.calls[began:] if c.method == "sendMessage"]
    assert len([c for c in calls if c.ok]) == 30 and fake.count_429 == 0
    assert busiest_window([c.time for c in calls], minute) <= GROUP_LIMIT
    assert all(bot.service.bot_budget is not None and bot.service.bot_budget.fallbacks == 0 for bot in processes_quick)

