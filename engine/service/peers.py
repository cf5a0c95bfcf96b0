"""Other processes on the same database: what the table service needs of them, and the one-process case.

Several web processes may serve the same tables (any player on any process) when they share a
PostgreSQL database: ``engine.service.pg_peers`` keeps them in step by change notices and
leases, on PostgreSQL itself. With SQLite there is one process and ``LocalPeers`` says it
drives every table. PostgreSQL's peers, and its driver, are loaded only for a shared database
(``engine.service.loading``), so a SQLite process never pays for importing them.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from engine.service.presence import Presence


@dataclass(frozen=True, slots=True)
class Notice:
    """Another process changed a table: its new ``seq`` and row ``version``, the kind of change, public events."""

    table_id: str
    seq: int
    kind: str
    version: int
    events: str


OnNotice = Callable[[Notice], Coroutine[Any, Any, None]]
OnResume = Callable[[], Coroutine[Any, Any, None]]


class Peers(Protocol):
    """What the table service needs to share a database with other processes."""

    origin: str

    async def start(self, on_notice: OnNotice, on_resume: OnResume) -> None:
        """Start listening for the other processes' changes (``on_resume``: listening again after a loss)."""

    async def close(self) -> None:
        """Stop listening and give up every lease."""

    async def lease(self, table_id: str) -> bool:
        """Whether this process drives the table (taking the lease when it is free)."""

    async def release(self, table_id: str) -> None:
        """Stop driving the table."""

    def holds(self, table_id: str) -> bool:
        """Whether this process holds the table's lease now (no I/O)."""

    def in_touch(self) -> bool:
        """Whether this process is in touch with the others now (its hold on its leases confirmed; no I/O)."""

    async def owner(self, table_id: str) -> str | None:
        """The address of the other live process holding the table's lease, if one does and has an address."""


@runtime_checkable
class SharesPresence(Protocol):
    """Peers that carry who is at each table between the processes (``engine.service.presence``)."""

    def share_presence(self, presence: Presence) -> None:
        """Tell the others of ``presence``'s own changes, and it of theirs."""


@runtime_checkable
class HandsOver(Protocol):
    """Peers that can hand every lease over at once, for a graceful stop."""

    async def release_all(self) -> None:
        """Stop driving every table and take none again, so the others take them at once."""


class LocalPeers:
    """One process alone on its database: it drives every table and hears of no other."""

    origin = ""

    async def start(self, on_notice: OnNotice, on_resume: OnResume) -> None:
        """Nothing to listen to."""

    async def close(self) -> None:
        """Nothing to close."""

    async def lease(self, table_id: str) -> bool:
        """Always this process."""
        return True

    async def release(self, table_id: str) -> None:
        """Nothing held."""

    async def release_all(self) -> None:
        """Nothing held."""

    def holds(self, table_id: str) -> bool:
        """Always this process."""
        return True

    def in_touch(self) -> bool:
        """Alone: always."""
        return True

    async def owner(self, table_id: str) -> str | None:
        """No other process."""
        return None
