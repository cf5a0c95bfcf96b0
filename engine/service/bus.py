"""The bus: the table service publishes what changed; adapters subscribe.

In one process this is an in-memory fan-out. Every update names its table and the
``seq`` it leads to, so a subscriber that misses one can ask the service for a fresh
view. A subscriber that stops reading has its queue bounded: when it overflows the
subscription is marked ``lagging`` and the subscriber resyncs from a fresh view.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from engine.core.events import Event
from engine.service.live import Snapshot, TableInfo


@dataclass(frozen=True, slots=True)
class Update:
    """What changed at one table (``kind``: lobby, started, moved, finished, abandoned, seat_changed, reminder,
    timed_out), with everything a subscriber needs to render it."""

    table_id: str
    seq: int
    kind: str
    events: tuple[Event, ...]
    snapshot: Snapshot  # the table after the change: its summary and every seat's view

    @property
    def info(self) -> TableInfo:
        """The table's public summary after the change."""
        return self.snapshot.info


@dataclass(eq=False)
class Subscription:
    """An async iterator of updates for one table (or every table when ``table_id`` is None)."""

    bus: MemoryBus
    table_id: str | None
    limit: int = 1024
    queue: asyncio.Queue[Update] = field(default_factory=asyncio.Queue)
    lagging: bool = False

    def offer(self, update: Update) -> None:
        """Queue an update, or mark the subscription lagging if it is full."""
        if self.queue.qsize() >= self.limit:
            self.lagging = True
            return
        self.queue.put_nowait(update)

    async def get(self) -> Update:
        """The next update."""
        return await self.queue.get()

    def __aiter__(self) -> AsyncIterator[Update]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Update]:
        while True:
            yield await self.queue.get()

    def close(self) -> None:
        """Stop receiving updates."""
        self.bus.unsubscribe(self)


class MemoryBus:
    """Fan-out of updates to subscribers in this process."""

    def __init__(self) -> None:
        self._by_table: dict[str | None, set[Subscription]] = {}

    def subscribe(self, table_id: str | None = None, *, limit: int = 1024) -> Subscription:
        """Receive updates of one table, or of every table with None."""
        sub = Subscription(self, table_id, limit)
        self._by_table.setdefault(table_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """Stop delivering to ``sub``."""
        subs = self._by_table.get(sub.table_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._by_table[sub.table_id]

    def publish(self, update: Update) -> None:
        """Deliver an update to the table's subscribers and to those of every table."""
        for key in (update.table_id, None):
            for sub in tuple(self._by_table.get(key, ())):
                sub.offer(update)

    def subscriber_count(self, table_id: str | None = None) -> int:
        """How many subscriptions a table has."""
        return len(self._by_table.get(table_id, ()))
