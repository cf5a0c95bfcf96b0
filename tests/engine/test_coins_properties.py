"""Hypothesis properties of Coins: cards conserved, scores equal the Coins cards won, replay equals state."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.cards import SPANISH
from engine.core.rules import replay
from engine.games import get

GAME = get("coins")


@settings(max_examples=40, deadline=None)
@given(
    seed=st.text(min_size=1, max_size=16),
    target=st.integers(1, 30),
    picks=st.lists(st.integers(0, 15), min_size=1, max_size=50),
)
def test_coins_invariants_hold_through_random_games(seed: str, target: int, picks: list[int]) -> None:
    state = GAME.new_game({"target_score": target}, 3, seed)
    log: list[tuple[int, Any]] = []
    trick: list[tuple[int, str]] = []
    coins_won = [0, 0, 0]
    step = 0
    while GAME.outcome(state) is None:
        in_hands = sum(h.bit_count() for h in state.hands)
        # 48 cards conserved: hands + the trick on the table + the won piles of this hand
        assert in_hands + len(state.trick) + sum(state.won) == 48
        assert state.hands[0] & state.hands[1] == 0 and state.hands[1] & state.hands[2] == 0
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        action = legal[picks[step % len(picks)] % len(legal)]
        step += 1
        state, events = GAME.apply(state, seat, action)
        log.append((seat, action))
        for event in events:
            data = event.data
            if data["type"] == "played":
                trick.append((data["seat"], data["card"]))
            elif data["type"] == "trick_won":
                coins_won[data["seat"]] += sum(1 for _, c in trick if SPANISH.suit_name(SPANISH.parse(c)) == "coins")
                trick.clear()
        # scores equal the Coins cards each player has won, counted from what was played
        assert list(state.scores) == coins_won
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (state.winner,)
    assert target <= state.scores[state.winner] <= target + 2  # one trick gives at most 3 points
    assert replay(GAME, {"target_score": target}, 3, seed, log) == state
