"""Trick helpers shared by the trick-taking games: follow-suit legality and the trick winner.

Cards are ints ``suit * width + rank`` with ranks low to high, so within one suit a larger
int is the higher card (``engine.core.cards``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.cards import Card, Deck, Mask
from engine.core.events import Event, public


def suit_masks(width: int, suits: int = 4) -> tuple[Mask, ...]:
    """The mask of every card of each suit, for a deck of ``suits`` suits of ``width`` ranks."""
    return tuple(((1 << width) - 1) << (s * width) for s in range(suits))


def playable(hand: Mask, led_suit: Mask) -> Mask:
    """The cards of ``hand`` that may follow a lead whose suit mask is ``led_suit`` (follow if you can)."""
    follow = hand & led_suit
    return follow if follow else hand


def winner_index(cards: Sequence[Card], trump: int | None, width: int) -> int:
    """The index of the winning card: the highest trump if any, else the highest card of the suit led."""
    best = cards[0]
    best_i = 0
    led = best // width
    best_is_trump = led == trump
    for i in range(1, len(cards)):
        card = cards[i]
        suit = card // width
        if suit == trump:
            if not best_is_trump or card > best:
                best, best_i, best_is_trump = card, i, True
        elif suit == led and not best_is_trump and card > best:
            best, best_i = card, i
    return best_i


def played_events(deck: Deck, players: int) -> tuple[tuple[Event, ...], ...]:
    """The public "played" event of every (seat, card), built once: events are immutable by convention."""
    return tuple(
        tuple(public({"type": "played", "seat": seat, "card": deck.text(c)}) for c in range(deck.size))
        for seat in range(players)
    )
