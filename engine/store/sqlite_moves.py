"""SQLite's fast path for plain moves: one group commit of every move waiting, made on the loop itself.

Every plain move (its log row, and its table's row when the move changes it) that waits for
the same commit (the loop's next turn, or a few milliseconds when moves come fast:
``engine.store.commit_pace``) goes into one transaction, committed with the standard
library's ``sqlite3`` right there, with statements SQLAlchemy compiled once. There is no thread
to hand the work to and no second wake-up of the loop to hear back: on a virtual machine those
hops cost more CPU than the commit itself (a move at the pace took 102 µs of a thread's CPU and
about 90 µs more of the loop's; the commit alone, fsync included, about 60 µs).

Nothing is acknowledged before its commit has synced the WAL to disk (``synchronous=FULL``),
and the loop waits for that sync (seen here: 0.2 ms at the median, 0.5 ms at p99, 2 ms at
p99.9). Frames that arrive meanwhile wait in their sockets and are committed together in the
next turn, so under load one commit carries many moves.

The WAL is checkpointed on a thread with a connection of its own (``checkpoint``), never
inside a commit on the loop. The store's writer lets a commit run only between its own
transactions, so SQLite never sees two writers at once; should the file be busy all the same,
the commit is refused at once (``busy_timeout`` 0) and the moves go the writer's way, so the
loop never waits on a lock.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from itertools import chain
from operator import itemgetter
from typing import Any

from sqlalchemy import bindparam, update
from sqlalchemy.dialects import sqlite as sqlite_dialect

from engine.store.schema import actions, tables

_DIALECT = sqlite_dialect.dialect(paramstyle="named")
MOVE_COLUMNS = tuple(c.name for c in actions.columns)
_MOVE_VALUES = itemgetter(*MOVE_COLUMNS)  # a log row's values in column order
CHECKPOINT_PASSES = 8  # a checkpoint passes over the WAL again while moves came during its last pass
ROWS_PER_INSERT = 1000  # well under SQLite's 32,766 parameters a statement
# every column but the version, then the version it is raised to, where the row still has the version read
ROW_COLUMNS = tuple(c.name for c in tables.columns if c.name != "version")
UPDATE_ROW = str(
    update(tables)
    .where(tables.c.id == bindparam("was_id"), tables.c.version == bindparam("was_version"))
    .values({**{name: bindparam(name) for name in ROW_COLUMNS}, "version": bindparam("new_version")})
    .compile(dialect=_DIALECT)
)


class StaleRowChange(Exception):
    """A table's row was not at the version its change was made against."""

    def __init__(self, table_id: str) -> None:
        super().__init__(table_id)
        self.table_id = table_id


class SqliteMoves:
    """A connection to the SQLite file at ``path`` for the loop's commits, and one for the checkpointing thread."""

    def __init__(self, path: str, pragmas: Callable[[Any, Any], None]) -> None:
        self.path = path
        self.pragmas = pragmas
        self._conn: sqlite3.Connection | None = None
        self._checkpointer: sqlite3.Connection | None = None
        self._checkpointing = threading.Lock()

    def commit(self, rows: list[dict[str, Any]], changes: list[dict[str, Any]]) -> None:
        """Insert the log ``rows`` and apply the row ``changes`` in one durable transaction; raises on any refusal.

        The moves go in one multi-row ``INSERT``; with no table row to change, that one statement
        is the whole transaction (SQLite commits a lone statement by itself, as durably).
        """
        conn = self._conn or self._open()
        chunks = [rows[i:i + ROWS_PER_INSERT] for i in range(0, len(rows), ROWS_PER_INSERT)]
        if len(chunks) == 1 and not changes:
            conn.execute(*_insert_moves(chunks[0]))
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            for chunk in chunks:
                conn.execute(*_insert_moves(chunk))
            for change in changes:
                if conn.execute(UPDATE_ROW, change).rowcount != 1:
                    raise StaleRowChange(change["was_id"])
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def checkpoint(self) -> bool:
        """Copy the WAL's committed pages into the database file (on a thread: it syncs the file); whether all were.

        SQLite starts the WAL over only once every page in it is in the file, and moves keep
        coming while a checkpoint copies: one pass leaves the pages committed meanwhile, so the
        WAL would never start over and grow for as long as moves come, each commit syncing a
        file that has grown (about twice the CPU and the wait of a sync that overwrites). So the
        checkpoint passes again over what came during its last pass, a little each time, until a
        pass finds nothing new.
        """
        with self._checkpointing:
            if self._checkpointer is None:
                self._checkpointer = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                self.pragmas(self._checkpointer, None)
            seen = -1
            for _ in range(CHECKPOINT_PASSES):
                _busy, in_wal, copied = self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                if copied < in_wal:  # a reader still needs the older pages: the WAL cannot start over yet
                    return False
                if in_wal == seen:  # no commit came during the last pass: the WAL is in the file to its end
                    return True
                seen = in_wal
            return False

    def close(self) -> None:
        """Close both connections (the checkpointer's once its checkpoint is done)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        with self._checkpointing:
            if self._checkpointer is not None:
                self._checkpointer.close()
                self._checkpointer = None

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None)  # transactions are begun by hand
        self.pragmas(conn, None)
        conn.execute("PRAGMA busy_timeout=0")  # a busy file is refused at once: the loop never waits on a lock
        conn.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run on a thread (``checkpoint``)
        self._conn = conn
        return conn


def _insert_moves(rows: list[dict[str, Any]]) -> tuple[str, list[Any]]:
    """One ``INSERT`` of every log row in ``rows`` (at least one), and its parameters."""
    return (_INSERT_ROWS[len(rows)] if len(rows) < len(_INSERT_ROWS) else _insert_sql(len(rows)),
            list(chain.from_iterable(map(_MOVE_VALUES, rows))))


def _insert_sql(count: int) -> str:
    one = "(" + ", ".join("?" * len(MOVE_COLUMNS)) + ")"
    return f"INSERT INTO {actions.name} ({', '.join(MOVE_COLUMNS)}) VALUES " + ", ".join([one] * count)


_INSERT_ROWS = [""] + [_insert_sql(n) for n in range(1, 65)]  # the usual batch sizes, written once


def row_change(values: dict[str, Any], was_version: int) -> dict[str, Any]:
    """The parameters of ``UPDATE_ROW`` for a table row's ``values`` (as stored) read at ``was_version``."""
    return {**values, "was_id": values["id"], "was_version": was_version, "new_version": was_version + 1}
