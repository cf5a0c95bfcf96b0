"""Tricks (RULES.md §3.2 step 8): follow suit, the trick winner, the per-trick game end."""

from __future__ import annotations

from engine.core.cards import Card, Mask
from engine.core.errors import IllegalAction, RefusalCode
from engine.core.events import Event, public
from engine.core.tricks import playable, played_events, winner_index
from engine.games.sergeant_major import flow
from engine.games.sergeant_major.options import winning_tricks
from engine.games.sergeant_major.state import DECK, SUIT_MASK, TEXT, WIDTH, N, Phase, SMState, evolve, set_at

PLAYED = played_events(DECK, N)


def legal_mask(state: SMState, seat: int) -> Mask:
    """The cards ``seat`` may play now: any card when leading, else the suit led if held (§3.2 step 8)."""
    hand = state.hands[seat]
    if not state.trick:
        return hand
    return playable(hand, SUIT_MASK[state.trick[0][1] // WIDTH])


def check_play(state: SMState, seat: int, card: Card) -> None:
    """Raise IllegalAction unless ``seat`` (on turn in PLAY) may play ``card``."""
    if not state.hands[seat] >> card & 1:
        raise IllegalAction(RefusalCode.CARD_NOT_IN_HAND, card=TEXT[card])
    if not legal_mask(state, seat) >> card & 1:
        led = DECK.suits[state.trick[0][1] // WIDTH]
        raise IllegalAction(RefusalCode.MUST_FOLLOW_SUIT, suit=led)


def play(state: SMState, seat: int, card: Card) -> tuple[SMState, list[Event]]:
    """Play a checked card; finish the trick when it is the third."""
    hands = set_at(state.hands, seat, state.hands[seat] & ~(1 << card))
    trick = (*state.trick, (seat, card))
    events = [PLAYED[seat][card]]
    if len(trick) < N:
        return evolve(state, hands=hands, turn=(seat + 1) % N, trick=trick), events
    return _finish_trick(state, hands, trick, events), events


def trick_winner(trick: tuple[tuple[int, Card], ...], trump: int | None) -> int:
    """The seat that wins a trick of ``(seat, card)`` in play order: the highest trump, else the highest
    card of the suit led (§3.2 step 8)."""
    return trick[winner_index([card for _, card in trick], trump, WIDTH)][0]


def _finish_trick(state: SMState, hands: tuple[Mask, ...], trick: tuple[tuple[int, Card], ...],
                  events: list[Event]) -> SMState:
    deal = state.deal
    w = trick_winner(trick, deal.trump)
    tricks = set_at(state.tricks, w, state.tricks[w] + 1)
    trick_no = state.trick_no + 1
    first_up = state.first_up
    if first_up[w] < 0 and tricks[w] > deal.targets[w]:
        first_up = set_at(first_up, w, trick_no)  # §5.7 first "up" trick
    # the cards are in the "played" events; a new deal in this same move may hand them to other seats
    events.append(public({"type": "trick_won", "seat": w, "trick_no": trick_no, "tricks": list(tricks)}))
    opts = state.options
    new = evolve(state, phase=Phase.PLAY, hands=hands, turn=w, trick=(), trick_no=trick_no, tricks=tricks,
                 played=(*state.played, trick), first_up=first_up, last_trick=trick)
    # §3.2 end check after every trick (and §5.7, §5.8); §6 SM-D5: at once, the rest is not played
    need = winning_tricks(opts.rules, opts.game_end, deal.targets)
    if need is not None and tricks[w] >= need[w]:
        return flow.game_over(new, (w,), events, state.match.totals)
    if trick_no == opts.rules.hand_size:
        return flow.end_hand(new, events)
    return new
