"""Precomputed Coins tables for the AI's hot path: trick winners, points and race odds.

Cards are the ints of ``engine.core.cards.SPANISH`` (suit * 12 + rank, ranks low to high).
The deck and the point cards come from the rules (``engine.games.coins``), and so does the flat
table of every trick's winner (coins/RULES.md §3.3, ``engine.games.coins.tricks.WINNERS``). The
playouts that read them (``strong.playout``) are held to the rules by
tests/engine/test_sim_parity_coins.py.
"""

from __future__ import annotations

from functools import cache

from engine.games.coins.state import COINS_MASK, DECK, WIDTH
from engine.games.coins.tricks import STRIDE0, STRIDE1, WINNERS

SIZE = DECK.size
SUIT = tuple(c // WIDTH for c in range(SIZE))
RANK = tuple(c % WIDTH for c in range(SIZE))
COIN = tuple(COINS_MASK >> c & 1 for c in range(SIZE))  # coins/RULES.md §1.3: one point per Coins card
__all__ = ["COIN", "RANK", "SIZE", "STRIDE0", "STRIDE1", "SUIT", "WINNERS", "race_odds"]


@cache
def _race(a: int, b: int, c: int) -> float:
    if a <= 0:
        return 1.0
    if b <= 0 or c <= 0:
        return 0.0
    return (_race(a - 1, b, c) + _race(a, b - 1, c) + _race(a, b, c - 1)) / 3.0


_RACE_CAP = 24  # recursion depth stays under 3 * 24


def race_odds(need_me: int, need_a: int, need_b: int) -> float:
    """Chance that ``me`` reaches the target first if each later point goes to anyone alike."""
    top = max(need_me, need_a, need_b)
    if top > _RACE_CAP:  # rescale long races so the memo (and recursion) stays small
        need_me, need_a, need_b = (max(1, round(n * _RACE_CAP / top)) for n in (need_me, need_a, need_b))
    return _race(need_me, need_a, need_b)
