"""A group commit of many moves: each stored with its table's row, a stale row refusing only its own move; on
PostgreSQL in a constant number of statements, with one notice for the whole batch."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import event

from engine.core.errors import Refusal, RefusalCode
from engine.service.peers import Notice
from engine.service.pg_peers import PostgresPeers
from engine.store.dialects import database_url
from engine.store.notices import CHANNEL, NOTICE_BYTES, join_notices
from engine.store.rows import LoggedAction, TableRow
from engine.store.table_rows import TableRows
from engine.store.writer import Writer
from tests.postgres import SHARED, fresh_database
from tests.store.conftest import table


async def _tables(rows: TableRows, count: int) -> list[TableRow]:
    loaded = []
    for n in range(count):
        await rows.create_table(table(f"t{n}"))
        row = await rows.load_table(f"t{n}")
        assert row is not None
        loaded.append(row)
    return loaded


async def _move_all(rows: TableRows, loaded: list[TableRow]) -> list[BaseException | None]:
    """One move at every table, all waiting for the same commit, each with its table's new row."""
    for row in loaded:
        row.deadline = 100.0
    return await asyncio.gather(*(rows.append(row.id, LoggedAction(1, 0, {"type": "play", "card": "A-cups"}), row)
                                  for row in loaded), return_exceptions=True)


async def test_batched_moves_refuse_only_the_move_whose_row_another_process_wrote(writer: Writer) -> None:
    rows = TableRows(writer)
    loaded = await _tables(rows, 12)
    elsewhere = await rows.load_table("t5")  # another process's copy, written first
    assert elsewhere is not None
    await rows.save_table(elsewhere, with_seats=False)
    answers = await _move_all(rows, loaded)
    assert [type(answer) for answer in answers] == [type(None)] * 5 + [Refusal] + [type(None)] * 6
    refusal = answers[5]
    assert isinstance(refusal, Refusal) and refusal.code == RefusalCode.STALE
    for row in loaded:
        stored = await rows.load_table(row.id)
        assert stored is not None
        moved = row.id != "t5"
        assert (stored.version, stored.deadline) == ((1, 100.0) if moved else (1, None))
        assert row.version == (1 if moved else 0)
        assert [a.seq for a in await rows.load_actions(row.id)] == ([1] if moved else [])


def _count_statements(writer: Writer) -> list[str]:
    said: list[str] = []

    def heard(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        said.append(statement.split(None, 1)[0].upper())

    event.listen(writer.writes.sync_engine, "before_cursor_execute", heard)  # the writer task's own connection
    return said


@pytest.fixture(params=SHARED)
async def pg_writer(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Writer]:
    """An open writer over a fresh PostgreSQL database."""
    async with fresh_database("cardroom_batch") as url:
        opened = Writer(database_url(url, tmp_path))
        await opened.open()
        yield opened
        await opened.close()


@pytest.mark.parametrize("count", [4, 40])
async def test_batched_moves_take_three_statements_and_one_notice_on_postgresql(pg_writer: Writer,
                                                                                count: int) -> None:
    rows = TableRows(pg_writer)
    loaded = await _tables(rows, count)
    pg_writer.origin = "writer"
    heard: list[Notice] = []
    sent: list[str] = []
    peers = PostgresPeers(pg_writer.dsn)
    raw = await asyncpg.connect(pg_writer.dsn)
    await raw.add_listener(CHANNEL, lambda _c, _p, _ch, payload: sent.append(payload))

    async def on_notice(notice: Notice) -> None:
        heard.append(notice)

    async def on_resume() -> None:
        return None

    await peers.start(on_notice, on_resume)
    try:
        said = _count_statements(pg_writer)
        assert await _move_all(rows, loaded) == [None] * count
        for _ in range(300):
            if len(heard) == count:
                break
            await asyncio.sleep(0.01)
    finally:
        await peers.close()
        await raw.close()
    assert said == ["UPDATE", "INSERT", "SELECT"]  # the table rows, the log rows, the notices
    assert len(sent) == 1 and len(sent[0].split("\n")) == count
    assert sorted((n.table_id, n.seq, n.kind, n.version) for n in heard) == sorted(
        (row.id, 1, "moved", 1) for row in loaded)
    assert all(n.events == '{"seat":0,"action":{"type":"play","card":"A-cups"}}' for n in heard)


def test_notices_are_joined_in_order_under_the_notify_limit() -> None:
    payloads = [f"o|t{n}|{n}|moved|1|" + "x" * (n * 37 % 3000) for n in range(60)]
    joined = join_notices(payloads)
    assert all(len(one.encode()) < NOTICE_BYTES for one in joined)
    assert [line for one in joined for line in one.split("\n")] == payloads
    assert len(joined) < len(payloads) / 3
    assert join_notices([]) == []
