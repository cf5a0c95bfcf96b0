"""Who wins a Coins trick (RULES.md §3.3): the rule, and the same rule as a table of every trick.

``WINNERS[c0 * STRIDE0 + c1 * STRIDE1 + c2]`` is ``winner_index((c0, c1, c2))`` for three
different cards in play order: the AI players' playouts read the table, the rules call the rule.
"""

from __future__ import annotations

from engine.core.cards import Card
from engine.games.coins.state import BEATS, DECK, WIDTH

SIZE = DECK.size
STRIDE1 = SIZE
STRIDE0 = SIZE * SIZE


def winner_index(cards: tuple[Card, Card, Card] | list[Card]) -> int:
    """RULES.md §3.3: the play-order index of the card that wins a trick of three cards."""
    s0, s1, s2 = cards[0] // WIDTH, cards[1] // WIDTH, cards[2] // WIDTH
    if s0 != s1 and s0 != s2 and s1 != s2:
        # Type 1: the only present suit that no other present suit beats.
        present = (s0, s1, s2)
        for i, suit in enumerate(present):
            if all(BEATS[other] != suit for other in present):
                return i
        raise AssertionError("a three-suit trick always has one winning suit")
    if s0 == s1 == s2:
        return max(range(3), key=lambda i: cards[i])  # Type 3: highest rank
    pair = s0 if s0 in (s1, s2) else s1  # Type 2: the higher of the pair; the odd card never wins
    return max((i for i in range(3) if cards[i] // WIDTH == pair), key=lambda i: cards[i])


def trick_type(cards: tuple[Card, Card, Card] | list[Card]) -> int:
    """RULES.md §3.3: a trick's type, 1 (three suits), 2 (a pair and an odd card) or 3 (one suit)."""
    return 4 - len({card // WIDTH for card in cards})


def _table() -> bytes:
    # Row (c0, c1) holds four suit runs of twelve c2. A run of a suit neither card has gives the same
    # winner for all twelve (by suits alone, or the pair beats the odd card), so winner_index of its first
    # card fills it; a run of a suit already played is settled by rank: within a suit a larger card is higher.
    out = bytearray(SIZE * SIZE * SIZE)
    for c0 in range(SIZE):
        s0 = c0 // WIDTH
        for c1 in range(SIZE):
            if c1 == c0:
                continue
            s1 = c1 // WIDTH
            base = c0 * STRIDE0 + c1 * STRIDE1
            for s2 in range(len(BEATS)):
                lo = s2 * WIDTH
                if s2 != s0 and s2 != s1:
                    out[base + lo : base + lo + WIDTH] = bytes([winner_index((c0, c1, lo))]) * WIDTH
                    continue
                for c2 in range(lo, lo + WIDTH):
                    if c2 in (c0, c1):
                        continue
                    if s0 == s1:  # all three of one suit
                        out[base + c2] = 0 if c0 > c1 and c0 > c2 else 1 if c1 > c2 else 2
                    elif s2 == s0:
                        out[base + c2] = 0 if c0 > c2 else 2
                    else:
                        out[base + c2] = 1 if c1 > c2 else 2
    return bytes(out)


WINNERS = _table()
