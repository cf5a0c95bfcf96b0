"""One playthrough of Kings in the Corner: the frozen state and its cheap copy-with-changes.

Hands are card masks, the stock is a tuple with its top card first, the board is the
eight piles of ``board.SPACES``. ``last_turn`` and ``this_turn`` keep the public form of
the recent events so a client can animate what just happened.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.core.cards import Card, Mask
from engine.games.kings_corner.board import Piles
from engine.games.kings_corner.options import KingsOptions

JSON = dict[str, Any]
NOBODY = -1


class Phase(StrEnum):
    """Where the game stands; dealing, drawing and turn changes happen inside ``apply``."""

    ACTING = "acting"  # RULES.md §3.3 ACTING
    MUST_PLAY = "must_play"  # §3.3 TURN_END, draw_until_playable: the drawn card must be played
    OVER = "over"  # GAME_OVER


@dataclass(frozen=True, slots=True)
class KingsState:
    """The whole state (RULES.md §3.1); ``pending`` and ``went_out`` are -1 when unset."""

    options: KingsOptions
    seed: str
    n: int
    phase: Phase
    hand_no: int
    dealer: int
    turn: int
    hands: tuple[Mask, ...]
    stock: tuple[Card, ...]
    piles: Piles
    played: int
    idle_streak: int
    pending: Card
    collected: tuple[int, ...]
    totals: tuple[int, ...]
    went_out: int
    blocked: bool
    penalties: tuple[int, ...]
    high_card: tuple[tuple[tuple[int, Card], ...], ...]
    last_turn: tuple[JSON, ...]
    this_turn: tuple[JSON, ...]


def evolve(
    s: KingsState,
    *,
    phase: Phase | None = None,
    turn: int | None = None,
    hands: tuple[Mask, ...] | None = None,
    stock: tuple[Card, ...] | None = None,
    piles: Piles | None = None,
    played: int | None = None,
    idle_streak: int | None = None,
    pending: Card | None = None,
    collected: tuple[int, ...] | None = None,
    went_out: int | None = None,
    blocked: bool | None = None,
    last_turn: tuple[JSON, ...] | None = None,
    this_turn: tuple[JSON, ...] | None = None,
) -> KingsState:
    """A copy of ``s`` with the given fields changed (a lean ``dataclasses.replace`` for the hot path)."""
    return KingsState(
        s.options,
        s.seed,
        s.n,
        s.phase if phase is None else phase,
        s.hand_no,
        s.dealer,
        s.turn if turn is None else turn,
        s.hands if hands is None else hands,
        s.stock if stock is None else stock,
        s.piles if piles is None else piles,
        s.played if played is None else played,
        s.idle_streak if idle_streak is None else idle_streak,
        s.pending if pending is None else pending,
        s.collected if collected is None else collected,
        s.totals,
        s.went_out if went_out is None else went_out,
        s.blocked if blocked is None else blocked,
        s.penalties,
        s.high_card,
        s.last_turn if last_turn is None else last_turn,
        s.this_turn if this_turn is None else this_turn,
    )
