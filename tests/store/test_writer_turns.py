"""The writer task never keeps a table's move waiting long: it has a connection of its own that reads cannot take,
and a long batch of other writes commits what it has once a move waits behind it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from sqlalchemy import text

from engine.store.rows import LoggedAction
from engine.store.table_rows import TableRows
from engine.store.writer import WRITE_SLICE, Writer
from tests.store.conftest import table


async def test_reads_holding_every_pooled_connection_keep_no_write_waiting(writer: Writer) -> None:
    rows = TableRows(writer)
    async with contextlib.AsyncExitStack() as reads:
        held = 0
        while True:  # every connection the pool has, each in use, as a burst of requests' reads would hold them
            try:
                conn = await asyncio.wait_for(reads.enter_async_context(writer.engine.connect()), 0.5)
            except TimeoutError:
                break
            await conn.execute(text("SELECT 1"))
            held += 1
        assert held >= 5
        await asyncio.wait_for(rows.create_table(table("t1")), 5.0)  # before: waited for a read to end (30 s)
    stored = await rows.load_table("t1")
    assert stored is not None and stored.id == "t1"


async def test_a_move_waits_for_a_slice_of_a_long_batch_not_the_whole_of_it(writer: Writer) -> None:
    rows = TableRows(writer)
    await rows.create_table(table("t1"))
    moving = await rows.load_table("t1")
    assert moving is not None
    done: list[str] = []
    started = asyncio.Event()

    def slow(n: int) -> Any:
        async def work(_conn: Any) -> None:
            started.set()
            await asyncio.sleep(WRITE_SLICE / 4)  # forty of them: ten slices' worth in one batch
        return work

    async def write(n: int) -> None:
        await writer.write(slow(n))
        done.append(f"job {n}")

    async def move() -> None:
        await started.wait()
        await rows.append("t1", LoggedAction(1, 0, {"type": "play", "card": "A-cups"}), moving)
        done.append("move")

    await asyncio.gather(*(write(n) for n in range(40)), move())
    assert sorted(done) == sorted([f"job {n}" for n in range(40)] + ["move"])
    assert [f"job {n}" for n in range(40)] == [d for d in done if d != "move"]  # the jobs kept their order
    assert done.index("move") < 10, done  # before: 40, after every job of the batch
    stored = await rows.load_table("t1")
    assert stored is not None and stored.version == 1
    assert [a.seq for a in await rows.load_actions("t1")] == [1]
