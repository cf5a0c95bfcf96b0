"""Precomputed Coins tables for the AI's hot path: trick winners, points and race odds.

Cards are the ints of ``engine.core.cards.SPANISH`` (suit * 12 + rank, ranks low to high).
The deck, suit cycle and points come from the rules (``engine.games.coins.state``); the trick
rule of coins/RULES.md §3.3 is unrolled here into a flat table, and a test checks that table
against the rules module for every trick.
"""

from __future__ import annotations

from functools import cache

from engine.games.coins.state import BEATS, COINS, DECK, WIDTH

SIZE = DECK.size
SUIT = tuple(c // WIDTH for c in range(SIZE))
RANK = tuple(c % WIDTH for c in range(SIZE))
COIN = tuple(1 if s == COINS else 0 for s in SUIT)  # coins/RULES.md §1.3: one point per Coins card
STRIDE1 = SIZE
STRIDE0 = SIZE * SIZE


def winner_of(c0: int, c1: int, c2: int) -> int:
    """The play-order index (0..2) of the card that wins the trick (coins/RULES.md §3.3)."""
    s0, s1, s2 = SUIT[c0], SUIT[c1], SUIT[c2]
    if s0 != s1 and s0 != s2 and s1 != s2:
        # Type 1: the present suit that no other present suit beats; rank is ignored.
        present = (s0, s1, s2)
        for i, suit in enumerate(present):
            if BEATS[present[(i + 1) % 3]] != suit and BEATS[present[(i + 2) % 3]] != suit:
                return i
        raise AssertionError("three suits of a 4-cycle always have one unbeaten suit")
    cards = (c0, c1, c2)
    if s0 == s1 == s2:
        return max(range(3), key=cards.__getitem__)  # Type 3: the highest card
    pair = s0 if s0 in (s1, s2) else s1  # Type 2: the higher of the pair; the odd card never wins
    return max((i for i in range(3) if SUIT[cards[i]] == pair), key=cards.__getitem__)


def _build_winners() -> bytes:
    out = bytearray(SIZE * SIZE * SIZE)
    for c0 in range(SIZE):
        for c1 in range(SIZE):
            if c1 == c0:
                continue
            base = c0 * STRIDE0 + c1 * STRIDE1
            for c2 in range(SIZE):
                if c2 != c0 and c2 != c1:
                    out[base + c2] = winner_of(c0, c1, c2)
    return bytes(out)


WINNERS = _build_winners()  # WINNERS[c0 * STRIDE0 + c1 * STRIDE1 + c2] = winner_of(c0, c1, c2)


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
