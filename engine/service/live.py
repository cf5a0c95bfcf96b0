"""One live table in memory (its stored row, its game state, its lock), its public summary and its snapshot."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from engine.core.errors import Refusal, RefusalCode
from engine.core.records import builder
from engine.core.rules import Game, joined_view
from engine.service.kinds import OVER, TableStatus, shown_seed
from engine.store.rows import SeatRow, TableRow

NOBODY: frozenset[int] = frozenset()
_REFUSED_WHEN = {  # what a change refused for the table's status says
    TableStatus.LOBBY: RefusalCode.NOT_STARTED,
    TableStatus.PLAYING: RefusalCode.ALREADY_STARTED,
    TableStatus.FINISHED: RefusalCode.GAME_OVER,
    TableStatus.ABANDONED: RefusalCode.ABANDONED,
}


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat, as everyone may see it."""

    seat: int
    name: str
    user_id: int | None
    is_ai: bool
    autopilot: bool

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"seat": self.seat, "name": self.name, "user_id": self.user_id, "is_ai": self.is_ai,
                "autopilot": self.autopilot}


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table as everyone may see it: never the seed before the game is over."""

    id: str
    game: str
    title: str
    options: dict[str, Any]
    size: int
    status: str  # a TableStatus (as the store holds it)
    host_user_id: int
    chat_id: int | None
    seats: tuple[SeatInfo, ...]
    seq: int
    seed_hash: str
    seed: str | None
    timer: str
    deadline: float | None
    to_act: tuple[int, ...]
    result: dict[str, Any] | None
    ai_level: str  # the level of the AI players the lobby seats (engine.service.table_settings.AI_LEVELS)
    lesson: bool = False  # a guided first game: practice, never on record
    rematch: str | None = None  # a finished table's rematch, once one is opened
    rematch_of: str | None = None  # the finished table this lobby is the rematch of
    turn_began: tuple[int | None, ...] = ()  # per seat, the seq its current turn began at (None: not to act)
    daily: str | None = None  # the day (YYYY-MM-DD) of a deal of the day's table: played once, ends in its result

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat a user sits in, or None."""
        for s in self.seats:
            if user_id is not None and s.user_id == user_id:
                return s.seat
        return None

    @property
    def free_seats(self) -> int:
        """How many seats nobody has taken yet."""
        return sum(1 for s in self.seats if s.user_id is None and not s.is_ai)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "id": self.id, "game": self.game, "title": self.title, "options": self.options, "size": self.size,
            "status": self.status, "host_user_id": self.host_user_id, "chat_id": self.chat_id,
            "seats": [s.as_dict() for s in self.seats], "seq": self.seq, "seed_hash": self.seed_hash,
            "seed": self.seed, "timer": self.timer, "deadline": self.deadline, "to_act": list(self.to_act),
            "result": self.result, "ai_level": self.ai_level, "lesson": self.lesson, "rematch": self.rematch,
            "rematch_of": self.rematch_of, "turn_began": list(self.turn_began), "daily": self.daily,
        }


_SEAT_KEY = attrgetter("seat", "name", "user_id", "is_ai", "autopilot")  # a seat as SeatInfo reads it, in order
_table_info = builder(TableInfo)  # every update builds one: three times faster than TableInfo(...)


