"""The store's rows as the service sees them: a table, its seats, one logged move."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class SeatRow:
    """A seat as stored."""

    seat: int
    name: str
    user_id: int | None = None
    is_ai: bool = False
    ai_level: str = "easy"
    autopilot: bool = False
    missed: int = 0


@dataclass(slots=True)
class TableRow:
    """A table as stored (its moves live in the log)."""

    id: str
    game: str
    options: dict[str, Any]
    size: int
    status: str
    host_user_id: int
    chat_id: int | None
    seed: str
    seed_hash: str
    timer: str = "none"
    deadline: float | None = None
    ai_turn: bool = False  # an AI, a person on autopilot or a stand-in is to act: work a restart must resume
    meta: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    seats: list[SeatRow] = field(default_factory=list)
    version: int = 0  # the stored row's version this copy was read at (or written as)


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One move of the log."""

    seq: int
    seat: int
    action: dict[str, Any]
    auto: bool = False


Skill = tuple[float, float]  # a rating's (mu, sigma)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat finished a game."""

    seat: int
    user_id: int | None
    name: str
    placement: int
    score: int


@dataclass(frozen=True, slots=True)
class Finish:
    """Everything a finished game adds to the record, written in the transaction that finishes it.

    ``rate`` gets the people's current ratings (those who have one) and returns their new ones.
    ``seen`` is what a result keeps of a skill (its mu; None: a newcomer's, the starting one),
    from which the rating people see is made; with it each person's result keeps theirs before
    and after the game, without it only the ratings change.
    """

    table_id: str
    game: str
    chat_id: int | None
    finished_at: float
    seats: tuple[SeatResult, ...]
    rate: Callable[[dict[int, Skill]], dict[int, Skill]]
    seen: Callable[[Skill | None], float] | None = None


RatingChange = tuple[str, int, float, float]  # (table id, seat, mu before, mu after): what the rating seen is made of
