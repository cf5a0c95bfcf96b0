"""Every AI level of every registered game: only legal actions, chosen from a view alone."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import pkgutil
import types
from collections.abc import Sequence
from typing import Any

import pytest

import engine.ai
import engine.ai.coins
from engine.ai import LEVELS, player_for
from engine.ai.coins import StrongCoins
from engine.core.cards import SPANISH, cards_in
from engine.games import get, names

DEALS = 1000
MOVE_CAP = 400


def _tiny_budget(player: Any) -> Any:
    # Search players get a playout budget of a few playouts so a thousand deals stay quick.
    if hasattr(player, "playouts"):
        player.playouts = 3
        player.seconds = None
    if hasattr(player, "samples"):
        player.samples = 2  # the expert's deals solved exactly at the end of a hand
        player.endgame = 3  # ... from its last three cards, which a search settles in a few hundred positions
    return player


def _assert_legal(view: dict[str, Any], legal: Sequence[Any], action: Any) -> None:
    choice = view.get("choose")
    if choice and action not in legal:
        # k cards of n: legal_actions lists one canonical pick, the view describes the real choice.
        assert action["type"] == choice["type"], (view, action)
        assert len(set(action["cards"])) == len(action["cards"]) == choice["count"], (view, action)
        assert set(action["cards"]) <= set(choice["from"]), (view, action)
    else:
        assert action in legal, (view, action)


@pytest.mark.slow
@pytest.mark.parametrize("name", names())
def test_ai_never_chooses_an_illegal_action_over_1000_deals(name: str) -> None:
    game = get(name)
    checked = 0
    for deal in range(DEALS):
        players_n = game.min_players + deal % (game.max_players - game.min_players + 1)
        seed = f"legal:{name}:{deal}"
        state = game.new_game(None, players_n, seed)
        players = [_tiny_budget(player_for(name, LEVELS[(deal + s) % len(LEVELS)])) for s in range(players_n)]
        for move in range(MOVE_CAP):
            if game.outcome(state) is not None:
                break
            for seat in sorted(game.to_act(state)):
                legal = game.legal_actions(state, seat)
                if not legal:
                    continue
                view = game.view(state, seat)
                action = players[seat].choose(view, legal, f"{seed}:{move}:{seat}")
                _assert_legal(view, legal, action)
                state, _ = game.apply(state, seat, action)  # raises on an illegal action
                checked += 1
                break
    assert checked >= DEALS


def _coins_position() -> tuple[Any, int]:
    """A Coins state in trick 5 of hand 1 (seat 0 dealt), played by the easy level."""
    game = get("coins")
    state = game.new_game({"first_dealer": "seat:0"}, 3, "view-only")
    easy = player_for("coins", "easy")
    while state.trick_no < 5 or len(state.trick) != 1:
        (seat,) = game.to_act(state)
        action = easy.choose(game.view(state, seat), game.legal_actions(state, seat), "x")
        state, _ = game.apply(state, seat, action)
    return state, state.turn


def test_ai_strong_choice_is_the_same_for_states_that_look_the_same_to_its_seat() -> None:
    game = get("coins")
    state, seat = _coins_position()
    a, b = (seat + 1) % 3, (seat + 2) % 3
    hands = list(state.hands)
    # Swap half of one hidden hand with the other: same counts, a different deal.
    give = cards_in(hands[a])[::2][: hands[a].bit_count() // 2]
    take = cards_in(hands[b])[: len(give)]
    for card in give:
        hands[a] ^= 1 << card
        hands[b] |= 1 << card
    for card in take:
        hands[b] ^= 1 << card
        hands[a] |= 1 << card
    other = dataclasses.replace(state, hands=tuple(hands))
    assert other.hands != state.hands
    assert game.view(other, seat) == game.view(state, seat)
    view = game.view(state, seat)
    json.dumps(view)  # plain data only: nothing in it leads back to the state object
    player = StrongCoins(playouts=300, seconds=None)
    first = player.choose(game.view(state, seat), game.legal_actions(state, seat), "same-seed")
    second = player.choose(game.view(other, seat), game.legal_actions(other, seat), "same-seed")
    assert first == second


def _ai_modules() -> list[types.ModuleType]:
    found = [engine.ai, importlib.import_module("engine.ai.base")]
    for info in pkgutil.walk_packages(engine.ai.__path__, "engine.ai."):
        found.append(importlib.import_module(info.name))
    return found


def test_ai_modules_reach_no_game_state() -> None:
    modules = _ai_modules()
    assert any(m.__name__ == "engine.ai.coins.strong" for m in modules)
    for module in modules:
        for value in vars(module).values():
            target = value if isinstance(value, types.ModuleType) else inspect.getmodule(value)
            held = getattr(target, "__name__", "") or ""
            assert not held.startswith("engine.games"), (module.__name__, held)
            assert not (inspect.isclass(value) and value.__name__.endswith("State")), (module.__name__, value)


def test_ai_choose_takes_a_view_and_legal_actions_only() -> None:
    for player in (player_for("coins", "easy"), player_for("coins", "strong")):
        params = list(inspect.signature(player.choose).parameters)
        assert params == ["view", "legal", "seed"]


def test_ai_falls_back_to_a_legal_choice_for_a_game_without_players() -> None:
    legal = [{"type": "play", "card": SPANISH.text(c)} for c in (3, 17, 40)]
    for level in LEVELS:
        assert player_for("no_such_game", level).choose({}, legal, "s") in legal
