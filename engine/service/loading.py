"""The tables a process has in memory: loaded from the store on first use, unloaded when idle, published.

Nothing here grows with the number of tables in the database: a table is loaded (its log
replayed) when someone, its AI or its timer needs it, concurrent loads of one table share
one load, and idle tables beyond ``max_loaded`` are unloaded, least recently used first.
Every change any part makes is published from here, with a snapshot of the table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from engine import games
from engine.core.errors import Refusal, RefusalCode
from engine.core.events import Event
from engine.core.rules import Outcome, replay, replay_after
from engine.core.snapshots import BadSnapshot
from engine.service import ratings
from engine.service.bus import MemoryBus, new_update
from engine.service.kinds import OPEN, TableStatus, UpdateKind, finished_event
from engine.service.live import LiveTable, Snapshot, TableInfo
from engine.service.peers import LocalPeers, Peers
from engine.service.schedule import Schedule
from engine.store.database import StaleRow, Store
from engine.store.json_text import json_text
from engine.store.rows import Finish, TableRow

log = logging.getLogger("engine.service.tables")
MAX_LOADED = 5000  # tables kept in memory; idle ones beyond this are unloaded, least recently used first
FINISH_TRIES = 3  # a game found over on load whose row another process writes meanwhile: stored on the fresh row
SNAPSHOT_EVERY = 256  # moves between two snapshots of a game's state: reviving replays at most this many


def with_standins(meta: Mapping[str, Any], standins: Iterable[int]) -> dict[str, Any]:
    """The table's meta with its stand-ins (seats whose timed-out turn an AI plays) set."""
    seats = sorted(set(standins))
    fresh = {k: v for k, v in meta.items() if k != "standins"}
    if seats:
        fresh["standins"] = seats
    return fresh


def finish_record(row: TableRow, outcome: Outcome, now: float) -> Finish | None:
    """The results and rating update a game finished at ``now`` adds to the record (None for a lesson)."""
    return ratings.finish_record(row, outcome, now)


def notice(table: LiveTable, kind: UpdateKind, events: Iterable[Event] = ()) -> tuple[int, str, str]:
    """What the other processes are told with a row change: the seq, the kind and its public events."""
    shown = [event.data for event in events if event.to is None]
    return table.seq, kind, json_text(shown) if shown else ""


