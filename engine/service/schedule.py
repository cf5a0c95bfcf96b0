"""What a table's change leaves due: its deadline (and reminder) on the turn timers, and its AI kicked.

Every part that changes a table asks here, after the change, for the row's ``deadline`` and
``ai_turn`` (``due``), arms the timers with what was stored (``arm``) and wakes the AI when an
automatic seat is to act (``kick``). The timers and the AI only say when something is due;
``engine.service.due`` makes the change.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.service.autoplay import Autoplay
from engine.service.kinds import TableStatus
from engine.service.live import LiveTable
from engine.service.timers import TIMERS, TurnTimers, deadline_after, remind_time


class Schedule:
    """A table's deadline and AI turn, as its row should hold them and as the timers and the AI are told."""

    def __init__(self, clock: Callable[[], float], autoplay: Autoplay, timers: TurnTimers) -> None:
        self.clock = clock
        self.autoplay = autoplay
        self.timers = timers

    def due(self, table: LiveTable) -> tuple[float | None, bool]:
        """The deadline and ``ai_turn`` the table's row should hold for the seats to act now."""
        return self.deadline(table), bool(table.automatic_to_act())

    def deadline(self, table: LiveTable) -> float | None:
        """The deadline the table should have now: set while people are awaited at a timed table."""
        if table.row.status != TableStatus.PLAYING or not TIMERS.get(table.row.timer) or not table.waiting_people():
            return None
        return deadline_after(table.row.timer, self.clock())

    def refresh_due(self, table: LiveTable) -> None:
        """Set the row's deadline and ``ai_turn`` for the seats to act now (before the row is saved)."""
        table.row.deadline, table.row.ai_turn = self.due(table)

    def arm(self, table: LiveTable) -> None:
        """Tell the timers the table's stored deadline (and whether its reminder is still to come)."""
        deadline = table.row.deadline if table.row.status == TableStatus.PLAYING else None
        remind_at = None
        if deadline is not None and table.row.meta.get("reminded") != deadline:
            remind_at = remind_time(table.row.timer, deadline)
        self.timers.arm(table.id, deadline, remind_at)

    def kick(self, table: LiveTable) -> None:
        """Wake the table's AI if an automatic seat is to act."""
        if table.automatic_to_act():
            self.autoplay.kick(table.id)

    def forget(self, table_id: str) -> None:
        """Stop the table's AI (the table is over)."""
        self.autoplay.forget(table_id)

    def is_running(self, table_id: str) -> bool:
        """Whether the table's AI is acting now."""
        return self.autoplay.is_running(table_id)
