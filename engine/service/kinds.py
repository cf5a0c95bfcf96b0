"""The names a table's life is told in: its status, the kind of each change published, and the end of a game.

Both are ``StrEnum``: they are the very strings the store keeps and the wire carries, so a
status read back from the store, or a kind a subscriber compares with a string, is equal to
its member.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from engine.core.events import Event, public
from engine.core.rules import Outcome


class TableStatus(StrEnum):
    """Where a table is in its life: lobby, then playing, then finished or abandoned."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


OPEN = (TableStatus.LOBBY, TableStatus.PLAYING)  # a table someone may still sit down at or play
OVER = (TableStatus.FINISHED, TableStatus.ABANDONED)  # nothing at stake: the seed may be shown
SEALED_UNTIL = "sealed_until"  # a table's meta: the time before which its seed is shown to nobody, even once over


class UpdateKind(StrEnum):
    """What one published change of a table was (and what other processes are told with it)."""

    LOBBY = "lobby"  # seats or settings of a lobby
    STARTED = "started"
    MOVED = "moved"
    FINISHED = "finished"
    ABANDONED = "abandoned"  # cancelled, left empty, or expired
    SEAT_CHANGED = "seat_changed"  # a seat during play: left to an AI, back from autopilot
    REMINDER = "reminder"
    TIMED_OUT = "timed_out"
    META = "meta"  # an adapter's value kept with the table (told to other processes, never published)
    REMATCH = "rematch"
    CHAT_MOVED = "chat_moved"


def update_kind(text: str) -> UpdateKind:
    """The kind another process named (one this version does not know reads as a seat change: look again)."""
    try:
        return UpdateKind(text)
    except ValueError:
        return UpdateKind.SEAT_CHANGED


def shown_seed(seed: str, meta: Mapping[str, Any], now: float | None = None) -> str | None:
    """The seed of a table that is over, or None while it is sealed: a deal of the day shares its seed with everyone
    playing that day, so its tables show it only once the day has closed (``SEALED_UNTIL``)."""
    until = meta.get(SEALED_UNTIL)
    if isinstance(until, (int, float)) and (time.time() if now is None else now) < until:
        return None
    return seed


def finished_event(outcome: Outcome, seed: str, meta: Mapping[str, Any] | None = None) -> Event:
    """The public event that ends a game: every seat's score and placement, the winners, and the seed revealed
    (unless the table's ``meta`` seals it)."""
    return public({"type": "finished", **outcome.as_dict(), "seed": shown_seed(seed, meta or {})})