class Tables:
    """The tables of this process in memory: each loaded once when used, unloaded when idle, published."""

    def __init__(
        self,
        store: Store,
        bus: MemoryBus,
        schedule: Schedule,
        *,
        peers: Peers,
        clock: Callable[[], float] = time.time,
        max_loaded: int = MAX_LOADED,
    ) -> None:
        self.store = store
        self.bus = bus
        self.schedule = schedule
        self.peers = peers
        self.clock = clock
        self.max_loaded = max_loaded
        self._tables: dict[str, LiveTable] = {}  # the tables in use, least recently used first
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}

    def all(self) -> list[LiveTable]:
        """The tables this process has in memory now."""
        return list(self._tables.values())

    def ids(self) -> list[str]:
        """The ids of the tables in memory, least recently used first."""
        return list(self._tables)

    def open_snapshots(self) -> list[Snapshot]:
        """The tables in memory that are in the lobby or being played, as they are now."""
        return [table.snapshot() for table in self._tables.values() if table.row.status in OPEN]

    def held(self, table_id: str) -> LiveTable | None:
        """The table if this process has it in memory (no store read)."""
        return self._tables.get(table_id)

    def snapshot(self, table_id: str) -> Snapshot | None:
        """The table as it is now, if this process has it in memory."""
        table = self._tables.get(table_id)
        return table.snapshot() if table is not None else None

    async def loaded(self, table_id: str) -> LiveTable | None:
        """The table once a load of it under way ends (None if none is, or it fails); never starts a load."""
        loading = self._loading.get(table_id)
        if loading is None:
            return None
        try:
            return await asyncio.shield(loading)
        except Exception:
            return None

    def add(self, table: LiveTable) -> None:
        """Keep a table in memory as the most recently used (a new one, or one reloaded under its lock)."""
        self._tables.pop(table.id, None)
        self._tables[table.id] = table
        self.evict()

    async def get(self, table_id: str) -> LiveTable:
        """The table, loaded from the store if it is not in memory (once, however many ask at the same time)."""
        table = self._tables.get(table_id)
        if table is not None:
            self._tables[table_id] = self._tables.pop(table_id)  # most recently used last
            return table
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            raise Refusal(RefusalCode.TABLE_NOT_FOUND)
        loading = self._loading.get(table_id)
        if loading is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[LiveTable] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            row = await self.store.tables.load_table(table_id)
            if row is None:
                raise Refusal(RefusalCode.TABLE_NOT_FOUND)
            table = await self.revive(row)
            self._tables[table_id] = table
            if table.row.status == TableStatus.PLAYING and table.game.outcome(table.state) is not None:
                async with table.lock:
                    await self._finish_revived(table)
            elif table.row.status == TableStatus.PLAYING:
                self.schedule.arm(table)
                self.schedule.kick(table)
            future.set_result(table)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: whoever waits gets it, nobody else needs to
            raise
        finally:
            del self._loading[table_id]
        self.evict()
        return table

    async def revive(self, row: TableRow) -> LiveTable:
        """A table as stored: its state rebuilt from its latest snapshot (if any) and the moves after it."""
        game = games.get(row.game)
        table = LiveTable(row, game, game.parse_options(row.options))
        if row.status not in (TableStatus.PLAYING, TableStatus.FINISHED):
            return table
        found = await self.store.tables.load_snapshot(row.id)
        if found is not None:
            seq, data = found
            try:
                after = await self.store.tables.load_actions(row.id, after=seq)
                table.state = replay_after(game, table.options, row.size, row.seed, data,
                                           [(a.seat, a.action) for a in after])
                table.seq = seq + len(after)
                return table
            except BadSnapshot:
                log.warning("the snapshot of table %s does not fit this version; replaying its whole log", row.id)
        log_entries = await self.store.tables.load_actions(row.id)
        table.state = replay(game, table.options, row.size, row.seed, [(a.seat, a.action) for a in log_entries])
        table.seq = len(log_entries)
        return table

    def evict(self) -> None:
        """Keep memory bounded: unload the least recently used idle tables beyond ``max_loaded``."""
        excess = len(self._tables) - self.max_loaded
        if excess <= 0:
            return
        for table_id, table in list(self._tables.items()):
            if excess <= 0:
                return
            if not self._is_busy(table):
                del self._tables[table_id]  # its deadline stays armed: the table loads again when it comes due
                self._release_later(table_id)
                excess -= 1

    def unload_ended(self, table_id: str) -> None:
        """Unload a table that was cancelled, if nobody follows it now: nothing more happens at it (it loads again
        if asked for), so lobbies opened and cancelled by the thousand do not stay in memory until evicted."""
        table = self._tables.get(table_id)
        if table is not None and table.row.status == TableStatus.ABANDONED and not self._is_busy(table):
            del self._tables[table_id]
            self._release_later(table_id)

    def followed(self, table_id: str) -> bool:
        """Whether someone here follows the table (a socket's room listens to it)."""
        return self.bus.listener_count(table_id) > 0

    def unload_unfollowed(self, table_id: str) -> bool:
        """Unload a table nobody here follows (no socket, no subscriber) and nothing here is doing; whether it was."""
        table = self._tables.get(table_id)
        if table is None or self._is_busy(table) or self.followed(table_id):
            return False
        del self._tables[table_id]
        return True

    def _is_busy(self, table: LiveTable) -> bool:
        return bool(table.lock.locked() or table.standins or self.schedule.is_running(table.id)
                    or self.bus.subscriber_count(table.id))

    async def _finish_revived(self, table: LiveTable) -> None:
        """A game stored before its end was: store the result it implies (an older crash could leave this).

        Another process may write the row meanwhile (finishing it too, as it loads it): the
        result is then stored on the row as stored, or left to the process that stored it.
        """
        outcome = table.game.outcome(table.state)
        assert outcome is not None
        for attempt in range(1, FINISH_TRIES + 1):
            row = replace(table.row, status=TableStatus.FINISHED, deadline=None, ai_turn=False,
                          result=outcome.as_dict())
            try:
                await self.store.tables.save_table(row, with_seats=False, notice=notice(table, UpdateKind.FINISHED),
                                                   finish=finish_record(row, outcome, self.clock()))
                break
            except StaleRow:
                stored = await self.store.tables.load_table(table.id)
                if stored is None or attempt == FINISH_TRIES:
                    raise
                table.row = stored
                if stored.status != TableStatus.PLAYING:
                    return  # the other process finished it
        table.row = row
        log.warning("table %s was over but stored as playing; finished it", table.id)
        await self.publish(table, UpdateKind.FINISHED, [finished_event(outcome, row.seed, row.meta)])

    def _release_later(self, table_id: str) -> None:
        if self.store.is_shared:
            task = asyncio.get_running_loop().create_task(self.peers.release(table_id))
            task.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def publish(self, table: LiveTable, kind: UpdateKind, events: list[Event] | None = None,
                      cause: object | None = None) -> TableInfo:
        """Tell every subscriber what changed at the table, with its snapshot; the table's public summary."""
        snapshot = table.snapshot()
        await self.bus.publish(new_update(table.id, table.seq, kind, tuple(events or ()), snapshot, cause))
        return snapshot.info

    async def info(self, table_id: str) -> TableInfo:
        """The public snapshot of a table."""
        return (await self.get(table_id)).info()

    async def tables_of(self, user_id: int, *, limit: int = 100, before: str | None = None) -> list[TableInfo]:
        """Unfinished tables where the user has a seat, newest first (a page of ``limit`` after table ``before``)."""
        ids = await self.store.tables.table_ids_of_user(user_id, OPEN, limit, before)
        found = [await self.get(table_id) for table_id in ids]
        return [t.info() for t in found if t.row.status in OPEN and t.seat_of(user_id) is not None]

    async def count_open_tables(self, user_id: int) -> int:
        """How many tables in the lobby or being played the user has a seat at."""
        return await self.store.tables.count_tables_of_user(user_id, OPEN)

    async def tables_in_chat(self, chat_id: int, *statuses: str) -> list[TableInfo]:
        """A chat's tables with these statuses (default: unfinished), newest first."""
        wanted = statuses or OPEN
        ids = await self.store.tables.table_ids_in_chat(chat_id, wanted)
        found = [await self.get(table_id) for table_id in ids]
        return [t.info() for t in found if t.row.status in wanted]

    async def view(self, table_id: str, user_id: int | None) -> dict[str, Any]:
        """What a user (None: a spectator) may see: the table and, once dealt, their view of the game."""
        table = await self.get(table_id)
        return table.snapshot().view(table.seat_of(user_id) if user_id is not None else None)


def peers_for(store: Store, url: str | None = None) -> Peers:
    """PostgreSQL's peers for a database other processes may share (``url``: this process's own address), else this
    process alone."""
    if not store.is_shared:
        return LocalPeers()
    from engine.service.pg_peers import PostgresPeers  # loads PostgreSQL's driver: only where it is used

    return PostgresPeers(store.dsn, url)
