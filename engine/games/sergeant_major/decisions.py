"""The decisions outside the tricks: bid, give, call, name trump, discard, swap (RULES.md §3-§5).

For each, ``check_*`` raises IllegalAction and is shared by ``legal_actions`` and ``apply``;
the action function then moves the state on through ``flow``.
"""

from __future__ import annotations

from engine.core.cards import Mask, cards_in
from engine.core.errors import IllegalAction, RefusalCode, listed
from engine.core.events import Event, private, public
from engine.games.sergeant_major import flow
from engine.games.sergeant_major.exchange import exchange_events
from engine.games.sergeant_major.state import (
    CALLS,
    MISERE_MAX,
    SUITS,
    TEXT,
    TWO_DIAMONDS,
    N,
    Phase,
    SMState,
    evolve,
    position,
    set_at,
    texts,
)

MIN_BID, MAX_BID = 8, 16  # §5.2.1
KITTY_DISCARDS = 4


# §5.2.1 Woburn first bid ----------------------------------------------------------

def lowest_bid(state: SMState) -> int:
    """The lowest bid allowed now: above the highest so far, at least 8."""
    return max(MIN_BID, state.deal.bid_high + 1)


def check_bid(state: SMState, tricks: int) -> None:
    """Raise unless ``tricks`` is a bid allowed now."""
    low = lowest_bid(state)
    if not low <= tricks <= MAX_BID:
        raise IllegalAction(RefusalCode.BAD_BID, low=low, high=MAX_BID)


def _next_active(passed: int, seat: int) -> int:
    for step in range(1, N + 1):
        nxt = (seat + step) % N
        if not passed >> nxt & 1:
            return nxt
    return seat


def bid(state: SMState, seat: int, tricks: int, events: list[Event]) -> SMState:
    """Bid ``tricks``; a 16 or two passes behind the bid end the auction."""
    events.append(public({"type": "bid", "seat": seat, "tricks": tricks}))
    deal = flow.evolve_deal(state.deal, bid_high=tricks, bid_by=seat)
    state = evolve(state, deal=deal)
    others_out = all(deal.passed >> s & 1 for s in range(N) if s != seat)
    if tricks == MAX_BID or others_out:
        return flow.bid_won(state, seat, tricks, events)
    return evolve(state, turn=_next_active(deal.passed, seat))


def pass_bid(state: SMState, seat: int, events: list[Event]) -> SMState:
    """Pass for good; ends the auction when only the bidder is left, redeals when all passed."""
    events.append(public({"type": "passed", "seat": seat}))
    passed = state.deal.passed | 1 << seat
    active = [s for s in range(N) if not passed >> s & 1]
    if not active:
        return flow.redeal(state, events)
    by = state.deal.bid_by
    if by >= 0 and active == [by]:
        return flow.bid_won(state, by, state.deal.bid_high, events)
    return evolve(state, deal=flow.evolve_deal(state.deal, passed=passed), turn=_next_active(passed, seat))


# §4 the exchange ------------------------------------------------------------------

def check_cards(state: SMState, seat: int, cards: Mask, count: int, what: str) -> None:
    """Raise unless ``cards`` are exactly ``count`` cards of the seat's hand."""
    n = cards.bit_count()
    if n != count:
        code = RefusalCode.GIVE_COUNT if what == "give" else RefusalCode.DISCARD_COUNT
        raise IllegalAction(code, count=count, given=n)
    missing = cards & ~state.hands[seat]
    if missing:
        raise IllegalAction(RefusalCode.CARD_NOT_IN_HAND, card=TEXT[cards_in(missing)[0]])


def give_count(state: SMState) -> tuple[int, int]:
    """The receiver and the number of cards of the exchange now due."""
    _giver, receiver, k = state.deal.transfers[0]
    return receiver, k


def give(state: SMState, seat: int, cards: Mask, events: list[Event]) -> SMState:
    """Give the due cards (§4.3); the return is automatic, or after trump in the Variation (§5.6)."""
    giver, receiver, _k = state.deal.transfers[0]
    rest = state.deal.transfers[1:]
    if state.options.rules.kitty_first:
        known = list(state.deal.known)
        known[giver] |= cards
        known[receiver] |= cards
        deal = flow.evolve_deal(state.deal, escrow=(*state.deal.escrow, (giver, receiver, cards)), known=tuple(known))
        events.extend(exchange_events(giver, receiver, cards, None))
        state = evolve(state, deal=deal, hands=set_at(state.hands, giver, state.hands[giver] & ~cards))
    else:
        state = flow.make_exchange(state, giver, receiver, cards, events)
    state = evolve(state, deal=flow.evolve_deal(state.deal, transfers=rest))
    if rest:
        return evolve(state, turn=rest[0][0])
    return flow.to_trump(state, events)


