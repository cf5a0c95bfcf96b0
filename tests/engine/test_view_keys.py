"""Every game's view answers the same questions under the same keys, for a player and a spectator, from the
first deal to the end: who may act, what this seat may do, the standings, whether it is over and who won."""

from __future__ import annotations

import random

import pytest

from engine.games import get, names

SHARED = {"game", "title", "phase", "seat", "to_act", "scores", "over", "winners", "hand_no", "players"}
SEATED = {"legal", "hand"}  # a spectator's view has no hand and nothing to do


@pytest.mark.parametrize("name", names())
def test_every_view_has_the_shared_keys_at_every_step(name: str) -> None:
    game = get(name)
    rng = random.Random(name)
    state = game.new_game({}, game.min_players, f"keys-{name}")
    while True:
        for seat in (*range(game.min_players), None):
            view = game.view(state, seat)
            wanted = SHARED if seat is None else SHARED | SEATED
            assert wanted <= set(view), f"{name} lacks {wanted - set(view)}"
            assert seat is not None or not SEATED & set(view)
            assert view["over"] is (game.outcome(state) is not None)
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[rng.randrange(len(legal))])
    final = game.view(state, 0)
    outcome = game.outcome(state)
    assert outcome is not None
    assert final["winners"] == [s for s, place in enumerate(outcome.placements) if place == 1]
