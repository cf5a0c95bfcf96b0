"""Card play for the easy Sergeant Major player: one look at the trick in front of it.

With a trump or no-trump contract every trick taken raises the seat's result (sergeant_major/RULES.md
§3.2 step 9, §5), so it takes tricks as cheaply as it can and throws its least useful card
when it cannot; in a misère (§5.3) every trick costs, so it ducks under the winning card.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.sergeant_major.hand import ACE, QUEEN, WIDTH, by_suit, rank, suit
from engine.core.tricks import winner_index

N = 3


def wins(card: int, trick: Sequence[int], trump: int | None) -> bool:
    """Whether ``card`` played now would be winning the trick (§3.2 step 8)."""
    return winner_index([*trick, card], trump, WIDTH) == len(trick)


def _strength(card: int, trump: int | None) -> tuple[int, int]:
    return (int(suit(card) == trump), rank(card))


def _cheapest(cards: Sequence[int], trump: int | None) -> int:
    return min(cards, key=lambda c: (_strength(c, trump), c))


def _dearest(cards: Sequence[int], trump: int | None) -> int:
    return max(cards, key=lambda c: (_strength(c, trump), -c))


def _throw(hand: Sequence[int], legal: Sequence[int], trump: int | None) -> int:
    """The least useful legal card: a low plain card of a short suit (to make a void), never an Ace if avoidable."""
    lengths = [len(r) for r in by_suit(hand)]
    plain = [c for c in legal if suit(c) != trump] or list(legal)
    return min(plain, key=lambda c: (rank(c) == ACE, rank(c), lengths[suit(c)], c))


def _lead(hand: Sequence[int], legal: Sequence[int], trump: int | None) -> int:
    lengths = [len(r) for r in by_suit(hand)]
    trumps = [c for c in legal if suit(c) == trump]
    aces = [c for c in legal if rank(c) == ACE and suit(c) != trump]
    if aces:
        # An Ace of a suit we are short in is the one the others can still follow.
        return min(aces, key=lambda c: (lengths[suit(c)], c))
    if len(trumps) >= 4 and rank(max(trumps)) >= QUEEN:
        return max(trumps)  # draw the others' trumps
    plain = [c for c in legal if suit(c) != trump]
    if not plain:
        return max(trumps)
    if trumps:
        # Shorten the shortest side suit so a later lead of it can be ruffed.
        return min(plain, key=lambda c: (lengths[suit(c)], rank(c), c))
    return min(plain, key=lambda c: (-lengths[suit(c)], rank(c), c))


def take_card(hand: Sequence[int], legal: Sequence[int], trick: Sequence[int], trump: int | None) -> int:
    """The card when tricks are wanted: win cheaply when it can hold, otherwise throw the least useful."""
    if not trick:
        return _lead(hand, legal, trump)
    winners = [c for c in legal if wins(c, trick, trump)]
    if not winners:
        return _throw(hand, legal, trump)
    if len(trick) == N - 1:
        return _cheapest(winners, trump)  # last to play: the lowest winner is sure
    led = suit(trick[0])
    following = [c for c in winners if suit(c) == led]
    if following:
        top = max(following)
        # Second to play: only a high card is likely to survive the third player.
        return top if rank(top) >= QUEEN or suit(top) == trump else _throw(hand, legal, trump)
    return _cheapest(winners, trump)  # a ruff: the third player overruffs only if void too


def duck_card(hand: Sequence[int], legal: Sequence[int], trick: Sequence[int], trump: int | None) -> int:
    """The card when tricks are unwanted (misère): stay under the winning card, shed high cards."""
    if not trick:
        lengths = [len(r) for r in by_suit(hand)]
        plain = [c for c in legal if suit(c) != trump] or list(legal)
        return min(plain, key=lambda c: (rank(c), -lengths[suit(c)], c))
    losers = [c for c in legal if not wins(c, trick, trump)]
    if losers:
        plain = [c for c in losers if suit(c) != trump] or losers
        return max(plain, key=lambda c: (rank(c), -c))  # the highest card that still loses
    if len(trick) == N - 1:
        return _dearest(legal, trump)  # the trick is ours anyway: spend the worst card
    return _cheapest(legal, trump)  # the third player may still go over it
