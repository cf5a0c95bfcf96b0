"""One playthrough of Coins: the frozen state, the deck and the suit cycle (RULES.md §1)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine.core.cards import SPANISH, Card, Mask
from engine.games.coins.options import CoinsOptions
from engine.games.coins.options import N as N

DECK = SPANISH
CUPS, COINS, SWORDS, CLUBS = range(4)
SUIT_CYCLE = ("cups", "coins", "swords", "clubs")  # RULES.md §1.2: each beats the next, clubs beat cups
BEATS = (COINS, SWORDS, CLUBS, CUPS)  # RULES.md §1.2: BEATS[s] is the suit that s beats
WIDTH = len(DECK.ranks)
COINS_MASK = DECK.suit_mask(COINS)  # RULES.md §1.3: one point per Coins card
POINTS_PER_HAND = COINS_MASK.bit_count()
HAND_SIZE = DECK.size // N
CREDIT = "Coins by Mark Steere"


class Phase(StrEnum):
    """Where the game stands; dealing and trick resolution happen inside ``apply``."""

    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class CoinsState:
    """One playthrough of Coins. ``hands`` are card masks; ``trick`` is ``(seat, card)`` in play order.

    ``hand_points`` holds the points each seat took in every finished hand, in order (the score sheet's rows).
    """

    options: CoinsOptions
    seed: str
    phase: Phase
    hand_no: int
    dealer: int
    hands: tuple[Mask, ...]
    trick: tuple[tuple[int, Card], ...]
    turn: int
    trick_no: int
    scores: tuple[int, ...]
    won: tuple[int, ...]
    last_trick: tuple[tuple[int, Card], ...]
    winner: int | None
    hand_points: tuple[tuple[int, ...], ...] = ()


evolve = replace  # evolve(state, **changes): a copy with some fields changed
