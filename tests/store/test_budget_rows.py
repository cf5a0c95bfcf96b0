"""The bot's shared budget in the store: calls spaced evenly whoever takes them, and its migration up and down."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from engine.store.budget_rows import BudgetRows
from engine.store.dialects import database_url
from engine.store.migrating import migrate
from engine.store.writer import Writer
from tests.postgres import fresh_database
from tests.service.conftest import BACKENDS
from tests.service.test_migrations import migrate_down


@pytest.fixture(params=[b for b in BACKENDS if b != "sqlite"])
async def budget(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[BudgetRows, BudgetRows]]:
    """Two processes' connections to the budget of one PostgreSQL database (brought up to date)."""
    async with fresh_database("cardroom_budget") as url:
        writer = Writer(database_url(url, tmp_path))
        await writer.open()
        pair = (BudgetRows(writer.dsn), BudgetRows(writer.dsn))
        yield pair
        for rows in pair:
            await rows.close()
        await writer.close()


async def test_takes_are_spaced_by_their_interval_whichever_process_takes(
    budget: tuple[BudgetRows, BudgetRows],
) -> None:
    first, second = budget
    waits = [await (first, second)[i % 2].take("overall", 10.0) for i in range(6)]  # six at once, 10 s apart
    assert waits[0] == 0.0
    for i, wait in enumerate(waits[1:], 1):
        assert i * 10.0 - 1.0 < wait <= i * 10.0, waits  # each in the room after the one before, however taken
    assert await first.take("chat:7", 10.0) == 0.0, "a chat's budget is its own"
    assert 9.0 < await second.take("chat:7", 10.0) <= 10.0


async def test_a_groups_posts_keep_its_chats_pace_and_its_slots_in_any_window_counted_from_when_they_leave(
    budget: tuple[BudgetRows, BudgetRows],
) -> None:
    first, second = budget
    began = time.monotonic()
    leaves = []
    for i in range(7):  # taken at once, by either process: 3 posts in any 10 s, 2 s apart
        wait = await (first, second)[i % 2].take_post("chat:-5", 2.0, "group:-5", 10.0, 3)
        leaves.append(time.monotonic() - began + wait)
    assert [round(at) for at in leaves] == [0, 2, 4, 10, 12, 14, 20], leaves
    for i, at in enumerate(leaves[3:], 3):
        assert at - leaves[i - 3] >= 10.0 - 0.5, "a slot is used again a whole window after its post left, not taken"
    assert await first.take("chat:-6", 2.0) == 0.0, "another chat's pace is its own"
    assert 22.0 - 1.0 < await second.take("chat:-5", 2.0) <= 22.0, "the chat's pace counts the group's posts"


async def test_idle_chats_are_forgotten_and_the_takers_counted(budget: tuple[BudgetRows, BudgetRows]) -> None:
    first, second = budget
    await first.take("chat:7", 0.001)
    await first.take("overall", 0.001)
    await first.mark("first")
    await second.mark("second")
    assert await first.takers(60.0, 60.0) == (2, 2)
    await asyncio.sleep(0.3)
    await first.mark("first")  # the second has not taken lately: off the budget, but still one of the bot's
    assert await second.takers(0.2, 60.0) == (1, 2)
    await second.unmark("second")  # stopped
    assert await first.takers(60.0, 60.0) == (1, 1)
    await first.forget_idle(0.0)
    assert await first.take("chat:7", 10.0) == 0.0, "forgotten: the chat starts afresh"
    assert await first.take("overall", 10.0) == 0.0
    assert await first.take("overall", 10.0) > 9.0, "the overall budget is never forgotten"


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_budget_migration_goes_up_and_down(backend: str, tmp_path: Path) -> None:
    async def tables(url: str) -> set[str]:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                await conn.run_sync(migrate, "0010")
                before = await conn.run_sync(lambda sync: set(sa.inspect(sync).get_table_names()))
                await conn.run_sync(migrate, "0011")
                after = await conn.run_sync(lambda sync: set(sa.inspect(sync).get_table_names()))
                await conn.execute(sa.text("INSERT INTO bot_budget (key, next_at) VALUES ('overall', 1.5)"))
                await conn.run_sync(migrate_down, "0010")
                down = await conn.run_sync(lambda sync: set(sa.inspect(sync).get_table_names()))
        finally:
            await engine.dispose()
        assert "bot_budget" not in before and "bot_budget" in after and "bot_budget" not in down
        assert after - before == {"bot_budget"} and down == before
        return after

    if backend == "sqlite":
        await tables(database_url(None, tmp_path))
        return
    async with fresh_database("cardroom_budget_migration") as url:
        await tables(database_url(url, tmp_path))
