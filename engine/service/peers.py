"""Other processes on the same PostgreSQL database: what they changed, and which process drives each table.

Several web processes may serve the same tables (any player on any process). Two
things keep them in step, both on PostgreSQL itself, so there is nothing more to run:

* **Change notices.** Every write of a table sends ``NOTIFY`` in the same transaction
  (``Store._notice``), so a notice is delivered exactly when its change is committed,
  in commit order. A process that has the table in memory catches up from the store
  (the log after its own ``seq``), which also heals any notice it missed.
* **Leases.** One process drives a table's AI seats and turn timers: the one holding
  the table's session advisory lock on its listening connection. When that process
  dies its connection closes, the lock is free, and the next supervisor round of
  another process takes the table over. Moves from any process still go through the
  optimistic ``(table_id, seq)`` guard, so nothing is applied twice during a hand-over.

With SQLite there is one process and ``LocalPeers`` says it drives every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

import asyncpg

from engine.store.database import CHANNEL

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Notice:
    """Another process changed a table: its new ``seq`` and row ``version``, the kind of change, public events."""

    table_id: str
    seq: int
    kind: str
    version: int
    events: str


OnNotice = Callable[[Notice], Coroutine[Any, Any, None]]


class Peers(Protocol):
    """What the table service needs to share a database with other processes."""

    origin: str

    async def start(self, on_notice: OnNotice) -> None:
        """Start listening for the other processes' changes."""

    async def close(self) -> None:
        """Stop listening and give up every lease."""

    async def lease(self, table_id: str) -> bool:
        """Whether this process drives the table (taking the lease when it is free)."""

    async def release(self, table_id: str) -> None:
        """Stop driving the table."""

    def holds(self, table_id: str) -> bool:
        """Whether this process holds the table's lease now (no I/O)."""


class LocalPeers:
    """One process alone on its database: it drives every table and hears of no other."""

    origin = ""

    async def start(self, on_notice: OnNotice) -> None:
        """Nothing to listen to."""

    async def close(self) -> None:
        """Nothing to close."""

    async def lease(self, table_id: str) -> bool:
        """Always this process."""
        return True

    async def release(self, table_id: str) -> None:
        """Nothing held."""

    def holds(self, table_id: str) -> bool:
        """Always this process."""
        return True


def lease_key(table_id: str) -> int:
    """The advisory lock key of a table: 63 bits of its id's SHA-256."""
    return int.from_bytes(hashlib.sha256(b"cardroom-table:" + table_id.encode()).digest()[:8], "big") >> 1


class PostgresPeers:
    """Notices by LISTEN/NOTIFY and leases by session advisory locks, on one connection of this process's own."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.origin = secrets.token_hex(6)
        self._conn: Any = None  # asyncpg.Connection
        self._lock = asyncio.Lock()  # one query at a time on the connection
        self._held: set[str] = set()
        self._on_notice: OnNotice | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, on_notice: OnNotice) -> None:
        """Open the connection and listen on the change channel."""
        self._on_notice = on_notice
        self._conn = await asyncpg.connect(self.dsn)
        await self._conn.add_listener(CHANNEL, self._heard)

    async def close(self) -> None:
        """Close the connection: PostgreSQL frees every lease it held."""
        for task in list(self._tasks):
            task.cancel()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None
        self._held.clear()

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        origin, table_id, seq, kind, version, events = [*payload.split("|", 5), "", "", "", "", ""][:6]
        if origin == self.origin or self._on_notice is None or not seq.isdigit() or not version.isdigit():
            return
        notice = Notice(table_id, int(seq), kind, int(version), events)
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._on_notice(notice))
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("catching up with another process failed", exc_info=task.exception())

    async def lease(self, table_id: str) -> bool:
        """Take the table's advisory lock if it is free; keep it until released or this process ends."""
        if table_id in self._held:
            return True
        if self._conn is None:
            return False
        async with self._lock:
            got = bool(await self._conn.fetchval("SELECT pg_try_advisory_lock($1)", lease_key(table_id)))
        if got:
            self._held.add(table_id)
        return got

    async def release(self, table_id: str) -> None:
        """Free the table's lock so another process may drive it."""
        if table_id not in self._held or self._conn is None:
            return
        self._held.discard(table_id)
        async with self._lock:
            await self._conn.fetchval("SELECT pg_advisory_unlock($1)", lease_key(table_id))

    def holds(self, table_id: str) -> bool:
        """Whether this process holds the lease."""
        return table_id in self._held
