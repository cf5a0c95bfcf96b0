"""The multi-card choices of Sergeant Major: the dealer's discard, the up player's give, the 9-5-3 swap.

Each picks exactly the asked number of cards from the ones offered (sergeant_major/RULES.md §3.2
step 6, §4.3, §5.8), using nothing but the seat's own cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.sergeant_major.hand import ACE, JACK, KING, WIDTH, by_suit, rank, suit
from engine.games.sergeant_major.state import EXCHANGE_RANK

HOLD_ODDS = 0.5  # the chance that the receiver holds a given card we cannot see


def _keep_value(card: int, trump: int | None, lengths: Sequence[int]) -> float:
    r, s = rank(card), suit(card)
    if s == trump:
        return 100 + r
    if r == ACE:
        return 90
    if r == KING and lengths[s] >= 2:
        return 50 + r
    return r + 0.1 * lengths[s]  # a low card of a long suit beats one of a short suit (a void is nearer)


def discard(cards: Sequence[int], count: int, trump: int | None) -> list[int]:
    """Keep trumps and Aces, void short side suits when trumps can ruff them, then drop the lowest cards."""
    lengths = [len(r) for r in by_suit(cards)]
    chosen: list[int] = []
    trumps = 0 if trump is None else lengths[trump]
    if trump is not None and trumps >= 3:
        sides = [s for s in range(len(lengths)) if s != trump and lengths[s]]
        for s in sorted(sides, key=lambda s: (lengths[s], s)):
            suit_cards = [c for c in cards if suit(c) == s]
            if any(rank(c) == ACE for c in suit_cards) or len(suit_cards) > count - len(chosen):
                continue
            chosen.extend(suit_cards)
    rest = sorted((c for c in cards if c not in chosen), key=lambda c: (_keep_value(c, trump, lengths), c))
    return chosen + rest[: count - len(chosen)]


def misere_discard(cards: Sequence[int], count: int) -> list[int]:
    """Throw away the highest cards, those of short suits first (they cannot hide under low ones)."""
    lengths = [len(r) for r in by_suit(cards)]
    return sorted(cards, key=lambda c: (-rank(c), lengths[suit(c)], c))[:count]


def ex_rank(card: int, ace_low: bool) -> int:
    """Exchange ranking (sergeant_major/RULES.md §1.1): with ``ace_low`` the Ace is below the 2."""
    return EXCHANGE_RANK[ace_low][card]


def give_gain(card: int, held: Sequence[int], already: int, ace_low: bool) -> float:
    """Expected play-rank gain of giving ``card`` (§4.3): the receiver returns their highest of its suit."""
    s = suit(card)
    mine = set(held)
    unseen = [c for c in range(s * WIDTH, (s + 1) * WIDTH) if c not in mine]
    unseen.sort(key=lambda c: ex_rank(c, ace_low), reverse=True)
    unseen = unseen[already:]  # cards already given in this suit take the receiver's top ones
    gain = 0.0
    none_yet = 1.0
    for other in unseen:
        if ex_rank(other, ace_low) <= ex_rank(card, ace_low):
            break
        gain += none_yet * HOLD_ODDS * (rank(other) - rank(card))
        none_yet *= 1 - HOLD_ODDS
    return gain


def give(cards: Sequence[int], count: int, ace_low: bool) -> list[int]:
    """``count`` cards whose returns should bring back the most: low cards of suits whose tops we lack."""
    chosen: list[int] = []
    per_suit = [0] * 4
    for _ in range(count):
        left = [c for c in cards if c not in chosen]
        best = max(left, key=lambda c: (give_gain(c, cards, per_suit[suit(c)], ace_low), -rank(c), -c))
        chosen.append(best)
        per_suit[suit(best)] += 1
    return chosen


def should_swap(face_up: int, trump: int | None, two_of_diamonds: int) -> bool:
    """9-5-3 (§5.8): take the face-up card unless the 2 of Diamonds is a trump and that card is a low plain one."""
    if trump is not None and suit(two_of_diamonds) == trump and suit(face_up) != trump:
        return rank(face_up) >= JACK
    return True
