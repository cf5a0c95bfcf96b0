"""Hands from chosen cards instead of a shuffle: for worked examples, puzzles and tests.

Cards not named are dealt in deck order (hearts, diamonds, clubs, spades; 2 up to A) to
the places in ``fill`` order, so the place filled last gets what the others leave over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.core.cards import Card
from engine.core.events import Event
from engine.games.sergeant_major import flow
from engine.games.sergeant_major.options import SMOptions, parse
from engine.games.sergeant_major.state import CALLS, DECK, SUITS, Match, N, Phase, SMState, evolve

Place = int | str  # a seat, or "kitty", "face_up", "removed"


def _cards(texts: Iterable[str]) -> list[Card]:
    return [DECK.parse(t) for t in texts]


def stacked(
    options: Mapping[str, Any] | SMOptions | None = None,
    *,
    hands: Mapping[int, Iterable[str]] | None = None,
    kitty: Iterable[str] = (),
    face_up: str | None = None,
    removed: str | None = None,
    dealer: int = 0,
    hand_no: int = 1,
    prev_result: Sequence[int] | None = None,
    prev_first_up: Sequence[int] = (-1, -1, -1),
    totals: Sequence[int] = (0, 0, 0),
    calls_used: Mapping[int, Iterable[str]] | None = None,
    fill: Sequence[Place] = (0, 1, 2, "kitty", "face_up", "removed"),
    seed: str = "stacked",
) -> tuple[SMState, list[Event]]:
    """The state at the first decision of a hand dealt from the named cards, and the events so far."""
    opts = parse(options)
    rules = opts.rules
    sizes: dict[Place, int] = {s: rules.hand_size for s in range(N)}
    sizes["kitty"] = rules.kitty_size
    sizes["face_up"] = int(rules.face_up)
    sizes["removed"] = int(rules.removes_card)
    chosen: dict[Place, list[Card]] = {place: [] for place in sizes}
    for seat, texts in (hands or {}).items():
        chosen[seat] = _cards(texts)
    chosen["kitty"] = _cards(kitty)
    if face_up is not None:
        chosen["face_up"] = _cards([face_up])
    if removed is not None:
        chosen["removed"] = _cards([removed])
    elif rules.removes_card and opts.removed_card in DECK.texts(DECK.full):
        chosen["removed"] = _cards([opts.removed_card])
    used = {c for cards in chosen.values() for c in cards}
    if len(used) != sum(len(c) for c in chosen.values()):
        raise ValueError("a card is named twice")
    spare = iter(c for c in range(DECK.size) if c not in used)
    for place in fill:
        while len(chosen[place]) < sizes[place]:
            chosen[place].append(next(spare))
    for place, size in sizes.items():
        if len(chosen[place]) != size:
            raise ValueError(f"{place} has {len(chosen[place])} cards, not {size}")

    def mask(place: Place) -> int:
        return sum(1 << c for c in chosen[place])

    used_calls = tuple(
        sum(1 << CALLS.index(c) for c in (calls_used or {}).get(seat, ())) for seat in range(N)
    )
    match = Match(hand_no, hand_no, dealer, tuple(totals), None if prev_result is None else tuple(prev_result),
                  tuple(prev_first_up), used_calls, (), (), (), False, ())
    events: list[Event] = []
    dealt = (tuple(mask(s) for s in range(N)), mask("kitty"), mask("face_up"), mask("removed"))
    return flow.open_hand(opts, seed, match, dealt, events), events


def playing(
    hands: Mapping[int, Iterable[str]],
    trump: str | None,
    trick: Sequence[tuple[int, str]] = (),
    *,
    dealer: int = 0,
    options: Mapping[str, Any] | None = None,
) -> SMState:
    """A state in the middle of a trick: ``hands`` include the cards already in ``trick``."""
    state, _ = stacked(options, hands=hands, dealer=dealer)
    held = list(state.hands)
    for seat, text in trick:
        held[seat] &= ~(1 << DECK.parse(text))
    leader = trick[0][0] if trick else (dealer + 1) % N
    deal = replace(state.deal, trump=None if trump is None else SUITS.index(trump))
    return evolve(state, phase=Phase.PLAY, deal=deal, hands=tuple(held),
                  trick=tuple((s, DECK.parse(t)) for s, t in trick), turn=(leader + len(trick)) % N)
