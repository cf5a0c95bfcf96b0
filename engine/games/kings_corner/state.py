"""One playthrough of Kings in the Corner: the frozen state and its cheap copy-with-changes.

Hands are card masks, the stock is a tuple with its top card first, the board is the
eight piles of ``board.SPACES``. ``last_turn`` and ``this_turn`` keep the public form of
the recent events so a client can animate what just happened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.core.cards import Card, Mask
from engine.core.records import replacer
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
class HandScore:
    """A finished hand of penalty scoring (RULES.md §4): who went out (NOBODY if blocked), each seat's penalty."""

    went_out: int
    blocked: bool
    penalties: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class KingsState:
    """The whole state (RULES.md §3.1); ``pending`` and ``went_out`` are -1 when unset.

    ``scored`` holds every finished hand of penalty scoring, in order (the score sheet's rows).
    """

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
    scored: tuple[HandScore, ...]


# evolve(state, **changes): a copy with some fields changed. Built by engine.core.records rather than
# dataclasses.replace, which for these 22 fields made a move through the Game interface twice as slow
# (bench.engine: 72,800 against 35,100 moves/s, 15 us a move, a fifth of a move's time in the table service).
evolve: Callable[..., KingsState] = replacer(KingsState)
