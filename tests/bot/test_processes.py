"""The bot on two processes sharing one PostgreSQL database, updates delivered to either: one message of each kind.

Each process runs its own table service and bot Application against the same fake
Telegram, in webhook mode, as two web processes behind a load balancer do: the group's
updates (/new, button taps) and the players' moves from the Mini App arrive at the two
processes in turn. Whichever process an update reaches, the group gets one lobby
message (edited in place as people join, then turned into the game's status) and each
person one turn message per turn, sent by the one process that drives the table.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from telegram import Update

from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.bot.conftest import ANN, BOB, GROUP, Harness, make_harness
from tests.fakes.botapi import FakeBotApi
from tgbot.app import stop_bot

pytestmark = pytest.mark.postgres
SCALE = 0.05  # Telegram's flood-control periods, shrunk as in the other bot tests


@pytest.fixture
async def processes(database: str, tmp_path: Path) -> AsyncIterator[list[Harness]]:
    """Two processes' services and bots over one database and one fake Telegram, with a public https page."""
    fake = FakeBotApi(bot_username="cardroom_test_bot", time_scale=SCALE)
    await fake.start()
    stores = [Store(database_url(database, tmp_path)) for _ in range(2)]
    for store in stores:
        await store.open()
    services = [TableService(store, ai_delay=0, heal_every=None) for store in stores]
    for service in services:
        await service.start()
    bots = [await make_harness(service, webapp_url="https://cards.example", fake=fake) for service in services]
    yield bots
    for bot in bots:
        await stop_bot(bot.application)
    for service, store in zip(services, stores, strict=True):
        await service.close()
        await store.close()
    await fake.close()


class Cluster:
    """The processes, taking turns to receive what Telegram and the Mini App send."""

    def __init__(self, bots: list[Harness]) -> None:
        self.bots = bots
        self.turn = 0
        self.update_id = 50_000

    def next(self) -> Harness:
        """The process the load balancer hands the next request to."""
        bot = self.bots[self.turn % len(self.bots)]
        self.turn += 1
        return bot

    async def deliver(self, update: dict[str, Any], *, to: Harness | None = None, settle: bool = True) -> None:
        """Telegram's webhook call reaches the next process (or ``to``); wait until every process has done all it
        leads to (unless not ``settle``)."""
        bot = to or self.next()
        self.update_id += 1
        update = {**update, "update_id": self.update_id}
        bot.pushed.add(self.update_id)
        await bot.application.update_queue.put(Update.de_json(update, bot.application.bot))
        if settle:
            await self.settle()

    async def settle(self, within: float = 20.0) -> None:
        """Wait until every process has handled its updates and caught up with the others, and the bots are quiet."""
        async with asyncio.timeout(within):
            while True:
                for bot in self.bots:
                    await bot.settle()
                if self.in_step():
                    for bot in self.bots:  # what the catch-up published is shown
                        await bot.settle()
                    if self.in_step():
                        return
                await asyncio.sleep(0.005)

    def in_step(self) -> bool:
        """Whether every process that has a table in memory has it at the same seq and row version."""
        seen: dict[str, set[tuple[int, int]]] = {}
        for bot in self.bots:
            for table in bot.service.tables():
                seen.setdefault(table.id, set()).add((table.seq, table.row.version))
        return all(len(states) == 1 for states in seen.values())


async def test_updates_on_either_of_two_processes_give_one_lobby_and_one_turn_message_per_turn(
    processes: list[Harness],
) -> None:
    cluster = Cluster(processes)
    fake = processes[0].fake
    fake.add_user(ANN, "Ann")
    fake.add_user(BOB, "Bob")
    for user in (ANN, BOB):  # both may get private messages
        await cluster.deliver(fake.message(user, user, "/start"))

    await cluster.deliver(fake.message(GROUP, ANN, "/new coins target=1"))
    [lobby] = fake.messages(GROUP)
    table_id = await processes[0].table_id()
    await cluster.deliver(fake.press(BOB, lobby, "Join"))
    assert "2. Bob" in lobby.shown
    await cluster.deliver(fake.press(ANN, lobby, "Add AI"))
    assert "3. 🤖" in lobby.plain
    await cluster.deliver(fake.press(ANN, lobby, "Start"))
    assert fake.messages(GROUP) == [lobby] and "playing" in lobby.plain
    assert len(lobby.edits) >= 3  # joined, AI added, started: edits of the one message

    turns = {ANN: 0, BOB: 0}
    for _ in range(200):
        bot = cluster.next()  # the Mini App's move reaches either process
        info = await bot.service.info(table_id)
        if info.status != "playing":
            break
        (mover,) = (s.user_id for s in info.seats if s.seat in info.to_act)
        assert mover is not None, "with no AI delay, only people can be waiting"
        turns[mover] += 1
        for person in (ANN, BOB):
            live = [m for m in fake.messages(person) if "Your turn" in m.plain and not m.deleted]
            assert len(live) == (person == mover), (person, mover, [m.plain for m in live])
        view = await bot.service.view(table_id, mover)
        await bot.service.act(table_id, mover, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
        await cluster.settle()
    assert info.status == "finished"
    for person in (ANN, BOB):
        sent = [m for m in fake.messages(person) if "Your turn" in m.plain]
        assert len(sent) == turns[person] > 0 and all(m.deleted for m in sent)
    group = fake.messages(GROUP)
    assert [m.deleted for m in group] == [True, False] and "Rematch" in [b["text"] for b in group[1].buttons]
