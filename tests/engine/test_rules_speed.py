"""The parts that make the rules fast change nothing the rules promise: deals, states, actions, tricks."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import itertools
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from bench.coins_reference import play_game
from engine.core.actions import shared
from engine.core.records import builder, replacer
from engine.core.rng import DealRng
from engine.games import get
from engine.games.coins import CoinsState
from engine.games.coins.tricks import STRIDE0, STRIDE1, WINNERS, winner_index
from engine.games.kings_corner import KingsState
from engine.games.sergeant_major.state import Deal, Match, SMState


def documented_stream(seed: str, purpose: str) -> list[int]:
    """README "Provably fair deals", read literally: 8-byte big-endian slices of the SHA-256 blocks."""
    out: list[int] = []
    for block in range(40):
        digest = hashlib.sha256(f"{seed}:{purpose}:{block}".encode()).digest()
        out.extend(int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8))
    return out


def documented_shuffle(stream: list[int], n: int, pos: int = 0) -> tuple[list[int], int]:
    deck = list(range(n))
    for i in range(n - 1, 0, -1):
        while stream[pos] >= 2**64 - 2**64 % (i + 1):
            pos += 1
        j = stream[pos] % (i + 1)
        pos += 1
        deck[i], deck[j] = deck[j], deck[i]
    return deck, pos


@pytest.mark.parametrize("seed", ["a", "bench-1", "ü" * 9, "0" * 64])
@pytest.mark.parametrize("purpose", ["deal:1", "deal:12", "first_dealer", "high_card:2:1"])
def test_deal_stream_follows_the_documented_derivation(seed: str, purpose: str) -> None:
    stream = documented_stream(seed, purpose)
    rng = DealRng(seed, purpose)
    first, pos = documented_shuffle(stream, 52)
    assert rng.shuffled(range(52)) == first
    second, pos = documented_shuffle(stream, 100, pos)
    assert rng.shuffled(range(100)) == second  # the stream goes on where the first shuffle stopped
    assert rng.below(3) == stream[pos] % 3


@pytest.mark.parametrize("cls", [CoinsState, SMState, Match, Deal, KingsState])
def test_builder_and_replacer_make_ordinary_frozen_instances(cls: type) -> None:
    values = list(range(len(dataclasses.fields(cls))))
    built = builder(cls)(*values)
    plain = cls(*values)
    assert type(built) is cls and built == plain and hash(built) == hash(plain) and repr(built) == repr(plain)
    name = dataclasses.fields(cls)[1].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, name, "changed")
    assert replacer(cls)(built, **{name: -1}) == dataclasses.replace(plain, **{name: -1})


def test_builder_refuses_a_dataclass_it_could_not_build_faithfully() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            assert self.x >= 0

    for cls in (NoSlots, Checked):
        with pytest.raises(TypeError):
            builder(cls)


def test_shared_actions_refuse_changes_and_copy_to_plain_dicts() -> None:
    action = shared({"type": "play", "card": "K-cups"})
    changes: list[Callable[[Any], object]] = [
        lambda a: a.update(card="A-cups"), lambda a: a.__setitem__("card", "A-cups"), lambda a: a.pop("card"),
        lambda a: a.clear(), lambda a: a.setdefault("x", 1), lambda a: a.__delitem__("card"),
    ]
    for change in changes:
        with pytest.raises(TypeError):
            change(action)
    assert action == {"type": "play", "card": "K-cups"}
    assert json.loads(json.dumps(action)) == action
    for twin in (dict(action), copy.copy(action), copy.deepcopy(action), pickle.loads(pickle.dumps(action))):
        assert type(twin) is dict and twin == action
        twin["card"] = "A-cups"
    assert action["card"] == "K-cups"


def test_a_copy_of_a_shared_action_is_applied_like_the_shared_one() -> None:
    for name in ("coins", "sergeant_major", "kings_corner"):
        game = get(name)
        state = game.new_game(None, 3, "copies")
        (seat,) = game.to_act(state)
        for action in game.legal_actions(state, seat):
            assert game.apply(state, seat, action) == game.apply(state, seat, dict(action))


def test_coins_trick_table_agrees_with_the_rule_on_every_trick() -> None:
    for c0, c1, c2 in itertools.permutations(range(48), 3):
        assert WINNERS[c0 * STRIDE0 + c1 * STRIDE1 + c2] == winner_index((c0, c1, c2))


def picker(rng: random.Random) -> Callable[[int], int]:
    """An index below ``n`` from ``rng``, as the reference loop asks for one."""
    return lambda n: int(rng.random() * n)


def test_coins_reference_loop_plays_the_same_games_as_the_rules() -> None:
    game = get("coins")
    for g in range(30):
        seed, target = f"reference-{g}", 5 + g % 20
        choices = random.Random(g).random
        state = game.new_game({"target_score": target}, 3, seed)
        moves = 0
        while game.outcome(state) is None:
            (seat,) = game.to_act(state)
            legal = game.legal_actions(state, seat)
            state, _ = game.apply(state, seat, legal[int(choices() * len(legal))])
            moves += 1
        assert play_game(seed, target, picker(random.Random(g))) == (list(state.scores), moves)


def test_every_phase_where_someone_acts_has_its_legal_and_apply_functions() -> None:
    from engine.games.kings_corner import phases as kings_phases
    from engine.games.kings_corner.state import Phase as KingsPhase
    from engine.games.sergeant_major import phases as sm_phases
    from engine.games.sergeant_major.state import Phase as SMPhase

    assert set(sm_phases._LEGAL) == set(sm_phases._APPLY) == set(SMPhase) - {SMPhase.OVER}
    assert set(kings_phases._LEGAL) == set(KingsPhase)
    assert set(kings_phases._APPLY) == set(KingsPhase) - {KingsPhase.OVER}
