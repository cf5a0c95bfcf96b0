"""Every game's view answers the same questions under the same keys, for a player and a spectator, from the
first deal to the end: who may act, what this seat may do, the standings, whether it is over and who won."""

from __future__ import annotations

import random
from unittest import mock

import pytest

from engine.games import get, names
from engine.service.live import Snapshot, TableInfo

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


@pytest.mark.parametrize("name", names())
def test_a_snapshot_builds_the_public_half_once_and_gives_each_seat_the_games_own_view(name: str) -> None:
    """The web shares one public half among the seats of an update; each seat must still get exactly its view."""
    game = get(name)
    rng = random.Random(f"split-{name}")
    players = game.max_players
    state = game.new_game({}, players, f"split-{name}")
    info = TableInfo(id="t", game=name, title="", options={}, size=players, status="playing", host_user_id=1,
                     chat_id=None, seats=(), seq=0, seed_hash="", seed=None, timer="none", deadline=None, to_act=(),
                     result=None, ai_level="easy")
    for _ in range(60):
        expected = {seat: game.view(state, seat) for seat in (*range(players), None)}
        with mock.patch.object(game, "public_view", wraps=game.public_view) as public_view:
            snapshot = Snapshot(info, game, state)
            for seat, view in expected.items():
                assert snapshot.state_view(seat) == view
                assert snapshot.state_view(seat) is snapshot.state_view(seat)  # built once per seat
        assert public_view.call_count == 1, "the public half is built once per snapshot"
        assert expected[None] == game.public_view(state)
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[rng.randrange(len(legal))])
