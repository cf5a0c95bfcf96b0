"""The Coins playouts of the AI (``engine.ai.coins.strong.playout``) play by the rules.

Random legal games run through the rules; from thousands of their positions a playout plays the
rest of the hand on its own lists of cards, and every step it takes is replayed through the rules:
each card is played by the seat the rules have on turn (so every trick went to the seat the rules
gave it to, who leads the next), every score it adds is the rules' score after that trick, the
game ends where the rules end it (won by the rules' winner) and the hand ends where theirs does.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.ai.coins import strong
from engine.core.cards import cards_in
from engine.games.coins import GAME, CoinsState, Phase
from engine.games.coins.state import DECK

GAMES = 40
ROLLOUT_CHANCE = 0.3
Log = list[tuple[str, int, int]]


class Hand(list[int]):
    """One seat's cards as the playout holds them; a card overwritten in place is the card it plays."""

    def __init__(self, seat: int, cards: tuple[int, ...], log: Log) -> None:
        super().__init__(cards)
        self.seat = seat
        self.log = log

    def __setitem__(self, i: Any, value: Any) -> None:
        self.log.append(("play", self.seat, self[i]))
        super().__setitem__(i, value)


class Scores(list[int]):
    """The scores as the playout keeps them, every change logged."""

    def __init__(self, scores: tuple[int, ...], log: Log) -> None:
        super().__init__(scores)
        self.log = log

    def __setitem__(self, seat: Any, value: Any) -> None:
        self.log.append(("scored", seat, value))
        super().__setitem__(seat, value)


def check_playout(state: CoinsState, rnd: random.Random) -> None:
    """A playout from ``state``; the rules take every step it takes."""
    log: Log = []
    me = rnd.randrange(3)
    hands: list[list[int]] = [Hand(seat, cards_in(hand), log) for seat, hand in enumerate(state.hands)]
    trick = [card for _, card in state.trick]
    leader = state.trick[0][0] if state.trick else state.turn
    scores = Scores(state.scores, log)
    target = state.options.target_score
    value = strong.playout(hands, trick, leader, scores, target, me, random.Random(rnd.random()).random,
                           rnd.choice((0.0, 0.8, 1.0)))
    hand_no = state.hand_no
    for step, (kind, seat, card) in enumerate(log):
        if kind == "scored":
            assert state.scores[seat] == card, f"step {step}: the playout scored {card} for seat {seat}"
            continue
        assert GAME.to_act(state) == {seat}, f"step {step}: the playout played for seat {seat} out of turn"
        action = {"type": "play", "card": DECK.text(card)}
        assert action in GAME.legal_actions(state, seat), f"step {step}: {action} is not legal"
        state, _ = GAME.apply(state, seat, action)
        over = state.phase is Phase.OVER
        if over or state.hand_no != hand_no:
            rest = log[step + 1 :]
            assert all(kind == "scored" for kind, _, _ in rest), "the playout played on after the end"
            assert list(scores) == list(state.scores)
            if over:
                assert value == (1.0 if state.winner == me else 0.0)
            else:
                assert value == strong._end_value(list(scores), target, me)
            return
    raise AssertionError("the playout stopped before the hand or the game was over")


@pytest.mark.parametrize("target", [1, 5, 10, 20, 99])
def test_playouts_play_and_score_as_the_rules(target: int) -> None:
    checked = 0
    for g in range(GAMES):
        rnd = random.Random(f"{target}-{g}")
        state = GAME.new_game({"target_score": target}, 3, f"parity-{g}")
        while GAME.outcome(state) is None:
            if rnd.random() < ROLLOUT_CHANCE:
                check_playout(state, rnd)
                checked += 1
            (seat,) = GAME.to_act(state)
            state, _ = GAME.apply(state, seat, rnd.choice(GAME.legal_actions(state, seat)))
    assert checked >= GAMES
