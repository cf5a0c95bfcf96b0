"""The table service: the one owner of every change to a table and of every publish.

Adapters (the bot, the Mini App) call it and subscribe to its bus; nothing else changes a
table. It is built in layers, each a module of its own: ``loading`` (tables in memory),
``sharing`` (other processes on the same database), ``moves``, ``due`` (AI turns, timers,
the supervisor) and ``lobby``; this module starts and stops it and answers what adapters read.
Every change happens under the table's lock, is checked by the rules, stored, and only
then applied in memory and published.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from engine.service.autoplay import Autoplay
from engine.service.bus import Listener, Listening, MemoryBus, Subscription
from engine.service.chats import Chats
from engine.service.live import TableInfo
from engine.service.loading import HEAL_EVERY, MAX_LOADED
from engine.service.lobby import AI_NAMES, Lobby
from engine.service.moves import ActResult
from engine.service.peers import Peers
from engine.service.people import People
from engine.service.sharing import fresh_on_conflict
from engine.service.timers import TurnTimers
from engine.store.database import Store

__all__ = ["AI_NAMES", "ActResult", "TableService"]


class TableService(Lobby):
    """Owns every table of this process; adapters call it and subscribe to its bus."""

    def __init__(
        self,
        store: Store,
        bus: MemoryBus | None = None,
        *,
        ai_delay: float = 0.0,
        clock: Callable[[], float] = time.time,
        run_timers: bool = True,
        heal_every: float | None = HEAL_EVERY,
        max_loaded: int = MAX_LOADED,
        peers: Peers | None = None,
    ) -> None:
        super().__init__(store, bus, clock=clock, heal_every=heal_every, max_loaded=max_loaded, peers=peers)
        self.autoplay = Autoplay(self._ai_step, delay=ai_delay, claim=self.peers.lease)
        self.timers = TurnTimers(clock, self._timer_due, run_loop=run_timers)
        self._healer = None
        self._behind = set()
        self._resumed = []
        self._scanned_until = 0.0  # deadlines up to here are armed
        self._first_round = asyncio.Event()
        self.people = People(store)
        self.chats = Chats(store)

    # life cycle ---------------------------------------------------------------

    async def start(self) -> None:
        """Serve at once: tables load when used; the AI turns and deadlines a restart left are resumed from the store.

        Nothing here grows with the number of tables in the database: AI turns are paged
        through in the background, deadlines are armed a window ahead, and stored
        deadlines are kept as they were, so a restart gives nobody extra time.
        """
        await self.peers.start(self._heard, self.resume)
        self.store.origin = self.peers.origin
        await self._arm_from_store()
        self.timers.start()
        if self._healer is None:  # one round at once (the AI turns a restart left), then every heal_every
            self._healer = asyncio.create_task(self._heal_loop(self.heal_every), name="table-healer")

    async def close(self) -> None:
        """Stop the supervisor, the AI and the timers."""
        if self._healer is not None:
            self._healer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._healer
            self._healer = None
        await self.timers.close()
        await self.autoplay.close()
        await self.peers.close()

    # reading ------------------------------------------------------------------

    async def tables_of(self, user_id: int, *, limit: int = 100, before: str | None = None) -> list[TableInfo]:
        """Unfinished tables where the user has a seat, newest first (a page of ``limit`` after table ``before``)."""
        ids = await self.store.table_ids_of_user(user_id, ("lobby", "playing"), limit, before)
        found = [await self._table(table_id) for table_id in ids]
        return [t.info() for t in found if t.row.status in ("lobby", "playing") and t.seat_of(user_id) is not None]

    async def count_open_tables(self, user_id: int) -> int:
        """How many tables in the lobby or being played the user has a seat at."""
        return await self.store.count_tables_of_user(user_id, ("lobby", "playing"))

    async def tables_in_chat(self, chat_id: int, *statuses: str) -> list[TableInfo]:
        """A chat's tables with these statuses (default: unfinished), newest first."""
        wanted = statuses or ("lobby", "playing")
        ids = await self.store.table_ids_in_chat(chat_id, wanted)
        found = [await self._table(table_id) for table_id in ids]
        return [t.info() for t in found if t.row.status in wanted]

    def subscribe(self, table_id: str | None = None) -> Subscription:
        """Receive updates of one table (or every table)."""
        return self.bus.subscribe(table_id)

    def listen(self, table_id: str, listener: Listener) -> Listening:
        """Have ``listener`` awaited with each update of the table as it is published (see ``engine.service.bus``)."""
        return self.bus.listen(table_id, listener)

    @fresh_on_conflict
    async def set_meta(self, table_id: str, key: str, value: Any) -> None:
        """Remember an adapter's value (a message id, say) with the table."""
        table = await self._table(table_id)
        async with table.lock:
            table.row.meta[key] = value
            await self.store.save_table(table.row, with_seats=False, notice=self._notice(table, "meta"))

    async def get_meta(self, table_id: str, key: str) -> Any:
        """An adapter's value stored with the table, or None."""
        return (await self._table(table_id)).row.meta.get(key)
