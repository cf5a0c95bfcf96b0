"""Helpers for the Sergeant Major tests: seats of the worked examples, fabricated tricks, event filters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.events import Event, for_seat
from engine.games.sergeant_major import GAME
from engine.games.sergeant_major.state import DECK, N, Phase, SMState, evolve

ANN, BOB, CAT = 0, 1, 2  # sergeant_major/RULES.md §7: clockwise, left_of(Ann) = Bob
_SPADES = ("A-spades", "2-spades", "3-spades")


def act(state: SMState, seat: int, action: dict[str, Any]) -> tuple[SMState, list[Event]]:
    """Apply one action through the ruleset."""
    return GAME.apply(state, seat, action)


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
        state, more = act(state, seat, {"type": "play", "card": text})
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
