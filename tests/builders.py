"""Scenario builders shared by the test folders: seats of the worked examples, positions dealt by hand,
fabricated tricks and event filters.

Seats are named apart from user ids: ``SEAT_ANN`` is a seat number in the rules, never a
Telegram user.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.cards import SPANISH, mask_of
from engine.core.events import Event, for_seat
from engine.games.coins import CoinsOptions, CoinsState
from engine.games.coins import Phase as CoinsPhase
from engine.games.sergeant_major import GAME as SERGEANT_MAJOR
from engine.games.sergeant_major.state import DECK, N, Phase, SMState, evolve

# The worked examples' seats, clockwise: left_of(SEAT_ANN) = SEAT_BOB (sergeant_major/RULES.md §7).
SEAT_ANN, SEAT_BOB, SEAT_CAT = 0, 1, 2


def cards(*names: str) -> int:
    """A mask of cards given like "5-coins"."""
    return mask_of(SPANISH.parse(n) for n in names)


def coins_position(
    hands: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]],
    *,
    turn: int,
    trick: tuple[tuple[int, str], ...] = (),
    scores: tuple[int, int, int] = (0, 0, 0),
    trick_no: int = 1,
    dealer: int = 0,
    hand_no: int = 1,
    target: int = 10,
    seed: str = "worked-example",
) -> CoinsState:
    """A Coins state in the middle of play with the given hands and trick."""
    return CoinsState(
        options=CoinsOptions(target_score=target),
        seed=seed,
        phase=CoinsPhase.PLAY,
        hand_no=hand_no,
        dealer=dealer,
        hands=tuple(cards(*h) for h in hands),
        trick=tuple((s, SPANISH.parse(c)) for s, c in trick),
        turn=turn,
        trick_no=trick_no,
        scores=scores,
        won=(0, 0, 0),
        last_trick=(),
        winner=None,
    )


_SPADES = ("A-spades", "2-spades", "3-spades")


def sm_act(state: SMState, seat: int, action: Mapping[str, Any]) -> tuple[SMState, list[Event]]:
    """Apply one action through the ruleset."""
    return SERGEANT_MAJOR.apply(state, seat, action)


def win_trick(
    state: SMState, winner: int, *, trick_no: int, tricks: Sequence[int], first_up: Sequence[int] = (-1, -1, -1)
) -> tuple[SMState, list[Event]]:
    """From ``trick_no`` finished tricks and counts ``tricks``, ``winner`` leads the A of Spades and wins."""
    a, two, three = (DECK.parse(t) for t in _SPADES)
    strip = ~(1 << a | 1 << two | 1 << three)
    hands = [h & strip for h in state.hands]
    order = [winner, (winner + 1) % N, (winner + 2) % N]
    for seat, card in zip(order, (a, two, three), strict=True):
        hands[seat] |= 1 << card
    state = evolve(state, phase=Phase.PLAY, hands=tuple(hands), turn=winner, trick=(), trick_no=trick_no,
                   tricks=tuple(tricks), first_up=tuple(first_up))
    events: list[Event] = []
    for seat, text in zip(order, _SPADES, strict=True):
        state, more = sm_act(state, seat, {"type": "play", "card": text})
        events.extend(more)
    return state, events


def finish_hand(state: SMState, winner: int, tricks_before: Sequence[int]) -> tuple[SMState, list[Event]]:
    """Play the last trick of the hand, won by ``winner``, from counts ``tricks_before``."""
    return win_trick(state, winner, trick_no=state.options.rules.hand_size - 1, tricks=tricks_before)


def of_type(events: list[Event], kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    """What ``seat`` sees of the events of one type (seat None: the full data)."""
    seen = [e.data for e in events] if seat is None else for_seat(events, seat)
    return [e for e in seen if e.get("type") == kind]


def hand_of(state: SMState, seat: int) -> set[str]:
    """The card names in a seat's hand."""
    return set(DECK.texts(state.hands[seat]))
