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
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import bindparam, insert, update
from sqlalchemy.dialects import sqlite as sqlite_dialect

from engine.store.schema import actions, tables

_DIALECT = sqlite_dialect.dialect(paramstyle="named")
INSERT_MOVE = str(insert(actions).compile(dialect=_DIALECT))
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
    """A thread and its own connection to the SQLite file at ``path``, made there on first use."""

    def __init__(self, path: str, pragmas: Callable[[Any, Any], None]) -> None:
        self.path = path
        self.pragmas = pragmas
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store-moves")
        self._conn: sqlite3.Connection | None = None

    async def commit(self, rows: list[dict[str, Any]], changes: list[dict[str, Any]]) -> None:
        """Insert the log ``rows`` and apply the row ``changes`` in one durable transaction; raises on any refusal."""
        await asyncio.get_running_loop().run_in_executor(self._thread, self._commit, rows, changes)

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._close)
        self._thread.shutdown()

    def _commit(self, rows: list[dict[str, Any]], changes: list[dict[str, Any]]) -> None:
        conn = self._conn or self._open()
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany(INSERT_MOVE, rows)
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


def row_change(values: dict[str, Any], was_version: int) -> dict[str, Any]:
    """The parameters of ``UPDATE_ROW`` for a table row's ``values`` (as stored) read at ``was_version``."""
    return {**values, "was_id": values["id"], "was_version": was_version, "new_version": was_version + 1}
