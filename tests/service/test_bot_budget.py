"""The whole bot's budget: taken from the database, and a conservative share of its own while the database is away;
the processes still on the shared budget leave that share to the one off it, so together they keep Telegram's limit
(on PostgreSQL: one process's connection cut every 0.3 s, another's never)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import asyncpg
import pytest

from engine.service.bot_budget import NOTICE, OVERALL, SharedBudget, budget_for
from engine.store.budget_rows import BudgetRows
from engine.store.database import Store, database_url
from tests.bot.test_shared_budget import busiest_window
from tests.clock import ManualClock
from tests.postgres import database as database


class Rows:
    """The budget's rows, answering as told: a wait, or an error while ``down``."""

    def __init__(self) -> None:
        self.down = False
        self.connected = True
        self.taken: list[tuple[str, float]] = []
        self.dropped = 0
        self.counted = (3, 3)  # processes on the shared budget, and known
        self.marks_taken_off = 0

    async def connect(self) -> None:
        if self.down:
            raise OSError("refused")
        self.connected = True

    async def takers(self, lately: float, known: float) -> tuple[int, int]:
        if self.down:
            raise OSError("refused")
        return self.counted

    async def mark(self, name: str) -> None:
        if self.down:
            raise OSError("refused")

    async def unmark(self, name: str) -> None:
        self.marks_taken_off += 1

    async def forget_idle(self, seconds: float) -> None:
        if self.down:
            raise OSError("refused")

    async def take(self, key: str, interval: float) -> float:
        if self.down:
            raise OSError("refused")
        self.taken.append((key, interval))
        return 0.0

    def drop(self) -> None:
        self.dropped += 1

    async def close(self) -> None:
        self.connected = False


async def test_while_the_database_is_away_each_process_keeps_its_share_and_then_takes_from_the_budget_again() -> None:
    rows, clock = Rows(), ManualClock(100.0)
    budget = SharedBudget(rows, retry_after=1.0, clock=clock)  # type: ignore[arg-type]
    await budget.start()
    assert budget.processes == 3
    assert await budget.take(0.01) == 0.0 and rows.taken == [(OVERALL, 0.01)]

    rows.down = True
    waits = [await budget.take(0.01) for _ in range(4)]
    # a third of the budget, one call every 30 ms, once the others can have seen this one leave the shared budget
    assert waits == pytest.approx([NOTICE + 0.03 * n for n in range(4)])
    assert await budget.take(1.1, "chat:7") == 0.0, "a chat's pace is kept by the limiter's own meanwhile"
    assert budget.fallbacks == 5 and rows.dropped == 1, "tried once, then not again for a second"

    rows.down = False
    clock.now += 1.0
    assert await budget.take(0.01) == 0.0 and rows.taken[-1] == (OVERALL, 0.01), "back on the shared budget"
    await budget.close()
    assert rows.marks_taken_off == 1, "a stopping process takes its mark off at once"


async def test_the_processes_on_the_shared_budget_leave_the_share_of_one_off_it() -> None:
    rows, clock = Rows(), ManualClock(100.0)
    rows.counted = (2, 3)  # three processes known, one of them on its own share
    budget = SharedBudget(rows, clock=clock)  # type: ignore[arg-type]
    await budget.start()
    assert budget.spread == 1.5
    await budget.take(0.03)
    assert rows.taken[0][0] == OVERALL and rows.taken[0][1] == pytest.approx(0.045), "two take two thirds of it"
    await budget.take(1.1, "chat:7")
    assert rows.taken[-1] == ("chat:7", 1.1), "a chat's own pace is not spread"
    await budget.close()


@pytest.mark.postgres
async def test_with_one_processs_connection_cut_every_third_of_a_second_two_keep_the_bots_limit(database: str,
                                                                                              tmp_path: Path) -> None:
    store = Store(database_url(database, tmp_path))
    await store.open()
    cut, steady = SharedBudget(BudgetRows(store.dsn)), SharedBudget(BudgetRows(store.dsn))
    await cut.start()
    await steady.start()
    interval, seconds = 1 / 30, 6.0
    sent: dict[str, list[float]] = {"cut": [], "steady": []}
    ends = time.monotonic() + seconds

    async def calls(budget: SharedBudget, name: str) -> None:  # a process with more to send than the budget
        while time.monotonic() < ends:
            wait = await budget.take(interval)
            await asyncio.sleep(wait)
            sent[name].append(time.monotonic())

    async def cutting() -> None:
        while time.monotonic() < ends:
            await asyncio.sleep(0.3)
            cut.rows.drop()  # its connection is gone, again and again

    try:
        await asyncio.gather(calls(cut, "cut"), calls(steady, "steady"), cutting())
    finally:
        await cut.close()
        await steady.close()
        await store.close()
    every = sent["cut"] + sent["steady"]
    assert busiest_window(every, 1.0) <= 31, (busiest_window(every, 1.0), len(sent["cut"]), len(sent["steady"]))
    assert len(every) >= 0.5 * 30 * seconds, "at least half of what the budget allows went"
    assert cut.fallbacks > 0 and len(sent["cut"]) > 0


@pytest.mark.postgres
async def test_with_the_budget_table_locked_the_processes_keep_the_bots_limit_on_their_shares(
        database: str, tmp_path: Path) -> None:
    store = Store(database_url(database, tmp_path))
    await store.open()
    budgets = {name: SharedBudget(BudgetRows(store.dsn)) for name in ("one", "two")}
    for budget in budgets.values():
        await budget.start()
    interval, before, locked = 1 / 28, 2.0, 4.0  # the bot's own pace (tgbot.limits): 28 a second, Telegram's 30
    sent: dict[str, list[float]] = {name: [] for name in budgets}
    began = time.monotonic()
    ends = began + before + locked

    async def calls(budget: SharedBudget, name: str) -> None:  # a process with more to send than the budget
        while time.monotonic() < ends:
            await asyncio.sleep(await budget.take(interval))
            sent[name].append(time.monotonic())

    async def locking() -> None:  # another session holds the whole table: every take waits, then falls back
        await asyncio.sleep(before)
        conn = await asyncpg.connect(database)
        try:
            async with conn.transaction():
                await conn.execute("LOCK TABLE bot_budget IN ACCESS EXCLUSIVE MODE")
                await asyncio.sleep(max(0.0, ends - time.monotonic()))
        finally:
            await conn.close()

    try:
        await asyncio.gather(*(calls(b, n) for n, b in budgets.items()), locking())
    finally:
        for budget in budgets.values():
            await budget.close()
        await store.close()
    every = sorted(sent["one"] + sent["two"])
    while_locked = [t for t in every if t >= began + before + NOTICE]
    assert busiest_window(every, 1.0) <= 30, busiest_window(every, 1.0)  # what the fake Bot API lets through
    assert len(while_locked) >= 0.5 * 28 * (locked - NOTICE), "at least half of what the budget allows went"
    assert all(budget.fallbacks > 0 for budget in budgets.values())
    print(f"budget table locked: busiest second {busiest_window(every, 1.0)} calls, "
          f"{len(while_locked) / (locked - NOTICE):.1f} calls a second while locked")


async def test_a_single_process_database_has_no_shared_budget(tmp_path: Path) -> None:
    store = Store(database_url(None, tmp_path))
    assert budget_for(store) is None
