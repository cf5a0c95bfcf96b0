"""SQLite's fast path for plain moves: one transaction on a thread of its own, in one hop from the event loop.

The writer task hands a whole batch over (the log rows and each moved table's row, checked
against the version it was read at) and waits for the commit. The thread uses the standard
library's ``sqlite3`` with statements SQLAlchemy compiled once, so it holds the GIL only to bind
parameters: the statements run and the commit syncs to disk with the GIL released, and the
event loop keeps serving meanwhile. Only the writer task calls ``commit``, and it waits for it,
so this connection never writes while the store's other connection does.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, update
from sqlalchemy.dialects import sqlite as sqlite_dialect

from engine.store.schema import actions, tables

_DIALECT = sqlite_dialect.dialect(paramstyle="named")
MOVE_COLUMNS = tuple(c.name for c in actions.columns)
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


class MovesThread:
    """A thread and its own connection to the SQLite file at ``path``, made there on first use.

    The loop hands work over on a queue and the thread answers with one ``call_soon_threadsafe``
    per commit: no executor, whose futures and callbacks cost the loop more than the hand-over.
    """

    def __init__(self, path: str, pragmas: Callable[[Any, Any], None]) -> None:
        self.path = path
        self.pragmas = pragmas
        self._work: queue.SimpleQueue[Work | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None

    async def commit(self, rows: list[dict[str, Any]], changes: list[dict[str, Any]]) -> None:
        """Insert the log ``rows`` and apply the row ``changes`` in one durable transaction; raises on any refusal."""
        await self._run(self._commit, rows, changes)

    async def close(self) -> None:
        if self._thread is None:
            return
        await self._run(self._close)
        self._work.put(None)
        self._thread.join()
        self._thread = None

    def _run(self, job: Callable[..., None], *args: Any) -> asyncio.Future[None]:
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="store-moves", daemon=True)
            self._thread.start()
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._work.put(Work(job, args, loop, done))
        return done

    def _serve(self) -> None:
        while (work := self._work.get()) is not None:
            error: BaseException | None = None
            try:
                work.job(*work.args)
            except BaseException as failed:  # handed to the waiting task, which raises it
                error = failed
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits any more
                work.loop.call_soon_threadsafe(_settle, work.done, error)

    def _commit(self, rows: list[dict[str, Any]], changes: list[dict[str, Any]]) -> None:
        """One transaction, in as few statements as it can: each is a trip out of and back into the GIL.

        A trip back waits for the event loop to let go of the GIL (up to the interpreter's switch
        interval, 5 ms), so ``executemany`` (a trip a row) made a commit wait for the loop again and
        again. The moves go in one multi-row ``INSERT``; with no table row to change, that one statement
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

    def _open(self) -> sqlite3.Connection:
        self._conn = sqlite3.connect(self.path, isolation_level=None)  # transactions are begun by hand
        self.pragmas(self._conn, None)
        return self._conn

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _insert_moves(rows: list[dict[str, Any]]) -> tuple[str, list[Any]]:
    """One ``INSERT`` of every log row in ``rows`` (at least one), and its parameters."""
    return _INSERT_ROWS[len(rows)] if len(rows) < len(_INSERT_ROWS) else _insert_sql(len(rows)), [
        row[name] for row in rows for name in MOVE_COLUMNS]


def _insert_sql(count: int) -> str:
    one = "(" + ", ".join("?" * len(MOVE_COLUMNS)) + ")"
    return f"INSERT INTO {actions.name} ({', '.join(MOVE_COLUMNS)}) VALUES " + ", ".join([one] * count)


_INSERT_ROWS = [""] + [_insert_sql(n) for n in range(1, 65)]  # the usual batch sizes, written once


@dataclass(frozen=True, slots=True)
class Work:
    """One job for the thread, and where to answer."""

    job: Callable[..., None]
    args: tuple[Any, ...]
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[None]


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.cancelled():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


def row_change(values: dict[str, Any], was_version: int) -> dict[str, Any]:
    """The parameters of ``UPDATE_ROW`` for a table row's ``values`` (as stored) read at ``was_version``."""
    return {**values, "was_id": values["id"], "was_version": was_version, "new_version": was_version + 1}