# §5.3 calls and §3.2 step 5 trump ---------------------------------------------------

def check_call(state: SMState, seat: int, call: str) -> None:
    """Raise unless the dealer may make ``call`` (each call once per player, §5.3)."""
    if call not in CALLS:
        raise IllegalAction(RefusalCode.BAD_CALL, calls=listed(CALLS), call=call)
    if state.match.calls_used[seat] >> CALLS.index(call) & 1:
        raise IllegalAction(RefusalCode.CALL_USED, call=call)


def call(state: SMState, seat: int, what: str, events: list[Event]) -> SMState:
    """Make an alternate call; misère turns the targets into maxima (§5.3)."""
    used = set_at(state.match.calls_used, seat, state.match.calls_used[seat] | 1 << CALLS.index(what))
    match = flow.evolve_match(state.match, calls_used=used)
    deal = state.deal
    if what in SUITS:
        deal = flow.evolve_deal(deal, call=what, trump=SUITS.index(what))
    elif what == "misere":
        maxima = tuple(MISERE_MAX[position(state.match.dealer, s)] for s in range(N))
        deal = flow.evolve_deal(deal, call=what, targets=maxima)
    else:
        deal = flow.evolve_deal(deal, call=what)
    events.append(public({"type": "called", "seat": seat, "call": what, "targets": list(deal.targets)}))
    state = evolve(state, match=match, deal=deal)
    if what == "misere" and state.options.misere_trump == "dealer_names":
        return evolve(state, phase=Phase.TRUMP)  # §6 SM-D19
    return flow.after_trump(state, events)


def check_suit(suit: str) -> int:
    """The index of a trump suit; no-trump is not allowed in a trump naming (§6 SM-D4)."""
    if suit not in SUITS:
        raise IllegalAction(RefusalCode.BAD_SUIT, suits=listed(SUITS), suit=suit)
    return SUITS.index(suit)


def name_trump(state: SMState, seat: int, suit: int, events: list[Event]) -> SMState:
    """The dealer names trump, then the hand moves on (§3.2 step 5)."""
    events.append(public({"type": "trump_named", "seat": seat, "suit": SUITS[suit]}))
    return flow.after_trump(evolve(state, deal=flow.evolve_deal(state.deal, trump=suit)), events)


# §3.2 step 6 the kitty --------------------------------------------------------------

def discard(state: SMState, seat: int, cards: Mask, events: list[Event]) -> SMState:
    """Four cards out of play, face down, seen only by the dealer."""
    events.append(private((seat,), {"type": "discarded", "seat": seat, "cards": texts(cards)},
                          {"type": "discarded", "seat": seat, "count": cards.bit_count()}))
    state = evolve(state, hands=set_at(state.hands, seat, state.hands[seat] & ~cards),
                   deal=flow.evolve_deal(state.deal, discards=cards))
    return flow.after_kitty(state, events)


# §5.8 the 2 of Diamonds swap ----------------------------------------------------------

def swap(state: SMState, seat: int, events: list[Event]) -> SMState:
    """Take the face-up card; the 2 of Diamonds lies face up, out of play."""
    taken = state.deal.face_up
    hands = set_at(state.hands, seat, state.hands[seat] & ~(1 << TWO_DIAMONDS) | taken)
    deal = flow.evolve_deal(state.deal, face_up=1 << TWO_DIAMONDS, public_known=state.deal.public_known | taken)
    events.append(public({"type": "swapped", "seat": seat, "took": texts(taken)[0], "gave": TEXT[TWO_DIAMONDS]}))
    return flow.start_play(evolve(state, hands=hands, deal=deal), events)


def decline_swap(state: SMState, seat: int, events: list[Event]) -> SMState:
    """Keep the 2 of Diamonds."""
    events.append(public({"type": "declined_swap", "seat": seat}))
    return flow.start_play(state, events)
