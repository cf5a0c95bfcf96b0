"""The bus: the table service publishes what changed; adapters subscribe or listen.

In one process this is an in-memory fan-out, in two forms:

* A **subscription** is a queue its owner reads in a task of its own (the bot's
  notifier, the command line). Every update names its table and the ``seq`` it leads
  to, so a subscriber that misses one can ask the service for a fresh view. A queue
  that overflows is marked ``lagging`` and its subscriber resyncs from a fresh view.
* A **listener** is awaited by ``publish`` itself, in order, while the change's table
  lock is held: the Mini App's rooms write each socket's frame there and then, with no
  queue and no task of their own. A listener must not wait on anything slow (a room
  skips a socket whose send buffer is full rather than wait for it).

An update carries its ``cause``: an opaque token the caller of the change passed (a
socket that sent the move, say), so a listener can tell the mover's own update apart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

from engine.core.events import Event
from engine.core.records import builder
from engine.service.kinds import UpdateKind
from engine.service.live import Snapshot, TableInfo

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Update:
    """What changed at one table (``kind``: an ``UpdateKind``, equal to its string), with everything a subscriber
    needs to render it."""

    table_id: str
    seq: int
    kind: UpdateKind
    events: tuple[Event, ...]
    snapshot: Snapshot  # the table after the change: its summary and every seat's view
    cause: object | None = None  # what the caller of the change passed to say it asked for it; None by itself

    @property
    def info(self) -> TableInfo:
        """The table's public summary after the change."""
        return self.snapshot.info


new_update = builder(Update)  # Update(...) for every change published (engine.core.records)


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


Listener = Callable[[Update], Awaitable[None]]


@dataclass(eq=False)
class Listening:
    """A listener attached to one table's updates."""

    bus: MemoryBus
    table_id: str
    listener: Listener

    def close(self) -> None:
        """Stop receiving updates."""
        self.bus.unlisten(self)


class MemoryBus:
    """Fan-out of updates to subscribers and listeners in this process."""

    def __init__(self) -> None:
        self._by_table: dict[str | None, set[Subscription]] = {}
        self._listeners: dict[str, list[Listening]] = {}

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

    def listen(self, table_id: str, listener: Listener) -> Listening:
        """Have ``listener`` awaited with each update of the table, as it is published."""
        listening = Listening(self, table_id, listener)
        self._listeners.setdefault(table_id, []).append(listening)
        return listening

    def unlisten(self, listening: Listening) -> None:
        """Stop delivering to a listener."""
        listeners = self._listeners.get(listening.table_id)
        if listeners is not None and listening in listeners:
            listeners.remove(listening)
            if not listeners:
                del self._listeners[listening.table_id]

    async def publish(self, update: Update) -> None:
        """Deliver an update: queue it for the table's subscribers and those of every table, then await its listeners.

        A listener that fails is logged and the others still hear of the update; the
        change itself is already stored and stands.
        """
        for key in (update.table_id, None):
            for sub in tuple(self._by_table.get(key, ())):
                sub.offer(update)
        for listening in tuple(self._listeners.get(update.table_id, ())):
            try:
                await listening.listener(update)
            except Exception:
                log.exception("a listener of table %s failed", update.table_id, extra={"table_id": update.table_id})

    def subscriber_count(self, table_id: str | None = None) -> int:
        """How many subscriptions a table has."""
        return len(self._by_table.get(table_id, ()))

    def listener_count(self, table_id: str) -> int:
        """How many listeners a table has."""
        return len(self._listeners.get(table_id, ()))
