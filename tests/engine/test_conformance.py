"""One conformance suite over every registered game and player count (DESIGN.md, the rules layer)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import games
from engine.core.errors import IllegalAction, Refusal
from engine.core.events import for_seat
from engine.core.rules import Game, replay

CASES = [
    (name, n)
    for name in games.names()
    for n in range(games.get(name).min_players, games.get(name).max_players + 1)
]
MOVE_CAP = 400


def strings_in(value: Any) -> set[str]:
    """Every string anywhere in a JSON-ready value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def playout(game: Game[Any], n: int, seed: str, choices: list[int]) -> None:
    state = game.new_game(None, n, seed)
    log: list[tuple[int, dict[str, Any]]] = []
    events = game.start_events(state)
    action: dict[str, Any] = {}
    for step in range(MOVE_CAP):
        for seat in [*range(n), None]:
            hidden = game.hidden_cards(state, seat)
            view = game.view(state, seat)
            json.dumps(view)
            # the previous hand's last trick stays on view through the next hand's first trick (coins/RULES.md §3.4):
            # its cards were played face up, and showing them says nothing of who holds them after the new deal
            shown = strings_in({k: v for k, v in view.items() if k != "last_trick"}) if view.get("trick_no") == 1 \
                else strings_in(view)
            assert not shown & hidden, f"seat {seat} sees hidden cards in its view"
            # a card just played may be dealt to someone else in the same move (a new hand)
            leaked = strings_in(for_seat(events, seat)) & (hidden - strings_in(action))
            assert not leaked, f"seat {seat} sees hidden cards in events"
            if seat is None:
                assert "hand" not in view
        if game.outcome(state) is not None:
            assert game.to_act(state) == frozenset()
            break
        to_act = sorted(game.to_act(state))
        assert to_act, "nobody may act but the game is not over"
        seat = to_act[choices[step % len(choices)] % len(to_act)]
        legal = game.legal_actions(state, seat)
        assert legal, "a seat to act has no legal action"
        for idle in set(range(n)) - set(game.to_act(state)):
            assert game.legal_actions(state, idle) == []
        action = dict(legal[choices[(step * 7 + 3) % len(choices)] % len(legal)])
        before = state
        state, events = game.apply(state, seat, action)
        assert before is not state
        json.dumps([e.data for e in events])
        log.append((seat, action))
    assert replay(game, None, n, seed, log) == state


@pytest.mark.parametrize(("name", "n"), CASES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=12), choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=30))
def test_random_play_keeps_every_contract(name: str, n: int, seed: str, choices: list[int]) -> None:
    playout(games.get(name), n, seed, choices)


@pytest.mark.parametrize(("name", "n"), CASES)
def test_new_game_is_deterministic_for_a_seed_and_differs_across_seeds(name: str, n: int) -> None:
    game = games.get(name)
    assert game.new_game(None, n, "same") == game.new_game(None, n, "same")
    views = {json.dumps(game.view(game.new_game(None, n, f"seed-{i}"), 0), sort_keys=True) for i in range(5)}
    assert len(views) == 5


@pytest.mark.parametrize(("name", "n"), CASES)
@pytest.mark.parametrize("action", [None, 42, "play", {}, {"type": 7}, {"type": "no_such_action"}])
def test_malformed_actions_are_refused_and_change_nothing(name: str, n: int, action: Any) -> None:
    game = games.get(name)
    state = game.new_game(None, n, "malformed")
    seat = min(game.to_act(state))
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, seat, action)
    assert refused.value.code and refused.value.message
    assert state == game.new_game(None, n, "malformed")


@pytest.mark.parametrize(("name", "n"), CASES)
def test_acting_out_of_turn_is_refused(name: str, n: int) -> None:
    game = games.get(name)
    state = game.new_game(None, n, "turns")
    idle = next(s for s in range(n) if s not in game.to_act(state))
    seat = min(game.to_act(state))
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, idle, game.legal_actions(state, seat)[0])
    assert refused.value.code == "not_your_turn"


def test_registry_refuses_an_unknown_game_listing_the_known_ones() -> None:
    with pytest.raises(Refusal) as refused:
        games.get("poker")
    assert refused.value.code == "unknown_game"
    assert "coins" in refused.value.message and "'poker'" in refused.value.message


@pytest.mark.parametrize("name", games.names())
def test_game_exposes_the_interface(name: str) -> None:
    game = games.get(name)
    assert isinstance(game, Game)
    assert game.name == name and game.title
    assert game.parse_options(None) == game.parse_options({})


@pytest.mark.parametrize(("name", "n"), CASES)
def test_game_replay_method_rebuilds_the_state_from_the_log(name: str, n: int) -> None:
    game = games.get(name)
    state = game.new_game(None, n, "replay-method")
    log = []
    for _ in range(25):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        action = game.legal_actions(state, seat)[-1]
        state, _ = game.apply(state, seat, action)
        log.append((seat, action))
    assert game.replay(None, n, "replay-method", log) == state
    assert game.replay(None, n, "another-seed", log[:0]) != game.new_game(None, n, "replay-method")
