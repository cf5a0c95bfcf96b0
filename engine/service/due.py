"""Work that comes due by itself: AI turns, turn reminders and expiries, and the supervisor that heals tables.

Autoplay and the turn timers are schedulers: they say when an AI turn or a deadline is
due, and this part makes the change (``ai_step``, ``timer_due``) through the same path
as a person's move. A supervisor round (``heal``) restarts any table whose AI or
deadline was left with nobody acting on it, loaded or not (the store knows ``ai_turn``).
On a database other processes share, a watch checks the loaded tables against the store
every ``WATCH_EVERY`` seconds (``Sharing.check``, one query), so a table whose change
notice was lost is caught up, and its sockets with it, within seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import replace

from engine.core.errors import Refusal, RefusalCode
from engine.core.events import public
from engine.core.rules import remembering_view
from engine.service.kinds import OPEN, TableStatus, UpdateKind
from engine.service.live import LiveTable
from engine.service.loading import Tables, log, notice, with_standins
from engine.service.moves import Moves
from engine.service.peers import Peers
from engine.service.reach import is_unreachable
from engine.service.schedule import Schedule
from engine.service.sharing import CONFLICT_TRIES, WATCH_EVERY, Sharing
from engine.service.timers import AUTOPILOT_AFTER, REMINDER_LEAD, Due, remind_time
from engine.store.database import StaleRow, Store

HEAL_EVERY = 10.0  # seconds between the supervisor's rounds


class DueWork:
    """AI turns, timers and the supervisor of this process's tables."""

    def __init__(self, store: Store, tables: Tables, sharing: Sharing, moves: Moves, schedule: Schedule, *,
                 peers: Peers, clock: Callable[[], float] = time.time, heal_every: float | None = HEAL_EVERY,
                 watch_every: float | None = WATCH_EVERY) -> None:
        self.store = store
        self.tables = tables
        self.sharing = sharing
        self.moves = moves
        self.schedule = schedule
        self.autoplay = schedule.autoplay
        self.timers = schedule.timers
        self.peers = peers
        self.clock = clock
        self.heal_every = heal_every
        self.watch_every = watch_every  # seconds between checks against the store, on a shared database
        self._healer: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._first_round = asyncio.Event()
        self._scanned_until = 0.0  # deadlines up to here are armed
        self._resumed: list[Callable[[], None]] = []  # adapters told when this process is back in touch

    async def start(self) -> None:
        """Arm the deadlines due soon, start the timers, and run the supervisor: one round now, then every
        ``heal_every`` seconds (the first round resumes the AI turns a restart left)."""
        await self.arm_from_store()
        self.timers.start()
        if self._healer is None:
            self._healer = asyncio.create_task(self._heal_loop(self.heal_every), name="table-healer")
        if self._watcher is None and self.store.is_shared and self.watch_every:
            self._watcher = asyncio.create_task(self._watch_loop(self.watch_every), name="table-watch")

    async def close(self) -> None:
        """Stop the supervisor, the watch, the timers and the AI."""
        for task in (self._healer, self._watcher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._healer = self._watcher = None
        await self.timers.close()
        await self.autoplay.close()

    async def idle(self) -> None:
        """Wait until the first supervisor round has run and no AI seat anywhere is about to move."""
        if self._healer is not None:
            await self._first_round.wait()
        await self.autoplay.idle()

    async def heal(self) -> int:
        """Restart the AI of any table whose automatic seat is to act with nobody acting; re-arm lost deadlines.

        Loaded tables are checked in memory; tables not loaded are found in the store
        (``ai_turn``), so an AI turn left by a crash or a restart is resumed too.
        """
        healed = 0
        await self.sharing.catch_up_behind()
        for table in self.tables.all():
            if table.row.status != TableStatus.PLAYING:
                continue
            if (table.automatic_to_act() and not self.autoplay.is_running(table.id) and not table.lock.locked()
                    and await self.peers.lease(table.id)):
                log.warning("table %s had an AI to act and nobody acting; restarted it", table.id)
                self.autoplay.kick(table.id)
                healed += 1
            if table.row.deadline is not None and self.timers.armed(table.id) is None:
                self.schedule.arm(table)
                healed += 1
        healed += await self._drive_followed()
        after = ""
        while page := await self.store.tables.ai_turn_tables(after):
            for table_id in page:
                if self.tables.held(table_id) is not None or self.autoplay.is_running(table_id):
                    continue
                if await self.peers.lease(table_id):
                    self.autoplay.kick(table_id)
                    healed += 1
            after = page[-1]
        await self.arm_from_store()
        self.tables.evict()
        return healed

    async def _drive_followed(self) -> int:
        """Drive the open tables people follow here that nobody drives (their owner went while a socket came here, its
        lease still held): their lobby and status go on being told. How many this process took."""
        taken = 0
        for table in self.tables.all():
            if (table.row.status in OPEN and self.tables.followed(table.id) and not self.peers.holds(table.id)
                    and await self.peers.lease(table.id)):
                log.info("table %s, followed here, had nobody driving it; driving it now", table.id)
                taken += 1
        return taken

    def when_resumed(self, hook: Callable[[], None]) -> None:
        """Call ``hook`` each time this process is back in touch with the others (an adapter's work it let wait)."""
        self._resumed.append(hook)

    async def resume(self) -> None:
        """Back in touch with the other processes after a lost connection: catch up every table in memory (the
        notices sent meanwhile are lost), then drive again the tables nobody drives (their leases were freed)."""
        await self.sharing.catch_up_all()
        await self.heal()
        for hook in self._resumed:
            hook()

    async def _heal_loop(self, every: float | None) -> None:
        while True:
            try:
                await self.heal()
            except Exception as error:
                if not is_unreachable(error):
                    log.exception("the table supervisor failed")
                else:  # not a fault: the next round heals what this one could not
                    log.warning("the table supervisor could not reach the database (%s: %s); trying again in %.0f s",
                                type(error).__name__, error, every or 0)
            self._first_round.set()
            if not every:
                return
            await asyncio.sleep(every)

    async def _watch_loop(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.sharing.check()
            except Exception as error:  # the database out of reach, say: the next check tries again
                log.warning("checking the loaded tables against the store failed (%s: %s); trying again in %.0f s",
                            type(error).__name__, error, every)

    async def arm_from_store(self) -> None:
        """Arm the stored deadlines (and reminders) due within the next scan window, loaded tables or not."""
        until = self.clock() + 2 * (self.heal_every or HEAL_EVERY) + REMINDER_LEAD
        if until <= self._scanned_until:
            return
        for table_id, timer, deadline, reminded in await self.store.tables.deadlines_before(until):
            if self.tables.held(table_id) is None:
                remind_at = None if reminded == deadline else remind_time(timer, deadline)
                self.timers.arm(table_id, deadline, remind_at)
        self._scanned_until = until

    async def tick_timers(self) -> None:
        """Handle the reminders and expiries due now (the timer loop does this by itself)."""
        await self.arm_from_store()
        await self.timers.tick()

    async def ai_step(self, table_id: str) -> bool:
        """One automatic turn at a table (loading it if needed); False once no automatic seat is to act.

        A move that meets another process's write was refused and the table caught up from the
        store (``Moves.commit``): the turn is decided again on what is stored, or given up when
        someone else took it.
        """
        try:
            table = await self.tables.get(table_id)
        except Refusal:
            return False
        if not await self.peers.lease(table_id):
            return False  # another process drives this table's AI
        async with table.lock:
            for attempt in range(1, CONFLICT_TRIES + 1):
                waiting = table.automatic_to_act()
                if not waiting:
                    return False
                seat = waiting[0]
                row = table.seat_row(seat)
                level = row.ai_level if row.is_ai else "easy"
                view = remembering_view(table.game, table.state, seat)
                legal = table.game.legal_actions(table.state, seat)
                seed = f"{table.row.seed}:{table.seq}:{seat}"
                action = await self.autoplay.think(table.game.name, level, view, legal, seed)
                try:
                    await self.moves.commit(table, seat, action, auto=True)
                except Refusal as refusal:
                    if refusal.code != RefusalCode.STALE or attempt == CONFLICT_TRIES:
                        raise
                    if not await self.peers.lease(table_id):
                        return False  # another process wrote it because it drives the table now (this one was silent)
                    continue
                break
            return bool(table.automatic_to_act())

    async def timer_due(self, table_id: str, deadline: float, kind: Due) -> None:
        """A reminder or an expiry came due: publish the reminder, or stand in for the people who ran out of time.

        A write that meets another process's (``StaleRow``) is never tried again as it was: the
        table is caught up from the store and the turn decided again, since the deadline may
        have moved, or the turn been taken or stood in for by that other process.
        """
        try:
            table = await self.tables.get(table_id)
        except Refusal:
            return
        if not await self.peers.lease(table_id):
            return  # another process drives this table's timers (if it dies, the supervisor re-arms them here)
        async with table.lock:
            for attempt in range(1, CONFLICT_TRIES + 1):
                if table.row.deadline != deadline or table.row.status != TableStatus.PLAYING:
                    break  # moved on: its new deadline (if any) is armed, and the timers drop this one
                try:
                    if kind is Due.REMIND:
                        await self._remind(table, deadline)
                    else:
                        await self._expire(table)
                    break
                except StaleRow:
                    if attempt == CONFLICT_TRIES:
                        raise
                    if not await self.peers.lease(table_id):
                        return  # another process drives the table now (this one was silent): its timers are its own
                    await self.sharing.reload(table)  # what is stored, with what the other process did published
                    self.schedule.arm(table)
            if kind is Due.REMIND and table.row.deadline == deadline:
                self.timers.reminded(table_id, deadline)
        self.schedule.kick(table)

    async def _remind(self, table: LiveTable, deadline: float) -> None:
        """Tell the people awaited that their time runs out at ``deadline`` (once); the lock is held."""
        if table.row.meta.get("reminded") == deadline:
            return
        events = [public({"type": "reminder", "seat": s, "deadline": deadline}) for s in table.waiting_people()]
        row = replace(table.row, meta={**table.row.meta, "reminded": deadline})
        await self.store.tables.save_table(row, with_seats=False, notice=notice(table, UpdateKind.REMINDER, events))
        table.row = row
        await self.tables.publish(table, UpdateKind.REMINDER, events)

    async def _expire(self, table: LiveTable) -> None:
        """Stand in for the people whose time ran out, counting the turns they missed; the lock is held."""
        events, seats = [], []
        waiting = table.waiting_people()
        for seat in table.row.seats:
            if seat.seat in waiting:
                missed = seat.missed + 1
                autopilot = seat.autopilot or missed >= AUTOPILOT_AFTER
                events.append(public({"type": "timed_out", "seat": seat.seat, "name": seat.name}))
                if autopilot and not seat.autopilot:
                    events.append(public({"type": "autopilot", "seat": seat.seat, "on": True}))
                seat = replace(seat, missed=missed, autopilot=autopilot)
            seats.append(seat)
        standins = set(table.standins) | set(waiting)
        row = replace(table.row, deadline=None, ai_turn=True, seats=seats, meta=with_standins(table.row.meta, standins))
        await self.store.tables.save_table(row, notice=notice(table, UpdateKind.TIMED_OUT, events))
        table.row = row
        self.schedule.arm(table)
        await self.tables.publish(table, UpdateKind.TIMED_OUT, events)
