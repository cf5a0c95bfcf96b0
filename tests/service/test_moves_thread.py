"""SQLite's fast path for plain moves writes what the general writer writes, and refuses what it refuses."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator

import pytest

from engine.config import Settings
from engine.service.tables import TableService
from engine.store.database import database_url
from engine.store.moves_thread import ROW_COLUMNS, ROWS_PER_INSERT, MovesThread, StaleRowChange, row_change
from engine.store.schema import tables
from engine.store.writer import _sqlite_pragmas, _table_values
from tests.service.helpers import human_move, service_over, started_coins


@pytest.fixture
async def sqlite_service(settings: Settings) -> AsyncIterator[TableService]:
    """A service over SQLite in ``settings.data_dir`` (the moves thread is SQLite's alone)."""
    async with service_over(database_url(None, settings.data_dir)) as service:
        yield service


def test_the_row_change_names_every_column_the_writer_writes_but_the_version() -> None:
    assert set(ROW_COLUMNS) == {c.name for c in tables.columns} - {"version"}
    row = dict.fromkeys(ROW_COLUMNS) | {"id": "t1"}
    assert row_change(row, 4) == row | {"was_id": "t1", "was_version": 4, "new_version": 5}


async def test_a_move_stored_by_the_thread_is_in_the_log_and_its_row_at_the_stored_version(
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
    values, version = _table_values(live.row), live.row.version
    thread = MovesThread(str(settings.data_dir / "cardroom.db"), _sqlite_pragmas)
    move = {"table_id": table_id, "seq": 10_000, "seat": 0, "action": "{}", "auto": False, "created_at": 1.0}
    with pytest.raises(StaleRowChange):
        await thread.commit([move], [row_change(values, version - 1)])
    await thread.close()
    with sqlite3.connect(settings.data_dir / "cardroom.db") as db:
        assert db.execute("SELECT count(*) FROM actions WHERE seq = 10000").fetchone()[0] == 0  # rolled back
        assert db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()[0] == version


async def test_a_batch_larger_than_one_insert_holds_is_stored_whole_or_not_at_all(
    sqlite_service: TableService, settings: Settings,
) -> None:
    """Flat out a commit can carry more moves than one statement takes: they still go in one transaction."""
    service = sqlite_service
    table_id = await started_coins(service, 2)
    thread = MovesThread(str(settings.data_dir / "cardroom.db"), _sqlite_pragmas)
    many = ROWS_PER_INSERT * 2 + 7
    moves = [{"table_id": table_id, "seq": 20_000 + i, "seat": i % 3, "action": json.dumps({"n": i}), "auto": False,
              "created_at": float(i)} for i in range(many)]
    await thread.commit(moves, [])
    clash = [{**moves[0], "seq": 30_000 + i} for i in range(ROWS_PER_INSERT + 1)] + [moves[-1]]  # last one is stored
    with pytest.raises(sqlite3.IntegrityError):
        await thread.commit(clash, [])
    await thread.close()
    with sqlite3.connect(settings.data_dir / "cardroom.db") as db:
        stored = db.execute("SELECT seq, seat, action, created_at FROM actions WHERE seq >= 20000 ORDER BY seq")
        # every move of the first batch, none of the second, whose first thousand went in before its clash
        assert stored.fetchall() == [(m["seq"], m["seat"], m["action"], m["created_at"]) for m in moves]
