"""Tricks (RULES.md §3.2 step 8): follow suit, the trick winner, the per-trick game end.

This is the hot path of AI playouts: states are built directly, events are precomputed.
"""

from __future__ import annotations

from engine.core.cards import Card, Mask
from engine.core.errors import IllegalAction, RefusalCode
from engine.core.events import Event, public
from engine.core.tricks import played_events, winner_index, without_card
from engine.games.sergeant_major import flow
from engine.games.sergeant_major.state import DECK, PLAY, SUIT_MASK, TEXT, WIDTH, N, SMState, new_state

PLAYED = played_events(DECK, N)
_GAME_END_TRICKS = {"twelve_tricks": 12, "all_sixteen": 16}


def legal_mask(state: SMState, seat: int) -> Mask:
    """The cards ``seat`` may play now: any card when leading, else the suit led if held (§3.2 step 8)."""
    hand = state.hands[seat]
    if not state.trick:
        return hand
    follow = hand & SUIT_MASK[state.trick[0][1] // WIDTH]
    return follow if follow else hand


def check_play(state: SMState, seat: int, card: Card) -> None:
    """Raise IllegalAction unless ``seat`` (on turn in PLAY) may play ``card``."""
    if not state.hands[seat] >> card & 1:
        raise IllegalAction(RefusalCode.CARD_NOT_IN_HAND, card=TEXT[card])
    if not legal_mask(state, seat) >> card & 1:
        led = DECK.suits[state.trick[0][1] // WIDTH]
        raise IllegalAction(RefusalCode.MUST_FOLLOW_SUIT, suit=led)


def play(state: SMState, seat: int, card: Card) -> tuple[SMState, list[Event]]:
    """Play a checked card; finish the trick when it is the third."""
    hands = without_card(state.hands, seat, card)
    trick = (*state.trick, (seat, card))
    events = [PLAYED[seat][card]]
    if len(trick) < N:
        return new_state(
            state.options, state.seed, PLAY, state.match, state.deal, hands, (seat + 1) % N, trick,
            state.trick_no, state.tricks, state.played, state.first_up, state.last_trick,
        ), events
    return _finish_trick(state, hands, trick, events)


def _finish_trick(
    state: SMState, hands: tuple[Mask, ...], trick: tuple[tuple[int, Card], ...], events: list[Event]
) -> tuple[SMState, list[Event]]:
    deal = state.deal
    cards = (trick[0][1], trick[1][1], trick[2][1])
    w = trick[winner_index(cards, deal.trump, WIDTH)][0]
    tricks = list(state.tricks)
    tricks[w] += 1
    trick_no = state.trick_no + 1
    first_up = state.first_up
    if first_up[w] < 0 and tricks[w] > deal.targets[w]:
        first_up = (*first_up[:w], trick_no, *first_up[w + 1 :])  # §5.7 first "up" trick
    # the cards are in the "played" events; a new deal in this same move may hand them to other seats
    events.append(public({"type": "trick_won", "seat": w, "trick_no": trick_no, "tricks": tricks}))
    opts = state.options
    rules = opts.rules
    new = new_state(
        opts, state.seed, PLAY, state.match, deal, hands, w, (), trick_no, tuple(tricks),
        (*state.played, trick), first_up, trick,
    )
    # §3.2 end check after every trick (and §5.7, §5.8); §6 SM-D5: at once, the rest is not played
    if rules.trick_end:
        need = _GAME_END_TRICKS.get(opts.game_end, deal.targets[w] + 5)
        if tricks[w] >= need:
            return flow.game_over(new, (w,), events, state.match.totals), events
    elif rules.thirteen and tricks[w] >= 13:
        return flow.game_over(new, (w,), events, state.match.totals), events
    if trick_no == rules.hand_size:
        return flow.end_hand(new, events), events
    return new, events
