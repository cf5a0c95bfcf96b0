"""The Sergeant Major simulator of the AI (``engine.ai.sergeant_major.sim``) plays by the rules.

Random legal games of every variant run through the rules; from thousands of their positions the
simulator plays the rest of the hand, and every step it takes is replayed through the rules: each
card is one the rules let that seat play then, each trick goes to the seat the rules give it to,
the game ends at once where the rules end it, and the hand's result is the rules' result. Every
exchange the games make is also made by the simulator, which must leave the same hands (and, in
the 9-5-2 Variation, the same hands once the held-back returns are settled), the simulator offers
the 9-5-3 swap where the rules do, and its order of a hand's decisions holds the order the rules take.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.ai.sergeant_major import sim
from engine.core.cards import cards_in
from engine.core.events import Event
from engine.core.settings import options_dict
from engine.games.sergeant_major import GAME, SMState
from engine.games.sergeant_major.state import DECK, Phase

OPTION_SETS: list[dict[str, Any]] = [
    {"variant": "classic"},
    {"variant": "classic", "game_end": "target_plus_five", "exchange_ace": "high"},
    {"variant": "classic", "game_end": "all_sixteen", "woburn_first_bid": True, "woburn_max_bleed": True},
    {"variant": "classic", "kitty_order": "take_then_discard"},
    {"variant": "alternate"},
    {"variant": "alternate", "misere_trump": "dealer_names"},
    {"variant": "six_three_eight"},
    {"variant": "nine_five_two"},
    {"variant": "nine_five_two_variation"},
    {"variant": "three_five_nine_uhs"},
    {"variant": "nine_five_three_single_kitty"},
]
GAMES_PER_OPTIONS = 6
MOVE_CAP = 400
ROLLOUT_CHANCE = 0.35
STAGE_OF = {Phase.EXCHANGE: "exchange", Phase.CALL: "call", Phase.TRUMP: "trump", Phase.KITTY: "kitty",
            Phase.SWAP: "swap", Phase.PLAY: "play"}


class Recorded(list[int]):
    """A list the simulator writes into, each write logged: a card leaving a hand, or a trick counted."""

    def __init__(self, values: tuple[int, ...], kind: str, log: list[tuple[str, int, int]]) -> None:
        super().__init__(values)
        self.kind = kind
        self.log = log

    def __setitem__(self, seat: Any, value: Any) -> None:
        old = self[seat]
        if self.kind == "hands":
            gone = cards_in(old & ~value)
            assert len(gone) == 1 and not value & ~old, "a simulated play moves exactly one card out of a hand"
            self.log.append(("play", seat, gone[0]))
        else:
            assert value == old + 1, "a simulated trick counts one trick"
            self.log.append(("won", seat, -1))
        super().__setitem__(seat, value)


def random_action(state: SMState, seat: int, rnd: random.Random) -> dict[str, Any]:
    """A legal action, with random cards for a give or a discard."""
    action = dict(rnd.choice(GAME.legal_actions(state, seat)))
    choose = GAME.view(state, seat)["choose"]
    if choose is not None:
        action = {"type": choose["type"], "cards": rnd.sample(choose["from"], choose["count"])}
    return action


def world(state: SMState) -> sim.World:
    """The simulator's world of a rules state outside the tricks, every card where the rules have it."""
    deal = state.deal
    return sim.World(state.options.variant, options_dict(state.options), state.match.dealer, list(state.hands),
                     deal.kitty, deal.trump, deal.call, deal.targets, list(deal.transfers), list(deal.escrow),
                     deal.face_up, list(state.tricks))


def kinds(events: list[Event]) -> list[str]:
    return [e.data["type"] for e in events]


