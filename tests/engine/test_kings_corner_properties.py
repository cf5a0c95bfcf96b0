"""Kings in the Corner: properties of random games for 2, 3 and 4 players under several settings.

Cards are conserved, piles always run down by one in alternating colours, the seat on turn
always has a legal action, legal_actions and apply agree, nothing hidden leaks through a
view or an event, games end, and replaying the log rebuilds the state.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import Refusal
from engine.core.events import Event
from engine.core.rules import replay
from engine.games.kings_corner import GAME, KingsState, Phase
from engine.games.kings_corner.board import DECK, KING_MASK, SPACES, is_well_formed

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"pass_rule": "draw_until_playable", "scoring": "corners"},
    {"draw_timing": "start", "draw_count": 2, "layout_kings": "auto_corner", "king_on_empty_side": True},
    {"king_compulsory": False, "scoring": "penalty", "penalty_limit": 12, "first_player": "high_card_draw"},
    {"scoring": "penalty", "penalty_limit": 30, "pass_rule": "draw_until_playable", "draw_count": 2,
     "first_dealer": "host"},
    {"scoring": "corners", "layout_kings": "auto_corner", "draw_timing": "start", "king_on_empty_side": True},
]
MAX_ACTIONS = 5000
CARD_NAMES = frozenset(DECK.text(c) for c in range(DECK.size))


def strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON-ready value, except the high-card draw.

    The high-card draw (kings_corner/RULES.md §3.2 step 4) shows cards that went back into
    the deck before it was shuffled again for the deal, so it tells nothing about where they are.
    """
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        if value.get("type") == "high_card_drawn":
            return
        for key, item in value.items():
            if key != "high_card":
                yield from strings(key)
                yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def check_invariants(state: KingsState) -> None:
    masks = [*state.hands, *(1 << c for c in state.stock), *(1 << c for p in state.piles for c in p)]
    union = 0
    for mask in masks:
        assert not union & mask, "a card is in two places"
        union |= mask
    collected = 13 * sum(state.collected)
    assert union.bit_count() + collected == 52
    for i, pile in enumerate(state.piles):
        assert is_well_formed(pile), SPACES[i]
        if i >= 4 and pile:
            assert KING_MASK >> pile[0] & 1, "a corner pile starts with a King"
    for seat in range(state.n):
        legal = GAME.legal_actions(state, seat)
        if state.phase is not Phase.OVER and seat == state.turn:
            assert legal, "the seat on turn always has an action"
        else:
            assert legal == []


def seen_in(events: list[Event], seat: int | None) -> set[str]:
    return {s for e in events for s in strings(e.for_seat(seat))}


def check_secrets(state: KingsState, events: list[Event], old: KingsState | None = None,
                  action: dict[str, Any] | None = None) -> None:
    """Nothing hidden in a view or an event; events of a hand that just ended are judged by that hand."""
    cut = max((i for i, e in enumerate(events) if e.data["type"] == "hand_over"), default=-1)
    if old is None or state.hand_no == old.hand_no:
        cut = -1
    for seat in (*range(state.n), None):
        hidden = GAME.hidden_cards(state, seat)
        seen = set(strings(GAME.view(state, seat))) | seen_in(events[cut + 1 :], seat)
        assert not hidden & seen, f"seat {seat} sees hidden cards {sorted(hidden & seen)}"
        if cut >= 0 and old is not None and action is not None:
            # At the end of the old hand the played card was on the board and drawn cards in the drawer's hand.
            before = events[: cut + 1]
            hidden_then = set(GAME.hidden_cards(old, seat)) - {action.get("card")}
            for e in before:
                if e.data["type"] == "drew" and seat is not None and e.to and seat in e.to:
                    hidden_then -= set(e.data["cards"])
            leaked = hidden_then & seen_in(before, seat)
            assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)}"
    if state.phase is not Phase.OVER:
        stock = {DECK.text(c) for c in state.stock}
        assert stock <= GAME.hidden_cards(state, state.turn)


def candidates(state: KingsState, seat: int) -> list[dict[str, Any]]:
    """Many actions, legal or not: every hand card (and two board cards) everywhere, every pile move."""
    cards = DECK.texts(state.hands[seat]) + [DECK.text(p[-1]) for p in state.piles if p][:2]
    out: list[dict[str, Any]] = [{"type": "end_turn"}]
    for card in cards:
        for space in SPACES:
            out += [{"type": "build", "card": card, "space": space},
                    {"type": "place_king", "card": card, "corner": space},
                    {"type": "fill_side", "card": card, "side": space}]
    for a in SPACES:
        for b in SPACES:
            out += [{"type": "move_pile", "src": a, "dst": b}, {"type": "move_king_pile", "side": a, "corner": b}]
    return out


