"""Turn timers: a scheduler that says when a table's reminder or expiry is due.

A table with a timer (``live``: a minute a move, ``relaxed``: a day) has a deadline
whenever a person is to act; shortly before it a reminder is due, and at the deadline
the expiry. The timers hold only times: the table service arms them after every
change and is told what is due through one callback; it alone changes and publishes
the table. Each armed table costs one heap entry, so a move never scans every table.

``tick()`` hands over everything due at ``clock()``; the background loop calls it when
the earliest time comes, and tests with an injected clock call it directly. A callback
that fails (a database error, say) is retried with a growing back-off, never dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum

log = logging.getLogger(__name__)
TIMERS: dict[str, float | None] = {"none": None, "live": 60.0, "relaxed": 24 * 3600.0}
AUTOPILOT_AFTER = 2
REMINDER_SHARE = 0.2  # remind when a fifth of the time is left: the one reminder moment, the bot's included
REMINDER_LEAD = max(d or 0.0 for d in TIMERS.values()) * REMINDER_SHARE  # the earliest a reminder comes
RETRY_FIRST, RETRY_MAX = 0.5, 30.0


class Due(StrEnum):
    """What comes due at a table."""

    REMIND = "remind"
    EXPIRE = "expire"


@dataclass(frozen=True, slots=True)
class Armed:
    """A table's deadline and whether its reminder is still to come."""

    deadline: float
    remind_at: float | None


def deadline_after(timer: str, now: float) -> float | None:
    """The deadline of a turn starting ``now`` under ``timer``, or None for untimed tables."""
    duration = TIMERS.get(timer)
    return now + duration if duration else None


def remind_time(timer: str, deadline: float) -> float:
    """When the reminder of a turn ending at ``deadline`` is due."""
    return deadline - (TIMERS.get(timer) or 0.0) * REMINDER_SHARE


OnDue = Callable[[str, float, Due], Awaitable[None]]


class TurnTimers:
    """A heap of due times per table; calls ``on_due(table_id, deadline, kind)`` when each comes."""

    def __init__(self, clock: Callable[[], float], on_due: OnDue, *, run_loop: bool = True) -> None:
        self.clock = clock
        self.on_due = on_due
        self.run_loop = run_loop
        self._armed: dict[str, Armed] = {}
        self._heap: list[tuple[float, str, float, Due]] = []  # (when, table, deadline, kind); stale ones skipped
        self._failures: dict[tuple[str, float, Due], int] = {}
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

    def arm(self, table_id: str, deadline: float | None, remind_at: float | None) -> None:
        """Set (or with None clear) a table's deadline and the reminder before it."""
        current = self._armed.get(table_id)
        if deadline is None:
            if current is not None:
                del self._armed[table_id]
            return
        armed = Armed(deadline, remind_at)
        if armed == current:
            return
        self._armed[table_id] = armed
        if remind_at is not None:
            self._push(remind_at, table_id, deadline, Due.REMIND)
        self._push(deadline, table_id, deadline, Due.EXPIRE)

    def reminded(self, table_id: str, deadline: float) -> None:
        """The reminder before ``deadline`` was handled."""
        current = self._armed.get(table_id)
        if current is not None and current.deadline == deadline:
            self._armed[table_id] = Armed(deadline, None)

    def armed(self, table_id: str) -> Armed | None:
        """What is armed at a table."""
        return self._armed.get(table_id)

    def next_due(self) -> float | None:
        """The earliest time anything is due, or None."""
        self._drop_stale()
        return self._heap[0][0] if self._heap else None

    async def tick(self) -> None:
        """Hand over everything due now, oldest first."""
        now = self.clock()
        while True:
            self._drop_stale()
            if not self._heap or self._heap[0][0] > now:
                return
            _, table_id, deadline, kind = heapq.heappop(self._heap)
            if kind is Due.EXPIRE:
                self._armed.pop(table_id, None)
            await self._hand_over(table_id, deadline, kind)

    async def _hand_over(self, table_id: str, deadline: float, kind: Due) -> None:
        key = (table_id, deadline, kind)
        try:
            await self.on_due(table_id, deadline, kind)
        except Exception:
            failures = self._failures[key] = self._failures.get(key, 0) + 1
            retry = min(RETRY_MAX, RETRY_FIRST * 2 ** (failures - 1))
            log.exception("turn timer of table %s failed (%s); retrying in %.1f s", table_id, kind, retry,
                          extra={"table_id": table_id})
            if kind is Due.EXPIRE:
                self._armed.setdefault(table_id, Armed(deadline, None))
            self._push(self.clock() + retry, table_id, deadline, kind)
            return
        self._failures.pop(key, None)

    def _push(self, when: float, table_id: str, deadline: float, kind: Due) -> None:
        heapq.heappush(self._heap, (when, table_id, deadline, kind))
        self._wake.set()

    def _drop_stale(self) -> None:
        while self._heap:
            _, table_id, deadline, kind = self._heap[0]
            armed = self._armed.get(table_id)
            if armed is not None and armed.deadline == deadline and (kind is Due.EXPIRE or armed.remind_at is not None):
                return
            heapq.heappop(self._heap)

    async def _loop(self) -> None:
        while True:
            due = self.next_due()
            delay = None if due is None else max(0.0, due - self.clock())
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)
            await self.tick()
