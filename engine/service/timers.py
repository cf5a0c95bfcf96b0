"""Turn timers: a game never waits forever for an absent player.

A table with a timer (``live``: a minute a move, ``relaxed``: a day) has a deadline
whenever a person is to act. Shortly before it the table publishes a ``reminder``;
when it passes, an AI stands in for that turn and the table says so (``timed_out``).
After ``AUTOPILOT_AFTER`` expiries in a row the seat goes on autopilot until its
owner acts again. Deadlines are stored with the table and re-armed after a restart.

``tick()`` handles everything due at ``clock()``; the background loop calls it when
the earliest deadline comes, and tests with an injected clock call it directly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from engine.core.events import public
from engine.service.bus import Update
from engine.service.live import TIMERS

if TYPE_CHECKING:
    from engine.service.live import LiveTable
    from engine.service.tables import TableService

log = logging.getLogger(__name__)
AUTOPILOT_AFTER = 2
REMINDER_SHARE = 0.25  # remind when a quarter of the time is left


class TurnTimers:
    """Arms, reminds and expires the turn deadlines of a service's tables."""

    def __init__(self, service: TableService, *, run_loop: bool = True) -> None:
        self.service = service
        self.run_loop = run_loop
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the background loop (unless tests drive ``tick`` themselves)."""
        if self.run_loop and self._task is None:
            self._task = asyncio.create_task(self._loop(), name="turn-timers")

    async def close(self) -> None:
        """Stop the background loop."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    @staticmethod
    def waiting_people(table: LiveTable) -> list[int]:
        """People (not AI, not on autopilot, not already stood in for) whose move the table awaits."""
        seats = table.row.seats
        return [s for s in sorted(table.to_act())
                if not seats[s].is_ai and not seats[s].autopilot and s not in table.standins]

    async def arm(self, table: LiveTable) -> None:
        """Set (or clear) the table's deadline after a change; the caller holds its lock."""
        duration = TIMERS.get(table.row.timer)
        deadline = None
        if duration and table.row.status == "playing" and self.waiting_people(table):
            deadline = self.service.clock() + duration
        if deadline != table.row.deadline:
            table.row.deadline = deadline
            table.row.meta.pop("reminded", None)
            await self.service.store.save_table(table.row, with_seats=False)
        self._wake.set()

    async def tick(self) -> None:
        """Send the reminders and expire the deadlines that are due now."""
        now = self.service.clock()
        for table in list(self.service.tables()):
            deadline = table.row.deadline
            if deadline is None or table.row.status != "playing":
                continue
            duration = TIMERS.get(table.row.timer) or 0.0
            if now >= deadline:
                await self._expire(table)
            elif now >= deadline - duration * REMINDER_SHARE and table.row.meta.get("reminded") != deadline:
                await self._remind(table, deadline)

    def next_due(self) -> float | None:
        """The earliest time anything is due, or None."""
        times = []
        for table in self.service.tables():
            deadline = table.row.deadline
            if deadline is None or table.row.status != "playing":
                continue
            duration = TIMERS.get(table.row.timer) or 0.0
            if table.row.meta.get("reminded") != deadline:
                times.append(deadline - duration * REMINDER_SHARE)
            times.append(deadline)
        return min(times) if times else None

    async def _remind(self, table: LiveTable, deadline: float) -> None:
        async with table.lock:
            if table.row.deadline != deadline:
                return
            table.row.meta["reminded"] = deadline
            await self.service.store.save_table(table.row, with_seats=False)
            events = [public({"type": "reminder", "seat": s, "deadline": deadline}) for s in self.waiting_people(table)]
            self.service.bus.publish(Update(table.id, table.seq, "reminder", tuple(events), table.info()))

    async def _expire(self, table: LiveTable) -> None:
        async with table.lock:
            deadline = table.row.deadline
            if deadline is None or self.service.clock() < deadline or table.row.status != "playing":
                return
            events = []
            for seat in self.waiting_people(table):
                row = table.seat_row(seat)
                row.missed += 1
                table.standins.add(seat)
                events.append(public({"type": "timed_out", "seat": seat, "name": row.name}))
                if row.missed >= AUTOPILOT_AFTER and not row.autopilot:
                    row.autopilot = True
                    events.append(public({"type": "autopilot", "seat": seat, "on": True}))
            table.row.deadline = None
            await self.service.store.save_table(table.row)
            self.service.bus.publish(Update(table.id, table.seq, "timed_out", tuple(events), table.info()))
        self.service.autoplay.kick(table)

    async def _loop(self) -> None:
        while True:
            due = self.next_due()
            delay = None if due is None else max(0.0, due - self.service.clock())
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)
            try:
                await self.tick()
            except Exception:
                log.exception("turn timers failed")