def check_rollout(state: SMState, rnd: random.Random) -> None:
    """The simulator plays the hand out from ``state``; the rules take every step it takes."""
    deal = state.deal
    me = rnd.randrange(3)
    greedy = rnd.choice((0.0, 0.6, 1.0))
    log: list[tuple[str, int, int]] = []
    hands = Recorded(state.hands, "hands", log)
    tricks = Recorded(state.tricks, "tricks", log)
    need = sim.end_need(options_dict(state.options), state.options.variant, deal.targets)
    result = sim.rollout(hands, list(state.trick), state.turn, deal.trump, deal.call == "misere", tricks,
                         deal.targets, need, me, random.Random(rnd.random()).random, greedy)
    events: list[Event] = []
    for step, (kind, seat, card) in enumerate(log):
        if kind == "won":
            won = [e.data for e in events if e.data["type"] == "trick_won"]
            assert won and won[0]["seat"] == seat, f"step {step}: the simulator gave the trick to seat {seat}"
            continue
        assert GAME.to_act(state) == {seat}, f"step {step}: the simulator played for seat {seat} out of turn"
        action = {"type": "play", "card": DECK.text(card)}
        assert action in GAME.legal_actions(state, seat), f"step {step}: {action} is not legal for seat {seat}"
        state, events = GAME.apply(state, seat, action)
        if "hand_over" in kinds(events):  # the hand's result (a running total may end the game with it)
            assert step + 2 == len(log), "the simulator played on after the hand was over"
            (over,) = (e.data for e in events if e.data["type"] == "hand_over")
            assert result == over["results"][me]
            return
        if state.phase is Phase.OVER:  # won at once by a trick count
            assert step + 2 == len(log), "the simulator played on after the game was won"
            (winner,) = state.match.winners
            assert result == (sim.WIN if winner == me else -sim.WIN)
            return
    raise AssertionError("the simulator stopped before the hand was over")


def check_exchange(state: SMState, seat: int, action: dict[str, Any], after: SMState) -> None:
    """The simulator's give (and return) leaves every hand as the rules' does."""
    w = world(state)
    giver, receiver, _k = state.deal.transfers[0]
    assert seat == giver
    sim.make_give(w, giver, receiver, sum(1 << DECK.parse(t) for t in action["cards"]))
    assert tuple(w.hands) == after.hands
    assert w.escrow == list(after.deal.escrow)


def check_settle(state: SMState, after: SMState) -> None:
    """§4.4: the simulator's settling of held-back gives leaves every hand as the rules' does."""
    w = world(state)
    sim.settle(w)
    assert tuple(w.hands) == after.hands


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_simulator_plays_exchanges_and_scores_as_the_rules(options: dict[str, Any]) -> None:
    rollouts = exchanges = settles = 0
    for g in range(GAMES_PER_OPTIONS):
        rnd = random.Random(f"{options}-{g}")
        state = GAME.new_game(options, 3, f"parity-{g}")
        stages = sim.stages(state.options.variant, options_dict(state.options),
                            state.options.misere_trump == "dealer_names")
        decided: list[str] = []
        hand_no = state.match.hand_no
        for _ in range(MOVE_CAP):
            if GAME.outcome(state) is not None:
                break
            if state.match.hand_no != hand_no:
                decided, hand_no = [], state.match.hand_no
            stage = STAGE_OF.get(state.phase)
            if stage is not None and stage not in decided:
                decided.append(stage)
                assert [s for s in stages if s in decided] == decided, f"the rules' order {decided} is not {stages}"
            if state.phase is Phase.KITTY:
                assert sim._take_first(world(state)) == (not state.deal.kitty and bool(state.deal.taken))
            if state.phase is Phase.PLAY and rnd.random() < ROLLOUT_CHANCE:
                check_rollout(state, rnd)
                rollouts += 1
            (seat,) = GAME.to_act(state)
            action = random_action(state, seat, rnd)
            after, _ = GAME.apply(state, seat, action)
            if state.phase is Phase.EXCHANGE:
                check_exchange(state, seat, action, after)
                exchanges += 1
            if state.phase is Phase.TRUMP and state.options.rules.face_up:
                assert (after.phase is Phase.SWAP) == sim.swap_offered(state.deal.face_up), "§5.8 swap"
            if state.deal.escrow and not after.deal.escrow:
                check_settle(state, after)
                settles += 1
            state = after
    assert rollouts >= 100
    if state.options.rules.exchange and not state.options.woburn_first_bid:
        assert exchanges > 0
    if state.options.rules.kitty_first:
        assert settles > 0
