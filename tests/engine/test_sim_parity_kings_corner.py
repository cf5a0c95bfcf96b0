"""The Kings in the Corner simulator of the AI (``engine.ai.kings_corner.sim``) plays by the rules.

Random legal games of every setting run through the rules; from the start of a turn in thousands
of their positions the simulator plays on for a few rounds on its own board, and every step it
takes is replayed through the rules: each card it places and each pile it moves is a legal action
of the seat on turn and leaves the rules' board, each turn it ends is a legal end of turn that
draws what the rules draw (a drawn card it must play included), every turn starts with the hands,
stock and board the rules have, the blocked count is the rules', and the hand ends where theirs
does, won by the seats the rules place first (or judged by the penalty points the rules charge).
Wherever the simulator asks if a card can go somewhere, its answer is the rules' for every card.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.ai.kings_corner import sim
from engine.core.settings import options_dict
from engine.games.kings_corner import GAME, KingsState, Phase, position
from engine.games.kings_corner.board import DECK, SPACES, text
from engine.games.kings_corner.phases import card_actions

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"king_compulsory": False, "king_on_empty_side": True},
    {"layout_kings": "auto_corner", "draw_count": 2},
    {"draw_timing": "start"},
    {"pass_rule": "draw_until_playable"},
    {"pass_rule": "draw_until_playable", "king_on_empty_side": True, "king_compulsory": False},
    {"scoring": "corners"},
    {"scoring": "penalty", "penalty_limit": 40},
]
GAMES = 30
MOVE_CAP = 500
CHECK_CHANCE = 0.5
ROUNDS = 4
Step = tuple[Any, ...]


def board(state: KingsState) -> list[sim.Pile]:
    """The rules' piles as the simulator keeps them: (bottom, top, length), or None."""
    return [(p[0], p[-1], len(p)) if p else None for p in state.piles]


def table(state: KingsState) -> sim.Table:
    """The simulator's table for a rules state, every card where the rules have it."""
    return sim.Table(board(state), list(state.hands), list(state.stock), list(state.collected), state.idle_streak)


def card_action(seat: int, card: int, before: list[sim.Pile], after: list[sim.Pile]) -> dict[str, Any]:
    """The rules' action for a card the simulator put on the board."""
    (space,) = [i for i in range(8) if before[i] != after[i]]
    name = SPACES[space]
    if before[space] is not None:
        return {"type": "build", "card": text(card), "space": name}
    if space >= 4:
        return {"type": "place_king", "card": text(card), "corner": name}
    return {"type": "fill_side", "card": text(card), "side": name}


def move_action(before: list[sim.Pile], after: list[sim.Pile]) -> dict[str, Any]:
    """The rules' action for a pile the simulator moved."""
    changed = [i for i in range(8) if before[i] != after[i]]
    assert len(changed) == 2, "a simulated pile move changes two spaces"
    empty_before = [i for i in changed if before[i] is None]
    if empty_before:  # a King pile to an empty corner
        (corner,) = empty_before
        (side,) = [i for i in changed if i != corner]
        return {"type": "move_king_pile", "side": SPACES[side], "corner": SPACES[corner]}
    # the pile moved away leaves its side empty; a corner it completed is collected and empty too
    src = min(i for i in changed if after[i] is None)
    (dst,) = [i for i in changed if i != src]
    return {"type": "move_pile", "src": SPACES[src], "dst": SPACES[dst]}


def recorded(monkeypatch: pytest.MonkeyPatch, log: list[Step]) -> None:
    """Make the simulator log every step it takes, with its table after it."""
    play_card, move_piles, end_turn, greedy_turn = sim.play_card, sim._move_piles, sim.end_turn, sim.greedy_turn

    def logged_play(t: sim.Table, seat: int, card: int, s: sim.Settings) -> bool:
        before = list(t.piles)
        placed = play_card(t, seat, card, s)
        assert placed, "the simulator placed a card that fits nowhere"
        log.append(("act", seat, card_action(seat, card, before, t.piles), list(t.piles), list(t.hands)))
        return placed

    def logged_move(t: sim.Table, seat: int, s: sim.Settings) -> bool:
        before = list(t.piles)
        moved = move_piles(t, seat, s)
        if moved:
            log.append(("act", -1, move_action(before, t.piles), list(t.piles), list(t.hands)))
        return moved

    def logged_end(t: sim.Table, seat: int, played: int, s: sim.Settings, rnd: Callable[[], float],
                   noise: float) -> bool:
        log.append(("end", seat))
        over = end_turn(t, seat, played, s, rnd, noise)
        log.append(("ended", seat, over, t.idle, t.out))
        return over

    def logged_turn(t: sim.Table, seat: int, s: sim.Settings, rnd: Callable[[], float], noise: float) -> int:
        log.append(("turn", seat, list(t.piles), list(t.hands), list(t.stock)))
        return greedy_turn(t, seat, s, rnd, noise)

    monkeypatch.setattr(sim, "play_card", logged_play)
    monkeypatch.setattr(sim, "_move_piles", logged_move)
    monkeypatch.setattr(sim, "end_turn", logged_end)
    monkeypatch.setattr(sim, "greedy_turn", logged_turn)


