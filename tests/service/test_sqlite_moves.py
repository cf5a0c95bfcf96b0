"""SQLite's fast path for plain moves writes what the general writer writes, refuses what it refuses, never
writes while the general writer is in a transaction, never waits on a busy file, and checkpoints on a thread."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine.config import Settings
from engine.service.tables import TableService
from engine.store import dialects, writer
from engine.store.database import database_url
from engine.store.dialects import sqlite_pragmas
from engine.store.row_writes import table_values
from engine.store.schema import tables
from engine.store.sqlite_moves import ROW_COLUMNS, ROWS_PER_INSERT, SqliteMoves, StaleRowChange, row_change
from tests.service.helpers import human_move, play_out, service_over, started_coins


@pytest.fixture
async def sqlite_service(settings: Settings) -> AsyncIterator[TableService]:
    """A service over SQLite in ``settings.data_dir`` (the fast path is SQLite's alone)."""
    async with service_over(database_url(None, settings.data_dir)) as service:
        yield service


def test_the_row_change_names_every_column_the_writer_writes_but_the_version() -> None:
    assert set(ROW_COLUMNS) == {c.name for c in tables.columns} - {"version"}
    row = dict.fromkeys(ROW_COLUMNS) | {"id": "t1"}
    assert row_change(row, 4) == row | {"was_id": "t1", "was_version": 4, "new_version": 5}


async def test_a_move_stored_on_the_fast_path_is_in_the_log_and_its_row_at_the_stored_version(
    sqlite_service: TableService, settings: Settings,
) -> None:
    service = sqlite_service
    table_id = await started_coins(service, 2)
    user, action, seq = await human_move(service, table_id)
    await service.act(table_id, user, action, seq)
    live = service.live(table_id)
    assert live is not None
    with sqlite3.connect(settings.data_dir / "cardroom.db") as db:
        logged = db.execute("SELECT seat, action FROM actions WHERE table_id = ? AND seq = ?",
                            (table_id, seq + 1)).fetchone()
        version = db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()[0]
    assert logged is not None and json.loads(logged[1]) == action
    assert live.row.version == version  # the live copy of the row is at the version stored


async def test_a_row_change_against_an_old_version_is_refused_and_nothing_is_stored(
    sqlite_service: TableService, settings: Settings,
) -> None:
    service = sqlite_service
    table_id = await started_coins(service, 2)
    live = service.live(table_id)
    assert live is not None
    values, version = table_values(live.row), live.row.version
    moves = SqliteMoves(str(settings.data_dir / "cardroom.db"), sqlite_pragmas)
    move = {"table_id": table_id, "seq": 10_000, "seat": 0, "action": "{}", "auto": False, "created_at": 1.0}
    with pytest.raises(StaleRowChange):
        moves.commit([move], [row_change(values, version - 1)])
    moves.close()
    with sqlite3.connect(settings.data_dir / "cardroom.db") as db:
        assert db.execute("SELECT count(*) FROM actions WHERE seq = 10000").fetchone()[0] == 0  # rolled back
        assert db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()[0] == version


async def test_a_batch_larger_than_one_insert_holds_is_stored_whole_or_not_at_all(
    sqlite_service: TableService, settings: Settings,
) -> None:
    """Flat out a commit can carry more moves than one statement takes: they still go in one transaction."""
    service = sqlite_service
    table_id = await started_coins(service, 2)
    commits = SqliteMoves(str(settings.data_dir / "cardroom.db"), sqlite_pragmas)
    many = ROWS_PER_INSERT * 2 + 7
    moves = [{"table_id": table_id, "seq": 20_000 + i, "seat": i % 3, "action": json.dumps({"n": i}), "auto": False,
              "created_at": float(i)} for i in range(many)]
    commits.commit(moves, [])
    clash = [{**moves[0], "seq": 30_000 + i} for i in range(ROWS_PER_INSERT + 1)] + [moves[-1]]  # last one is stored
    with pytest.raises(sqlite3.IntegrityError):
        commits.commit(clash, [])
    commits.close()
    with sqlite3.connect(settings.data_dir / "cardroom.db") as db:
        stored = db.execute("SELECT seq, seat, action, created_at FROM actions WHERE seq >= 20000 ORDER BY seq")
        # every move of the first batch, none of the second, whose first thousand went in before its clash
        assert stored.fetchall() == [(m["seq"], m["seat"], m["action"], m["created_at"]) for m in moves]


async def test_moves_made_while_the_writer_is_in_a_transaction_wait_for_it_then_are_stored(
    sqlite_service: TableService, settings: Settings,
) -> None:
    """The loop's commits never run inside the writer task's transaction: SQLite sees one writer at a time."""
    service = sqlite_service
    table_id = await started_coins(service, 3)
    inside, release = asyncio.Event(), asyncio.Event()

    async def slow_write(conn: Any) -> None:  # a write of the general writer that is still going on
        inside.set()
        await release.wait()

    held = asyncio.create_task(service.store.writer.write(slow_write))
    await inside.wait()
    user, action, seq = await human_move(service, table_id)
    move = asyncio.create_task(service.act(table_id, user, action, seq))
    for _ in range(20):
        await asyncio.sleep(0.005)
    assert not move.done()  # waiting for the writer's transaction, not refused and not written alongside it
    release.set()
    await held
    assert (await move).seq == seq + 1
    with sqlite3.connect(settings.data_dir / "cardroom.db") as db:
        assert db.execute("SELECT count(*) FROM actions WHERE table_id = ? AND seq = ?",
                          (table_id, seq + 1)).fetchone()[0] == 1


async def test_a_busy_file_sends_the_move_the_writers_way_and_the_loop_never_waits_on_the_lock(
    sqlite_service: TableService, settings: Settings,
) -> None:
    service = sqlite_service
    table_id = await started_coins(service, 3)
    user, action, seq = await human_move(service, table_id)
    other = sqlite3.connect(settings.data_dir / "cardroom.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the file
    move = asyncio.create_task(service.act(table_id, user, action, seq))
    began = time.monotonic()
    for _ in range(40):  # the loop keeps turning while the move waits (the lock's own timeout is 5 s)
        await asyncio.sleep(0.005)
    assert time.monotonic() - began < 2.0
    assert not move.done()
    other.execute("ROLLBACK")
    other.close()
    assert (await move).seq == seq + 1  # the writer's connection waited for the lock on its own thread
    with sqlite3.connect(settings.data_dir / "cardroom.db") as db:
        stored = db.execute("SELECT action FROM actions WHERE table_id = ? AND seq = ?", (table_id, seq + 1))
        assert json.loads(stored.fetchone()[0]) == action


async def test_moves_reach_the_database_file_through_checkpoints_on_a_thread(
    sqlite_service: TableService, settings: Settings, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The loop's connection never checkpoints; every few moves a thread copies the WAL into the file."""
    monkeypatch.setattr(writer, "CHECKPOINT_EVERY", 4)
    threads: list[str] = []
    checkpoint = SqliteMoves.checkpoint

    def spied(self: SqliteMoves) -> None:
        threads.append(threading.current_thread().name)
        checkpoint(self)

    monkeypatch.setattr(SqliteMoves, "checkpoint", spied)
    service = sqlite_service
    table_id = await started_coins(service, 3)
    await play_out(service, table_id, moves=8)
    await asyncio.sleep(0.05)
    assert threads and threading.main_thread().name not in threads
    # the database file alone (its WAL ignored): the moves of the checkpointed commits are in it
    uri = f"file:{settings.data_dir / 'cardroom.db'}?immutable=1"
    with sqlite3.connect(uri, uri=True) as db:
        in_file = db.execute("SELECT count(*) FROM actions WHERE table_id = ?", (table_id,)).fetchone()[0]
    assert in_file >= 4


class _CommitDuringPass:
    """The checkpointer's connection, with a move committed during its first checkpoint pass.

    A reader that began before the pass (as the loop's commit does) keeps the WAL from starting
    over: the move lands after the pages the pass copied, as when it comes while the pass copies.
    """

    def __init__(self, conn: sqlite3.Connection, path: Any, commit_one: Any) -> None:
        self.conn, self.path, self.commit_one, self.passes = conn, path, commit_one, 0

    def execute(self, sql: str) -> sqlite3.Cursor:
        self.passes += 1
        if self.passes > 1:
            return self.conn.execute(sql)
        with sqlite3.connect(self.path, isolation_level=None) as reader:
            reader.execute("BEGIN")
            reader.execute("SELECT count(*) FROM actions").fetchone()
            found = self.conn.execute(sql)
            self.commit_one()
            reader.execute("COMMIT")
        return found

    def close(self) -> None:
        self.conn.close()


async def test_a_checkpoint_copies_the_moves_committed_during_it_so_the_wal_starts_over(
    sqlite_service: TableService, settings: Settings,
) -> None:
    """Moves keep coming while a checkpoint copies: it passes again until none came, and the WAL starts over."""
    path = settings.data_dir / "cardroom.db"
    table_id = await started_coins(sqlite_service, 2)
    moves = SqliteMoves(str(path), sqlite_pragmas)
    made = iter(range(40_000, 50_000))

    def commit_one() -> None:
        move = {"table_id": table_id, "seq": next(made), "seat": 0, "action": "{}", "auto": False, "created_at": 1.0}
        moves.commit([move], [])

    for _ in range(30):
        commit_one()
    checkpointer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    racing = _CommitDuringPass(checkpointer, path, commit_one)
    moves._checkpointer = racing  # type: ignore[assignment]
    assert moves.checkpoint()
    assert racing.passes >= 2
    commit_one()  # the first commit after a whole copy starts the WAL over: it holds this commit's pages alone
    with sqlite3.connect(path, isolation_level=None) as db:
        _busy, in_wal, _copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    moves.close()
    assert 0 < in_wal <= 4


async def test_a_wal_that_grew_past_its_limit_is_cut_back_when_it_starts_over(
    sqlite_service: TableService, settings: Settings, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dialects, "WAL_LIMIT", 64 * 1024)
    path = settings.data_dir / "cardroom.db"
    wal = settings.data_dir / "cardroom.db-wal"
    table_id = await started_coins(sqlite_service, 2)
    moves = SqliteMoves(str(path), sqlite_pragmas)
    for seq in range(50_000, 50_100):
        moves.commit([{"table_id": table_id, "seq": seq, "seat": 0, "action": "{}", "auto": False,
                       "created_at": 1.0}], [])
    grown = wal.stat().st_size
    assert moves.checkpoint()
    moves.commit([{"table_id": table_id, "seq": 60_000, "seat": 0, "action": "{}", "auto": False,
                   "created_at": 1.0}], [])
    moves.close()
    assert grown > 64 * 1024 >= wal.stat().st_size
