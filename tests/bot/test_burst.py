"""Fifty tables finishing in one group at once stay within Telegram's limits (scaled down to run fast)."""

from __future__ import annotations

import asyncio

from engine.service.tables import TableService
from tests.bot.conftest import GROUP, make_harness
from tgbot.app import stop_bot

TABLES = 50
SCALE = 0.02  # a minute of Telegram's group limit lasts 1.2 s here


async def test_fifty_tables_finishing_at_once_in_one_group_get_no_429(service: TableService) -> None:
    bot = await make_harness(service, scale=SCALE, status_interval=0.1)
    try:
        fake = bot.fake
        hosts = list(range(1000, 1000 + TABLES))
        for host in hosts:
            fake.add_user(host, f"P{host}")
        tables = []
        for host in hosts:  # each a Coins table of one person and two AI players, posted in the group
            info = await service.create_table("coins", host, f"P{host}", {"target_score": 3}, chat_id=GROUP)
            await service.start_game(info.id, host)
            tables.append(info.id)
        await bot.settle(within=60)
        assert len([m for m in fake.messages(GROUP) if not m.deleted]) == TABLES

        # Everyone leaves at once: AI players take the seats over and all fifty games end together.
        await asyncio.gather(*(service.leave(t, h) for t, h in zip(tables, hosts, strict=True)))
        await bot.settle(within=90)

        infos = [await service.info(t) for t in tables]
        assert all(i.status == "finished" for i in infos)
        messages = fake.messages(GROUP)
        summaries = [m for m in messages if "game over" in m.plain]
        statuses = [m for m in messages if "game over" not in m.plain]
        assert len(summaries) == TABLES and len(statuses) == TABLES
        assert all(m.deleted for m in statuses) and not any(m.deleted for m in summaries)
        assert {m.button("Rematch")["callback_data"] for m in summaries} == {f"r:{t}" for t in tables}
        assert fake.count_429 == 0
    finally:
        await stop_bot(bot.application)
        await bot.fake.close()