@dataclass(eq=False)
class LiveTable:
    """A table being served: the stored row, the current state, and its lock."""

    row: TableRow
    game: Game[Any]
    options: Any
    state: Any = None
    seq: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _seats_seen: tuple[tuple[tuple[Any, ...], ...], tuple[SeatInfo, ...]] | None = field(default=None, repr=False)
    _turns: dict[int, int] = field(default_factory=dict, repr=False)  # seat to act: the seq its turn began at
    _turns_seen: tuple[int, frozenset[int]] | None = field(default=None, repr=False)  # (seq, to_act) last noted

    @property
    def standins(self) -> frozenset[int]:
        """People whose timed-out turn an AI is playing (kept in the row, so a restart or another process knows)."""
        found = self.row.meta.get("standins")
        return frozenset(found) if found else NOBODY

    @property
    def id(self) -> str:
        """The table id."""
        return self.row.id

    def seat_row(self, seat: int) -> SeatRow:
        """The stored seat."""
        return self.row.seats[seat]

    def seat_of(self, user_id: int) -> int | None:
        """The seat a user sits in, or None."""
        for s in self.row.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def require_seat(self, user_id: int) -> int:
        """The user's seat; raises Refusal("not_seated")."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise Refusal(RefusalCode.NOT_SEATED)
        return seat

    def require_host(self, user_id: int) -> None:
        """Raise Refusal("not_host") unless the user hosts this table."""
        if user_id != self.row.host_user_id:
            raise Refusal(RefusalCode.NOT_HOST)

    def require_status(self, *statuses: str) -> None:
        """Raise a refusal naming the table's status unless it is one of ``statuses``."""
        status = self.row.status
        if status in statuses:
            return
        raise Refusal(_REFUSED_WHEN[TableStatus(status)])

    def to_act(self) -> frozenset[int]:
        """Seats that may act now."""
        if self.row.status != TableStatus.PLAYING or self.state is None:
            return frozenset()
        return self.game.to_act(self.state)

    def automatic_to_act(self) -> list[int]:
        """Seats to act now whose move an AI makes: AI players, people on autopilot, stand-ins for a timed-out turn."""
        seats, standins = self.row.seats, self.standins
        return [s for s in sorted(self.to_act()) if seats[s].is_ai or seats[s].autopilot or s in standins]

    def waiting_people(self) -> list[int]:
        """People (not AI, not on autopilot, not already stood in for) whose move the table awaits."""
        seats, standins = self.row.seats, self.standins
        return [s for s in sorted(self.to_act())
                if not seats[s].is_ai and not seats[s].autopilot and s not in standins]

    def snapshot(self) -> Snapshot:
        """The table as it is now, for everyone who renders it."""
        return Snapshot(self.info(), self.game, self.state)

    def turn_began(self, acting: frozenset[int] | None = None) -> tuple[int | None, ...]:
        """Per seat, the seq at which its current turn began (None for seats not to act).

        A seat's turn begins when it comes to act, or, in games where every action is a turn
        (not ``multi_action_turns``), when it acts again straight after its own move. A table
        first seen mid-turn (loaded from the store) dates its turns from the seq it was loaded at.
        """
        acting = self.to_act() if acting is None else acting
        seq, seen, turns = self.seq, self._turns_seen, self._turns
        if seen != (seq, acting):
            for seat in [s for s in turns if s not in acting]:
                del turns[seat]
            alone = None  # the one seat that was to act before this move, if it may act again as a new turn
            if seen is not None and seq > seen[0] and len(seen[1]) == 1 and not self.game.multi_action_turns:
                (alone,) = seen[1]
            for seat in acting:
                if seat not in turns or seat == alone:
                    turns[seat] = seq
            self._turns_seen = seq, acting
        return tuple(turns.get(seat) for seat in range(self.row.size))

    def info(self) -> TableInfo:
        """The public snapshot."""
        row = self.row
        revealed = row.status in OVER  # the deals can be checked once nothing is at stake
        meta, acting = row.meta, self.to_act()
        return _table_info(
            id=row.id, game=row.game, title=self.game.title, options=dict(row.options), size=row.size,
            status=row.status, host_user_id=row.host_user_id, chat_id=row.chat_id, seats=self._seat_infos(),
            seq=self.seq, seed_hash=row.seed_hash, seed=shown_seed(row.seed, meta) if revealed else None,
            timer=row.timer, deadline=row.deadline, to_act=tuple(sorted(acting)), result=row.result,
            ai_level=meta.get("ai_level", "easy"), lesson=bool(meta.get("lesson")), rematch=meta.get("rematch"),
            rematch_of=meta.get("rematch_of"), turn_began=self.turn_began(acting), daily=meta.get("daily"),
        )

    def _seat_infos(self) -> tuple[SeatInfo, ...]:
        """The seats as everyone may see them; the last ones built are reused while the seats read the same."""
        key = tuple(map(_SEAT_KEY, self.row.seats))
        if self._seats_seen is None or self._seats_seen[0] != key:
            self._seats_seen = key, tuple(SeatInfo(*k) for k in key)
        return self._seats_seen[1]


@dataclass(eq=False, slots=True)
class Snapshot:
    """A table at one ``seq``: its summary and state, so subscribers render views without asking the service.

    Game states are immutable, so a snapshot stays true after the table moves on; each
    seat's view is built once and shared by every socket and message of that seat.
    """

    info: TableInfo
    game: Game[Any]
    state: Any
    _table: dict[str, Any] | None = None
    _views: dict[int | None, dict[str, Any]] | None = None  # made when first asked: sockets ask UpdateTexts
    _states: dict[int | None, dict[str, Any] | None] | None = None
    _public: dict[str, Any] | None = None

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see: the table and, once dealt, its view of the game."""
        views = self._views
        if views is None:
            views = self._views = {}
        found = views.get(seat)
        if found is None:
            if self._table is None:
                self._table = self.info.as_dict()
            found = views[seat] = {
                "table": self._table, "seq": self.info.seq, "you": seat, "state": self.state_view(seat),
            }
        return found

    def public_state(self) -> dict[str, Any] | None:
        """The game's public half (a spectator's whole view of it), built once; None before the deal."""
        if self._public is None and self.state is not None:
            self._public = self.game.public_view(self.state)
        return self._public

    def state_view(self, seat: int | None) -> dict[str, Any] | None:
        """The game as ``seat`` may see it (None before the deal), built once per seat and shared.

        Its public half is built once for every seat (``Game.public_view``); each seat adds only its own.
        """
        states = self._states
        if states is None:
            states = self._states = {}
        if seat in states:
            return states[seat]
        found = None
        public = self.public_state()
        if public is not None:
            found = joined_view(public, None if seat is None else self.game.own_view(self.state, seat))
        states[seat] = found
        return found