def check_agreement(state: KingsState, seat: int) -> None:
    legal = GAME.legal_actions(state, seat)
    for action in candidates(state, seat):
        try:
            GAME.apply(state, seat, action)
        except Refusal:
            assert action not in legal, action
        else:
            assert action in legal, action


def play(options: dict[str, Any], players: int, seed: str, rnd: random.Random, *, audit: bool,
         eagerness: float = 0.75) -> KingsState:
    """A random game; ``eagerness`` is how often a possible play is preferred to ending the turn."""
    state = GAME.new_game(options, players, seed)
    check_invariants(state)
    if audit:
        check_secrets(state, GAME.start_events(state))
    log: list[tuple[int, dict[str, Any]]] = []
    steps = 0
    while GAME.outcome(state) is None:
        assert steps < MAX_ACTIONS, "the game did not end"
        seat = state.turn
        assert GAME.to_act(state) == frozenset((seat,))
        legal = GAME.legal_actions(state, seat)
        plays = [a for a in legal if a["type"] != "end_turn"]
        if plays and (len(plays) == len(legal) or rnd.random() < eagerness):
            action = dict(rnd.choice(plays))
        else:
            action = {"type": "end_turn"}
        if audit and steps % 9 == 0:
            check_agreement(state, seat)
        old = state
        state, events = GAME.apply(state, seat, action)
        log.append((seat, action))
        steps += 1
        check_invariants(state)
        if audit:
            check_secrets(state, events, old, action)
    result = GAME.outcome(state)
    assert result is not None and result.winners
    assert GAME.to_act(state) == frozenset()
    assert replay(GAME, options, players, seed, log) == state
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(OPTION_SETS), seed=st.text("0123456789abcdef", min_size=1, max_size=8),
       rnd=st.randoms(use_true_random=False), eagerness=st.sampled_from([0.75, 0.1]))
def test_kings_corner_random_games_keep_every_invariant(
    players: int, options: dict[str, Any], seed: str, rnd: random.Random, eagerness: float
) -> None:
    play(options, players, seed, rnd, audit=True, eagerness=eagerness)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_kings_corner_random_games_terminate_under_each_setting(options: dict[str, Any]) -> None:
    rnd = random.Random(7)
    ends = set()
    for i in range(12):
        state = play(options, 2 + i % 3, f"end-{i}", rnd, audit=False, eagerness=(0.75, 0.05)[i % 2])
        ends.add("blocked" if state.blocked else "went_out")
    assert ends == {"blocked", "went_out"}


@settings(max_examples=40, deadline=None)
@given(raw=st.dictionaries(st.sampled_from(["draw_count", "scoring", "pass_rule", "draw_timing", "penalty_limit",
                                            "king_compulsory", "nonsense"]),
                           st.one_of(st.integers(-3, 1000), st.text(max_size=6), st.booleans()), max_size=3))
def test_kings_corner_options_either_parse_or_refuse_with_bad_options(raw: dict[str, Any]) -> None:
    try:
        opts = GAME.parse_options(raw)
    except Refusal as refusal:
        assert refusal.code == "bad_options" and refusal.message
        return
    assert opts.draw_count in (1, 2)
    assert 1 <= opts.penalty_limit <= 999
    assert not (opts.pass_rule == "draw_until_playable" and opts.draw_timing == "start")


@settings(max_examples=30, deadline=None)
@given(seed=st.text("0123456789abcdef", min_size=1, max_size=8), players=st.integers(2, 4),
       action=st.fixed_dictionaries({"type": st.sampled_from(["build", "place_king", "fill_side", "move_pile",
                                                               "move_king_pile", "end_turn", "pass"]),
                                     "card": st.sampled_from([*sorted(CARD_NAMES), "X-hearts"]),
                                     "space": st.sampled_from([*SPACES, "C"]),
                                     "src": st.sampled_from(SPACES), "dst": st.sampled_from(SPACES)}))
def test_kings_corner_refused_actions_change_nothing(seed: str, players: int, action: dict[str, Any]) -> None:
    state = GAME.new_game({}, players, seed)
    other = (state.turn + 1) % players
    for seat in (state.turn, other):
        before = GAME.view(state, seat)
        try:
            after, _ = GAME.apply(state, seat, action)
        except Refusal as refusal:
            assert refusal.code and refusal.message.endswith(".")
            assert GAME.view(state, seat) == before
            assert action not in GAME.legal_actions(state, seat)
        else:
            assert seat == state.turn and after != state