def hand_over(before: KingsState, after: KingsState) -> bool:
    return after.phase is Phase.OVER or after.hand_no != before.hand_no


def check_play_out(state: KingsState, rnd: random.Random, log: list[Step]) -> None:
    """The simulator plays on from the start of ``state``'s turn; the rules take every step it takes."""
    log.clear()
    settings = sim.Settings(options_dict(state.options), state.n)
    for card in range(DECK.size):  # where a drawn card may go (draw_until_playable): A1, A2, A3
        assert sim.playable(board(state), card, settings) == bool(card_actions(state.piles, state.options, card))
    t = table(state)
    me = rnd.randrange(state.n)
    sim.play_out(t, state.turn, settings, random.Random(rnd.random()).random, rnd.choice((0.0, 0.3)),
                 first_drawn=True, turns=ROUNDS * state.n)
    ended = ended_blocked = False
    for step, entry in enumerate(log):
        assert not ended, f"step {step}: the simulator played on after the hand was over"
        kind, seat = entry[0], entry[1]
        if kind == "turn":
            _, _, piles, hands, stock = entry
            assert (state.phase, state.turn, state.played) == (Phase.ACTING, seat, 0), f"step {step}: turn order"
            assert (piles, hands, stock) == (board(state), list(state.hands), list(state.stock)), f"step {step}"
            continue
        if kind == "ended":
            _, _, over, idle, _out = entry
            assert over == ended_blocked, f"step {step}: the simulator's blocked hand is not the rules'"
            if not over:
                assert idle == state.idle_streak, f"step {step}: idle streak"
            ended = over
            continue
        if kind == "end":
            action: dict[str, Any] = {"type": "end_turn"}
        else:
            action = entry[2]
        (on_turn,) = GAME.to_act(state)
        assert seat in (-1, on_turn), f"step {step}: the simulator acted for seat {seat} out of turn"
        assert action in GAME.legal_actions(state, on_turn), f"step {step}: {action} is not legal"
        before = state
        state, _ = GAME.apply(state, on_turn, action)
        ended_blocked = kind == "end" and hand_over(before, state)
        if kind == "end" and state.phase is Phase.MUST_PLAY:
            ended_blocked = False  # the drawn card comes next, then the turn ends
        if kind == "act":
            piles, hands = entry[3], entry[4]
            if hand_over(before, state):  # went out
                assert not hands[on_turn] and before.went_out < 0 and t.out == on_turn
                ended = True
            elif before.phase is Phase.MUST_PLAY:  # the turn ends with one more draw, the simulator's next
                assert piles == board(state), f"step {step}: {action}"
                ended_blocked = hand_over(before, state)
            else:
                assert (piles, hands) == (board(state), list(state.hands)), f"step {step}: {action}"
    if ended and state.options.scoring == "penalty":
        # §4 penalty: the simulator judges the hand by the points the rules charged for it
        pen = state.penalties
        others = (sum(pen) - pen[me]) / (state.n - 1)
        assert sim.value(t, me, settings) == 0.5 + (others - pen[me]) / 40.0
    elif ended and state.phase is Phase.OVER:
        outcome = GAME.outcome(state)
        assert outcome is not None
        winners = outcome.winners
        assert sim.value(t, me, settings) == (1.0 / len(winners) if me in winners else 0.0)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(str(v) for v in o.values()) or "default")
def test_simulator_plays_draws_and_ends_as_the_rules(options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    log: list[Step] = []
    recorded(monkeypatch, log)
    checked = 0
    for g in range(GAMES):
        rnd = random.Random(f"{options}-{g}")
        state = GAME.new_game(options, 2 + g % 3, f"parity-{g}")
        fresh = True
        for _ in range(MOVE_CAP):
            if GAME.outcome(state) is not None:
                break
            if fresh and state.phase is Phase.ACTING and rnd.random() < CHECK_CHANCE:
                check_play_out(state, rnd, log)
                checked += 1
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            plays = [a for a in legal if a["type"] != "end_turn"]
            action = rnd.choice(plays) if plays and rnd.random() < 0.8 else rnd.choice(legal)
            before = state
            state, _ = GAME.apply(state, seat, action)
            fresh = state.turn != before.turn or state.hand_no != before.hand_no
    assert checked >= GAMES


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulator_blocks_a_hand_where_the_rules_do(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every side ends in an Ace and no hand holds a King: with the stock empty nobody can play (§4 blocked).
    log: list[Step] = []
    recorded(monkeypatch, log)
    aces = {"N": ["2-spades", "A-hearts"], "E": ["2-hearts", "A-spades"], "S": ["2-clubs", "A-diamonds"],
            "W": ["2-diamonds", "A-clubs"]}
    hands = [["5-spades", "9-hearts"], ["7-clubs"], ["3-diamonds", "Q-hearts", "J-clubs"], ["8-spades"]][:players]
    for idle in range(players):
        state = position(players, hands=hands, piles=aces, idle_streak=idle, turn=idle % players)
        check_play_out(state, random.Random(idle), log)
        ends = [entry for entry in log if entry[0] == "ended"]
        assert len(ends) == players - idle and ends[-1][2], "the simulator did not block the hand"
