"""The Sergeant Major state: the match (across hands), the deal (one hand) and the play fields.

``Match`` lasts across hands and ``Deal`` holds one hand outside its tricks, so playing a card
changes only ``SMState``'s own fields. Hands, kitty, discards and the like are card masks
(``engine.core.cards``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from engine.core.cards import FRENCH, Card, Mask, cards_in
from engine.core.tricks import suit_masks
from engine.games.sergeant_major.options import SMOptions

DECK = FRENCH
N = 3
WIDTH = len(DECK.ranks)
SUITS = DECK.suits  # hearts, diamonds, clubs, spades
SUIT_MASK = suit_masks(WIDTH)
TEXT = tuple(DECK.text(c) for c in range(DECK.size))
TWO = 0  # rank index of the 2
ACE = WIDTH - 1
TWO_DIAMONDS = DECK.card("2", "diamonds")
POSITIONS = ("D", "E", "M")
CALLS = ("hearts", "clubs", "diamonds", "spades", "no_trump", "misere")  # §5.3
MISERE_MAX = (3, 5, 8)  # §5.3: misère maxima by position D, E, M


class Phase(StrEnum):
    """Where the hand stands; dealing, returns, reveals and hand ends happen inside ``apply``."""

    BID = "bid"  # §5.2.1 Woburn first bid
    EXCHANGE = "exchange"  # §4 an up player gives cards
    CALL = "call"  # §5.3 alternate: the dealer's call
    TRUMP = "trump"  # §3.2 step 5: the dealer names trump
    KITTY = "kitty"  # §3.2 step 6: the dealer discards four
    SWAP = "swap"  # §5.8 the 2 of Diamonds may be swapped for the face-up card
    PLAY = "play"
    OVER = "over"


Exchange = tuple[int, int, Mask, Mask]  # giver, receiver, given, returned
Trick = tuple[tuple[int, Card], ...]  # (seat, card) in play order
Transfer = tuple[int, int, int]  # giver, receiver, count


@dataclass(frozen=True, slots=True)
class Match:
    """What lasts across hands: dealer, hand and deal numbers, totals, previous results, calls used, and every
    finished hand's tricks, targets and results (the score sheet's rows)."""

    hand_no: int
    deal_no: int  # counts redeals too (Woburn all-pass); names the random stream of each deal
    dealer: int
    totals: tuple[int, ...]  # running totals, or the display-only stake ledger (§6 SM-D14)
    prev_result: tuple[int, ...] | None
    prev_first_up: tuple[int, ...]  # §5.7: trick number at which each seat first went up, -1 never
    calls_used: tuple[int, ...]  # §5.3: per seat, a bitmask over CALLS
    history: tuple[tuple[int, ...], ...]  # results of every finished hand
    trick_history: tuple[tuple[int, ...], ...]  # tricks each seat took in every finished hand
    target_history: tuple[tuple[int, ...], ...]  # each seat's target (or misère maximum) in every finished hand
    overtime: bool  # §6 SM-D24: the end was reached with a tie; play on until one total is highest
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Deal:
    """One hand outside the tricks: targets, trump or call, kitty, discards, exchange and bidding."""

    targets: tuple[int, ...]  # per seat (a misère call turns them into maxima)
    trump: int | None  # suit index
    call: str | None  # alternate's call, else None
    kitty: Mask  # face down, not yet taken
    taken: Mask  # the kitty as the dealer took it (the dealer's view only)
    discards: Mask
    face_up: Mask  # 9-5-3: one card, face up
    removed: Mask  # 6-3-8: the card out of the deck
    transfers: tuple[Transfer, ...]  # exchanges still to make, in order
    escrow: tuple[tuple[int, int, Mask], ...]  # 9-5-2 Variation: given, not yet returned
    exchanges: tuple[Exchange, ...]  # exchanges made this hand
    known: tuple[Mask, ...]  # per seat: cards privately shown to that seat (exchange, reveal)
    public_known: Mask  # cards whose place everyone knows (the swap)
    revealed: tuple[Mask, ...]  # §4.6: kitty cards shown to each seat
    bid_high: int  # §5.2.1: 0 = no bid yet
    bid_by: int
    passed: int  # bitmask of seats that passed


@dataclass(frozen=True, slots=True)
class SMState:
    """One playthrough. ``trick`` is ``(seat, card)`` in play order; ``trick_no`` counts finished tricks.

    ``played`` holds the finished tricks of this hand in order: public, every seat saw them played
    (§3.3). ``last_trick`` is the latest finished trick, kept on show into the next hand.
    """

    options: SMOptions
    seed: str
    phase: Phase
    match: Match
    deal: Deal
    hands: tuple[Mask, ...]
    turn: int
    trick: Trick
    trick_no: int
    tricks: tuple[int, ...]
    played: tuple[Trick, ...]
    first_up: tuple[int, ...]
    last_trick: Trick


def position(dealer: int, seat: int) -> int:
    """0 for the dealer, 1 for eldest (dealer's left), 2 for middle (dealer's right) (§1.2)."""
    return (seat - dealer) % N


def eldest(dealer: int) -> int:
    """The seat to the dealer's left, who leads the first trick."""
    return (dealer + 1) % N


# §1.1 exchange ranking, per card: EXCHANGE_RANK[ace_low][card], 0 for the lowest. With ``exchange_ace``
# low the Ace is below the 2, else above the King (the play ranking).
EXCHANGE_RANK: dict[bool, tuple[int, ...]] = {
    True: tuple((card % WIDTH + 1) % WIDTH for card in range(DECK.size)),
    False: tuple(card % WIDTH for card in range(DECK.size)),
}


def ex_key(card: Card, ace_low: bool) -> int:
    """Exchange ranking (§1.1): with ``ace_low`` the Ace is below the 2, else above the King."""
    return EXCHANGE_RANK[ace_low][card]


def by_rank(mask: Mask) -> list[Card]:
    """The cards of a mask from the lowest play rank up (suits in deck order within a rank)."""
    return sorted(cards_in(mask), key=lambda c: (c % WIDTH, c // WIDTH))


def texts(mask: Mask) -> list[str]:
    """Wire names of a mask's cards, in deck order."""
    return [TEXT[c] for c in cards_in(mask)]


evolve = replace  # evolve(state, **changes): a copy with some fields changed


def set_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of a tuple with one item changed."""
    return (*values[:index], value, *values[index + 1 :])
