"""What the bot must remember about each table's turns beyond what the table says of them.

The table says when each seat's current turn began (``TableInfo.turn_began``), as a seq; the
bot notes when it saw each turn begin (``began_at``: the oldest turn's message goes first, and a
status waits for a turn that lasts). It adds two things of its own: a turn first seen after a
restart keeps the id of the turn message already sent for it (so that message is adopted, not
replaced); a turn an AI stand-in plays (the seat timed out) gets no turn message. Each lasts
only as long as the turn it belongs to. It also notes when it first saw each table being played
(``opened_at``: the deal, or a restart's or take-over's first sight), from which everyone is
given a moment to open the table before a turn message goes. Whether a turn is reminded is read from its deadline
by ``tgbot.turn_plan``, not kept here.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.service.live import TableInfo


def began(info: TableInfo, seat: int) -> int | None:
    """The seq at which the seat's current turn began, as the table says (None: it is not to act)."""
    return info.turn_began[seat] if 0 <= seat < len(info.turn_began) else None


class TurnBook:
    """Per table: the turns the bot has seen begin, adopted turn ids and stand-ins."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._began: dict[str, dict[int, int]] = {}  # table -> seat -> the seq its current turn began at
        self._seen: dict[tuple[str, int], float] = {}  # (table, seat) -> when the bot saw its current turn begin
        self._first_sight: set[tuple[str, int]] = set()  # turns first seen after a restart: adopt a stored message
        self._adopted: dict[tuple[str, int], int] = {}  # (table, seat) -> the id of a turn message sent before
        self._passed: dict[str, set[int]] = {}  # seats whose current turn an AI stand-in plays
        self._opened: dict[str, float] = {}  # table -> when the bot first saw it being played

    def note(self, info: TableInfo) -> None:
        """Follow the table to ``info``: a turn that ended or began anew drops what was noted of it."""
        first = info.id not in self._began
        if info.status == "playing" and info.id not in self._opened:
            self._opened[info.id] = self.clock()
        turns = self._began.setdefault(info.id, {})
        passed = self._passed.setdefault(info.id, set())
        now = {seat: seq for seat, seq in enumerate(info.turn_began) if seq is not None}
        for seat in [s for s in turns if s not in now]:
            del turns[seat]
            passed.discard(seat)
            self._seen.pop((info.id, seat), None)
            self._adopted.pop((info.id, seat), None)
        for seat, seq in now.items():
            if turns.get(seat) == seq:
                continue
            turns[seat] = seq
            self._seen[(info.id, seat)] = self.clock()
            passed.discard(seat)
            self._adopted.pop((info.id, seat), None)
            if first:
                self._first_sight.add((info.id, seat))
            else:
                self._first_sight.discard((info.id, seat))

    def began_at(self, table_id: str, seat: int) -> float | None:
        """When the bot saw the seat's current turn begin (``clock`` time; None: it is not to act)."""
        return self._seen.get((table_id, seat))

    def opened_at(self, table_id: str) -> float | None:
        """When the bot first saw the table being played (``clock`` time; None: not yet)."""
        return self._opened.get(table_id)

    def stood_in(self, table_id: str, seat: int) -> None:
        """The seat timed out: an AI stand-in plays its current turn."""
        self._passed.setdefault(table_id, set()).add(seat)

    def turn_of(self, info: TableInfo, seat: int | None) -> int | None:
        """The id of the seat's current turn, when a person is awaited in it (no AI, autopilot or stand-in)."""
        if seat is None or info.status != "playing":
            return None
        seq = began(info, seat)
        row = info.seats[seat]
        if seq is None or row.is_ai or row.autopilot or seat in self._passed.get(info.id, ()):
            return None
        return self._adopted.get((info.id, seat), seq) if self._began.get(info.id, {}).get(seat) == seq else seq

    def first_sight(self, table_id: str, seat: int) -> bool:
        """Whether the seat's turn was first seen after a restart and not asked about yet (answers yes once)."""
        if (table_id, seat) in self._first_sight:
            self._first_sight.discard((table_id, seat))
            return True
        return False

    def adopt(self, table_id: str, seat: int, turn: int) -> None:
        """The seat's current turn is the one a stored turn message was sent for: it keeps that message's id."""
        if seat in self._began.get(table_id, {}):
            self._adopted[(table_id, seat)] = turn

    def forget(self, table_id: str) -> None:
        """The table is over: nothing of its turns is kept."""
        self._began.pop(table_id, None)
        self._passed.pop(table_id, None)
        self._opened.pop(table_id, None)
        for key in [k for k in self._adopted if k[0] == table_id]:
            del self._adopted[key]
        self._first_sight = {k for k in self._first_sight if k[0] != table_id}
        for key in [k for k in self._seen if k[0] == table_id]:
            del self._seen[key]
