"""Work that comes due by itself: AI turns, turn reminders and expiries, and the supervisor that heals tables.

Autoplay and the turn timers are schedulers: they say when an AI turn or a deadline is
due, and this layer makes the change (``_ai_step``, ``_timer_due``) through the same
path as a person's move. A supervisor round (``heal``) restarts any table whose AI or
deadline was left with nobody acting on it, loaded or not (the store knows ``ai_turn``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace

from engine.core.errors import Refusal
from engine.core.events import public
from engine.service.loading import HEAL_EVERY, log, with_standins
from engine.service.moves import Moves
from engine.service.timers import AUTOPILOT_AFTER, REMINDER_LEAD, Due, remind_time


class DueWork(Moves):
    """AI turns, timers and the supervisor of this process's tables."""

    _healer: asyncio.Task[None] | None
    _scanned_until: float
    _first_round: asyncio.Event
    _resumed: list[Callable[[], None]]  # adapters told when this process is back in touch with the others

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
        await self.catch_up_behind()
        for table in list(self._tables.values()):
            if table.row.status != "playing":
                continue
            if (table.automatic_to_act() and not self.autoplay.is_running(table.id) and not table.lock.locked()
                    and await self.peers.lease(table.id)):
                log.warning("table %s had an AI to act and nobody acting; restarted it", table.id)
                self.autoplay.kick(table.id)
                healed += 1
            if table.row.deadline is not None and self.timers.armed(table.id) is None:
                self._arm(table)
                healed += 1
        after = ""
        while page := await self.store.ai_turn_tables(after):
            for table_id in page:
                if table_id in self._tables or self.autoplay.is_running(table_id):
                    continue
                if await self.peers.lease(table_id):
                    self.autoplay.kick(table_id)
                    healed += 1
            after = page[-1]
        await self._arm_from_store()
        self._evict()
        return healed

    def when_resumed(self, hook: Callable[[], None]) -> None:
        """Call ``hook`` each time this process is back in touch with the others (an adapter's work it let wait)."""
        self._resumed.append(hook)

    async def resume(self) -> None:
        """Back in touch with the other processes after a lost connection: catch up every table in memory (the
        notices sent meanwhile are lost), then drive again the tables nobody drives (their leases were freed)."""
        await self.catch_up_all()
        await self.heal()
        for hook in self._resumed:
            hook()

    async def _heal_loop(self, every: float | None) -> None:
        while True:
            try:
                await self.heal()
            except Exception:
                log.exception("the table supervisor failed")
            self._first_round.set()
            if not every:
                return
            await asyncio.sleep(every)

    async def _arm_from_store(self) -> None:
        """Arm the stored deadlines (and reminders) due within the next scan window, loaded tables or not."""
        until = self.clock() + 2 * (self.heal_every or HEAL_EVERY) + REMINDER_LEAD
        if until <= self._scanned_until:
            return
        for table_id, timer, deadline, reminded in await self.store.deadlines_before(until):
            if table_id not in self._tables:
                remind_at = None if reminded == deadline else remind_time(timer, deadline)
                self.timers.arm(table_id, deadline, remind_at)
        self._scanned_until = until

    async def tick_timers(self) -> None:
        """Handle the reminders and expiries due now (the timer loop does this by itself)."""
        await self._arm_from_store()
        await self.timers.tick()

    async def _ai_step(self, table_id: str) -> bool:
        """One automatic turn at a table (loading it if needed); False once no automatic seat is to act."""
        try:
            table = await self._table(table_id)
        except Refusal:
            return False
        if not await self.peers.lease(table_id):
            return False  # another process drives this table's AI
        async with table.lock:
            waiting = table.automatic_to_act()
            if not waiting:
                return False
            seat = waiting[0]
            row = table.seat_row(seat)
            level = row.ai_level if row.is_ai else "easy"
            view = table.game.view(table.state, seat)
            legal = table.game.legal_actions(table.state, seat)
            seed = f"{table.row.seed}:{table.seq}:{seat}"
            action = await self.autoplay.think(table.game.name, level, view, legal, seed)
            await self._commit_move(table, seat, action, auto=True)
            return bool(table.automatic_to_act())

    async def _timer_due(self, table_id: str, deadline: float, kind: Due) -> None:
        """A reminder or an expiry came due: publish the reminder, or stand in for the people who ran out of time."""
        try:
            table = await self._table(table_id)
        except Refusal:
            return
        if not await self.peers.lease(table_id):
            return  # another process drives this table's timers (if it dies, the supervisor re-arms them here)
        async with table.lock:
            if table.row.deadline != deadline or table.row.status != "playing":
                return
            if kind is Due.REMIND:
                if table.row.meta.get("reminded") != deadline:
                    events = [public({"type": "reminder", "seat": s, "deadline": deadline})
                              for s in table.waiting_people()]
                    row = replace(table.row, meta={**table.row.meta, "reminded": deadline})
                    await self.store.save_table(row, with_seats=False, notice=self._notice(table, "reminder", events))
                    table.row = row
                    await self._publish(table, "reminder", events)
                self.timers.reminded(table_id, deadline)
                return
            events, seats = [], []
            for seat in table.row.seats:
                if seat.seat in table.waiting_people():
                    missed = seat.missed + 1
                    autopilot = seat.autopilot or missed >= AUTOPILOT_AFTER
                    events.append(public({"type": "timed_out", "seat": seat.seat, "name": seat.name}))
                    if autopilot and not seat.autopilot:
                        events.append(public({"type": "autopilot", "seat": seat.seat, "on": True}))
                    seat = replace(seat, missed=missed, autopilot=autopilot)
                seats.append(seat)
            standins = set(table.standins) | set(table.waiting_people())
            row = replace(table.row, deadline=None, ai_turn=True, seats=seats,
                          meta=with_standins(table.row.meta, standins))
            await self.store.save_table(row, notice=self._notice(table, "timed_out", events))
            table.row = row
            self._arm(table)
            await self._publish(table, "timed_out", events)
        self._kick(table)
