"""Which AI decisions are costly (searched, so thought off the event loop) follows what the decision costs:
a decision the player calls cheap runs no playout, one it calls costly runs its search, in every variant."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ai import is_costly
from engine.ai.base import is_forced
from engine.ai.coins import StrongCoins
from engine.ai.sergeant_major import EasySergeantMajor, StrongSergeantMajor
from engine.games.coins import GAME as COINS
from engine.games.sergeant_major import GAME as SM

SM_OPTIONS: list[dict[str, Any]] = [
    {"variant": "classic", "first_dealer": "seat:0"},
    {"variant": "classic", "woburn_first_bid": True, "kitty_order": "take_then_discard"},
    {"variant": "alternate"},
    {"variant": "nine_five_two_variation"},
    {"variant": "nine_five_three_single_kitty"},
]


def _tiny_sm() -> StrongSergeantMajor:
    return StrongSergeantMajor(playouts=6, seconds=None)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(SM_OPTIONS) - 1), st.integers(0, 10_000))
def test_ai_sm_strong_searches_exactly_the_decisions_it_calls_costly(variant: int, seed: int) -> None:
    options = SM_OPTIONS[variant]
    state = SM.new_game(options, 3, f"cost:{seed}")
    easy = EasySergeantMajor()
    phases_costly: set[str] = set()
    for move in range(150):
        if SM.outcome(state) is not None or state.match.hand_no > 2:
            break
        (seat,) = SM.to_act(state)
        view, legal = SM.view(state, seat), SM.legal_actions(state, seat)
        strong = _tiny_sm()
        costly = is_costly("sergeant_major", "strong", view, legal)
        assert costly == (not is_forced(view, legal) and strong.is_costly(view, legal))
        assert not is_costly("sergeant_major", "easy", view, legal)
        if not is_forced(view, legal):
            strong.choose(view, legal, f"{seed}:{move}")
            assert (strong.playouts_done > 0) == costly, (view["phase"], legal)
        if costly:
            phases_costly.add(str(view["phase"]))
        state, _ = SM.apply(state, seat, easy.choose(view, legal, f"{seed}:{move}"))
    assert "kitty" in phases_costly or "exchange" in phases_costly or "play" in phases_costly


def test_ai_sm_strong_kitty_discard_and_give_are_costly_though_they_list_one_action() -> None:
    easy = EasySergeantMajor()
    seen_phases: set[str] = set()
    for seed in range(20):
        state = SM.new_game({"variant": "classic"}, 3, f"give:{seed}")
        for move in range(200):
            if SM.outcome(state) is not None or state.match.hand_no > 2:
                break
            (seat,) = SM.to_act(state)
            view, legal = SM.view(state, seat), SM.legal_actions(state, seat)
            if view.get("choose"):
                assert len(legal) == 1
                assert is_costly("sergeant_major", "strong", view, legal)
                seen_phases.add(str(view["phase"]))
            state, _ = SM.apply(state, seat, easy.choose(view, legal, f"{seed}:{move}"))
        if seen_phases == {"kitty", "exchange"}:
            break
    assert seen_phases == {"kitty", "exchange"}


def test_ai_coins_strong_calls_a_choice_of_cards_costly_and_a_forced_card_cheap() -> None:
    state = COINS.new_game({}, 3, "coins-cost")
    (seat,) = COINS.to_act(state)
    view, legal = COINS.view(state, seat), COINS.legal_actions(state, seat)
    assert len(legal) > 1 and is_costly("coins", "strong", view, legal)
    assert StrongCoins().is_costly(view, legal)
    assert not is_costly("coins", "strong", view, legal[:1])
    assert not is_costly("coins", "easy", view, legal)
