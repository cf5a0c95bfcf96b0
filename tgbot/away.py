"""Whether a person is away from a table: the service's presence read against the bot's turns and the deal.

The rule itself is ``tgbot.turn_plan.is_away``; this part gathers what it needs (whether a
page of theirs is in front of them, when they left, how long their turn has lasted).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.service.live import TableInfo
from engine.service.presence import Presence
from tgbot.turn_book import TurnBook
from tgbot.turn_plan import is_away, is_opening

AWAY_GRACE = 3.0  # seconds a person may leave the table mid-turn before their turn message goes


class Away:
    """Answers "is this person away from this table?" for turn messages and the table's status."""

    def __init__(self, presence: Presence, turns: TurnBook, *, grace: float = AWAY_GRACE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.presence = presence
        self.turns = turns
        self.grace = grace
        self.clock = clock  # the turn book's clock

    def is_away(self, info: TableInfo, user_id: int) -> bool:
        """Whether the person is away from the table (no page of theirs in front of them, long enough)."""
        present = self.presence.is_present(info.id, user_id)
        left = None if present else self.presence.left_at(info.id, user_id)
        seat = info.seat_of(user_id)
        began = self.turns.began_at(info.id, seat) if seat is not None else None
        return is_away(present=present, left_at=left, now=self.presence.clock(), grace=self.grace,
                       turn_age=None if began is None else self.clock() - began, opened_age=self._opened_age(info.id))

    def away_for(self, info: TableInfo, user_id: int) -> float | None:
        """Seconds the person has been away from the table on their current turn (None: not away, or no turn)."""
        seat = info.seat_of(user_id)
        began = self.turns.began_at(info.id, seat) if seat is not None else None
        if began is None or not self.is_away(info, user_id):
            return None
        turn_age = self.clock() - began
        left = self.presence.left_at(info.id, user_id)
        return turn_age if left is None else min(turn_age, self.presence.clock() - left)

    def is_opening(self, info: TableInfo, user_id: int) -> bool:
        """Whether the person, not at the table, is still given a moment to open it (after the deal or a restart)."""
        return is_opening(present=self.presence.is_present(info.id, user_id), opened_age=self._opened_age(info.id),
                          grace=self.grace)

    def opens_in(self, table_id: str) -> float | None:
        """Seconds until the moment given to open the table is over (None: it is over, or not begun)."""
        age = self._opened_age(table_id)
        return None if age is None or age >= self.grace else self.grace - age

    def _opened_age(self, table_id: str) -> float | None:
        opened = self.turns.opened_at(table_id)
        return None if opened is None else self.clock() - opened
