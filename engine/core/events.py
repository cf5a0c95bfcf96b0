"""Events: what happened, each naming who may see it, and the per-seat filter.

An event is public, or private to some seats. Everyone else gets its shadow, a
public placeholder ("seat 2 received cards"), so each seat sees one entry per event
and sequence numbers never have gaps.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened; ``to`` is None for public, else the seats that may see ``data``."""

    data: JSON
    to: frozenset[int] | None = None
    shadow: JSON | None = None

    def for_seat(self, seat: int | None) -> JSON:
        """What ``seat`` (None: a spectator) may see of this event."""
        if self.to is None or (seat is not None and seat in self.to):
            return self.data
        if self.shadow is not None:
            return self.shadow
        return {"type": "hidden", "kind": self.data.get("type", "event")}


def public(data: JSON) -> Event:
    """An event everyone may see."""
    return Event(data)


def private(seats: Iterable[int], data: JSON, shadow: JSON | None = None) -> Event:
    """An event only ``seats`` may see; the others get ``shadow``."""
    return Event(data, frozenset(seats), shadow)


def for_seat(events: Iterable[Event], seat: int | None) -> list[JSON]:
    """What ``seat`` (None: a spectator) may see of each event, in order."""
    return [event.for_seat(seat) for event in events]


def dealt(seat: int, cards: list[str], **head: Any) -> Event:
    """A seat's new hand: the cards for that seat, their count for everyone else."""
    data = {"type": "dealt", **head, "seat": seat}
    return private((seat,), {**data, "cards": cards}, {**data, "count": len(cards)})
