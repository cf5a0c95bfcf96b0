"""Snapshots for bounded replay: restoring a snapshot taken at move k and applying the rest of the log
gives the state and every seat's view that a full replay gives, for every game and variant.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import games
from engine.core.errors import BadOptions
from engine.core.rules import Action, replay, replay_after
from engine.core.snapshots import BadSnapshot
from engine.games.sergeant_major.options import VARIANTS

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("coins", 3, {"target_score": 10}),
    ("coins", 3, {"target_score": 25, "first_dealer": "seat:2"}),
    *(("sergeant_major", 3, {"variant": v}) for v in VARIANTS),
    ("sergeant_major", 3, {"woburn_first_bid": True, "woburn_max_bleed": True}),
    ("sergeant_major", 3, {"variant": "alternate", "misere_trump": "dealer_names"}),
    ("sergeant_major", 3, {"variant": "six_three_eight", "removed_card": "random_each_hand"}),
    *(("kings_corner", n, {"scoring": s}) for n in (2, 3, 4) for s in ("first_out", "corners", "penalty")),
    ("kings_corner", 3, {"layout_kings": "auto_corner", "first_player": "high_card_draw", "draw_count": 2}),
    ("kings_corner", 2, {"pass_rule": "draw_until_playable", "king_compulsory": False, "king_on_empty_side": True}),
    ("kings_corner", 4, {"draw_timing": "start", "scoring": "penalty", "penalty_limit": 1}),
]
MOVES = 600


def play(name: str, players: int, options: dict[str, Any], seed: str, choices: list[int]) -> tuple[
    list[Any], list[tuple[int, Action]]
]:
    """Every state of a game of random legal play (up to MOVES moves) and its log."""
    game = games.get(name)
    state = game.new_game(options, players, seed)
    states, log = [state], []
    for step in range(MOVES):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        action = legal[choices[step % len(choices)] % len(legal)]
        state, _ = game.apply(state, seat, action)
        states.append(state)
        log.append((seat, action))
    return states, log


@pytest.mark.parametrize(("name", "players", "options"), CASES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(min_size=1, max_size=12),
    choices=st.lists(st.integers(0, 1000), min_size=1, max_size=20),
    where=st.floats(0, 1),
)
def test_snapshot_then_the_rest_of_the_log_equals_the_full_replay(
    name: str, players: int, options: dict[str, Any], seed: str, choices: list[int], where: float
) -> None:
    game = games.get(name)
    states, log = play(name, players, options, seed, choices)
    k = round(where * len(log))
    data = json.loads(json.dumps(game.snapshot(states[k])))  # what a store keeps
    assert game.restore(options, players, seed, data) == states[k]
    full = replay(game, options, players, seed, log)
    tail = replay_after(game, options, players, seed, data, log[k:])
    assert tail == full == states[-1]
    for seat in [*range(players), None]:
        assert game.view(tail, seat) == game.view(full, seat)
    assert game.legal_actions(tail, min(game.to_act(tail), default=0)) == game.legal_actions(
        full, min(game.to_act(full), default=0))


def test_a_snapshot_changed_afterwards_leaves_the_state_alone() -> None:
    game = games.get("kings_corner")
    state = play("kings_corner", 2, {}, "copies", [3, 1, 4])[0][-1]
    data = game.snapshot(state)
    data["state"]["this_turn"].append({"type": "forged"})
    for event in data["state"]["last_turn"]:
        event["type"] = "forged"
    assert game.snapshot(state) != data
    assert all(e["type"] != "forged" for e in (*state.last_turn, *state.this_turn))


def older_shape(state: dict[str, Any]) -> dict[str, Any]:
    """A Sergeant Major state as stored before the hand's finished tricks were kept: only their cards."""
    played = state.pop("played")
    return {**state, "won": sum(1 << card for trick in played for _, card in trick)}


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: d.update(game="kings_corner"), "another game's snapshot"),
        (lambda d: d.update(format=0), "an older format"),
        (lambda d: d["state"].pop("turn"), "a field missing"),
        (lambda d: d["state"].update(extra=1), "a field too many"),
        (lambda d: d["state"].update(turn="1"), "a field of the wrong kind"),
        (lambda d: d["state"].update(phase="dancing"), "no such phase"),
        (lambda d: d["state"]["hands"].__setitem__(0, "K-spades"), "a card mask of the wrong kind"),
        (lambda d: d["state"]["deal"].pop("kitty"), "a nested record missing a field"),
        (lambda d: d.update(state=older_shape(d["state"])), "an older state shape"),
    ],
)
def test_restore_refuses_anything_but_a_snapshot_of_this_game(change: Any, why: str) -> None:
    game = games.get("sergeant_major")
    data = json.loads(json.dumps(game.snapshot(game.new_game(None, 3, "refusals"))))
    change(data)
    with pytest.raises(BadSnapshot):
        game.restore(None, 3, "refusals", data)


def test_restore_refuses_another_number_of_players() -> None:
    for name, players, other in (("coins", 3, 4), ("kings_corner", 2, 3)):
        game = games.get(name)
        data = game.snapshot(game.new_game(None, players, "players"))
        with pytest.raises(BadOptions):
            game.restore(None, other, "players", data)
