"""What a Sergeant Major hand is worth: trick estimates per trump, no-trump and misère, and the
decisions made from them alone: the Woburn bid, the alternate call and the trump suit.

Cards are the ints of ``engine.core.cards.FRENCH`` (suit * 13 + rank, ranks 2..A low to high),
read from the wire names a view shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.core.cards import FRENCH, Card

WIDTH = len(FRENCH.ranks)
SUITS = FRENCH.suits  # hearts, diamonds, clubs, spades
ACE, KING, QUEEN, JACK, TEN = 12, 11, 10, 9, 8
# Dealer's tricks from an estimate, fitted over hands played by this player against itself: the
# kitty, the discard and the choice of trump are worth about three tricks in a suit call.
SUIT_BONUS = 2.9
NO_TRUMP_SCALE, NO_TRUMP_BONUS = 0.55, 4.3
MISERE_SCALE, MISERE_BONUS = 0.77, -0.6
# The usual result of each kind of call: each call is made once (§5.3), so a call is best spent
# on the hand where it does better than usual, not where it scores most.
CALL_PAR = {"no_trump": -1.9, "misere": 0.3}
MAX_BID = 11  # the easy player never promises more than this as Woburn dealer


def suit(card: Card) -> int:
    """The suit index of a card."""
    return card // WIDTH


def rank(card: Card) -> int:
    """The play rank of a card: 0 for the 2 up to 12 for the Ace (sergeant_major/RULES.md §1.1)."""
    return card % WIDTH


def parse(texts: Iterable[str]) -> list[Card]:
    """Card ints from wire names."""
    return [FRENCH.parse(t) for t in texts]


def by_suit(hand: Iterable[Card]) -> list[list[int]]:
    """The ranks held in each suit, highest first."""
    out: list[list[int]] = [[] for _ in SUITS]
    for card in hand:
        out[suit(card)].append(rank(card))
    for ranks in out:
        ranks.sort(reverse=True)
    return out


def _side_tricks(ranks: Sequence[int]) -> float:
    # An Ace usually wins; a guarded King often; a twice-guarded Queen sometimes. Long side
    # suits get ruffed, so length adds nothing in a trump game.
    n = len(ranks)
    value = 0.0
    for r in ranks:
        if r == ACE:
            value += 0.9
        elif r == KING:
            value += 0.7 if n >= 2 else 0.3
        elif r == QUEEN:
            value += 0.35 if n >= 3 else 0.1
    return value


def _trump_tricks(ranks: Sequence[int]) -> float:
    n = len(ranks)
    value = 0.0
    for r in ranks:
        if r == ACE:
            value += 1.0
        elif r == KING:
            value += 0.85 if n >= 2 else 0.5
        elif r == QUEEN:
            value += 0.6 if n >= 3 else 0.2
        elif r == JACK:
            value += 0.35 if n >= 4 else 0.0
    return value + 0.85 * max(0, n - 3)


def trump_estimate(hand: Iterable[Card], trump: int) -> float:
    """Roughly how many tricks ``hand`` takes with ``trump`` as trump suit."""
    suits = by_suit(hand)
    trumps = len(suits[trump])
    value = _trump_tricks(suits[trump])
    ruffs = 0.0
    for s, ranks in enumerate(suits):
        if s == trump:
            continue
        value += _side_tricks(ranks)
        ruffs += 1.0 if not ranks else 0.5 if len(ranks) == 1 else 0.0
    return value + min(ruffs, max(0, trumps - 2) * 0.7)


def no_trump_estimate(hand: Iterable[Card]) -> float:
    """Roughly how many tricks ``hand`` takes without trumps: high cards and long suits with a top."""
    value = 0.0
    for ranks in by_suit(hand):
        n = len(ranks)
        for r in ranks:
            if r == ACE:
                value += 1.0
            elif r == KING:
                value += 0.75 if n >= 2 else 0.3
            elif r == QUEEN:
                value += 0.4 if n >= 3 else 0.1
            elif r == JACK:
                value += 0.2 if n >= 4 else 0.0
        if n >= 5 and ranks[0] >= KING:
            value += 0.6 * (n - 4)
    return value


def forced_tricks(hand: Iterable[Card]) -> float:
    """Roughly how many tricks ``hand`` cannot avoid taking when everyone tries to take none."""
    value = 0.0
    for ranks in by_suit(hand):
        # Danger grows with rank (an average 16-card hand comes to about 5); low cards of a
        # suit let its high cards duck for a while.
        low = sum(1 for r in ranks if r <= 5)
        cover = 1.0 - 0.08 * min(low, 4)
        value += sum((r / ACE) ** 2 for r in ranks) * cover
    return value


def best_trump(hand: Sequence[Card]) -> int:
    """The suit to name: the highest estimate, then the longest, then the lowest index."""
    lengths = [len(r) for r in by_suit(hand)]
    return max(range(len(SUITS)), key=lambda s: (trump_estimate(hand, s), lengths[s], -s))


def misere_trump(hand: Sequence[Card]) -> int:
    """The suit to name in a misère with trumps: the one whose top card of ours is lowest, then the shortest."""
    suits = by_suit(hand)
    return min(range(len(SUITS)), key=lambda s: (suits[s][0] if suits[s] else -1, len(suits[s]), s))


def bid_tricks(hand: Sequence[Card], lowest: int) -> int | None:
    """The Woburn bid (sergeant_major/RULES.md §5.2.1): the lowest allowed if the hand makes it as dealer, else None."""
    expected = trump_estimate(hand, best_trump(hand)) + SUIT_BONUS
    if lowest <= MAX_BID and expected >= lowest:
        return lowest
    return None


def call_values(hand: Sequence[Card], target: int, maximum: int) -> dict[str, float]:
    """Expected result of each alternate call (sergeant_major/RULES.md §5.3) for a dealer with ``target``."""
    values = {SUITS[s]: trump_estimate(hand, s) + SUIT_BONUS - target for s in range(len(SUITS))}
    values["no_trump"] = NO_TRUMP_SCALE * no_trump_estimate(hand) + NO_TRUMP_BONUS - target
    # Misère: the result is maximum - tricks.
    values["misere"] = maximum - max(0.0, MISERE_SCALE * forced_tricks(hand) + MISERE_BONUS)
    return values


def best_call(hand: Sequence[Card], target: int, maximum: int, calls: Sequence[str]) -> str:
    """The call among ``calls`` that beats its usual result by the most."""
    values = call_values(hand, target, maximum)
    return max(calls, key=lambda c: values.get(c, float("-inf")) - CALL_PAR.get(c, 0.0))
