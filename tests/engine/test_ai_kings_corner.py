"""The easy Kings in the Corner player: only legal actions for 2-4 players and every setting, games
that finish, whole turns played out (pile moves, filling sides, the drawn card), and its margin
over random play."""

from __future__ import annotations

from typing import Any

import pytest

from engine.ai import player_for
from engine.ai.base import RandomPlayer
from engine.ai.kings_corner import EasyKingsCorner
from engine.games.kings_corner import GAME, KingsState, Phase, position

CONFIGS: list[dict[str, Any]] = [
    {},
    {"pass_rule": "draw_until_playable"},
    {"king_compulsory": False, "king_on_empty_side": True},
    {"layout_kings": "auto_corner", "draw_count": 2, "scoring": "corners"},
    {"draw_timing": "start", "scoring": "penalty", "penalty_limit": 25},
    {"first_player": "high_card_draw", "scoring": "corners", "pass_rule": "draw_until_playable"},
]
PLAYS = ("build", "place_king", "fill_side")
TURN_CAP = 1500


def step(state: KingsState, player: Any, seed: str) -> tuple[KingsState, dict[str, Any], list[dict[str, Any]]]:
    (seat,) = GAME.to_act(state)
    legal = GAME.legal_actions(state, seat)
    action = player.choose(GAME.view(state, seat), legal, seed)
    assert action in legal, action
    state, _ = GAME.apply(state, seat, action)
    return state, action, legal


@pytest.mark.parametrize("options", CONFIGS, ids=[str(o) for o in CONFIGS])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_ai_kings_easy_plays_legal_whole_turns_and_games_finish(options: dict[str, Any], players: int) -> None:
    easy = player_for("kings_corner", "easy")
    assert isinstance(easy, EasyKingsCorner)
    for deal in range(4):
        state = GAME.new_game(options, players, f"ai-kings:{options}:{players}:{deal}")
        turns = 0
        while GAME.outcome(state) is None:
            state, action, legal = step(state, easy, "s")
            if action["type"] == "end_turn":
                turns += 1
                # It ends a turn only when no card of its hand can be played any more.
                assert not [a for a in legal if a["type"] in PLAYS], legal
            assert turns < TURN_CAP
        assert GAME.outcome(state) is not None


def play_turn(state: KingsState) -> tuple[KingsState, list[dict[str, Any]]]:
    """The easy player's actions until its turn (or the game) ends."""
    easy = EasyKingsCorner()
    seat = state.turn
    taken: list[dict[str, Any]] = []
    while GAME.outcome(state) is None and state.turn == seat:
        state, action, _ = step(state, easy, "s")
        taken.append(action)
        if action["type"] == "end_turn":
            break
    return state, taken


def test_ai_kings_goes_out_in_one_turn_when_it_can() -> None:
    # kings_corner/RULES.md §7.5 K26: the 8 of Hearts on the 9 of Spades, the 7 of Clubs on it.
    state = position(3, hands=[["8-hearts", "7-clubs"], ["2-clubs"], ["3-clubs"]],
                     piles={"N": ["9-spades"], "E": ["4-diamonds"]}, stock=["5-clubs"])
    state, taken = play_turn(state)
    assert [a["type"] for a in taken] == ["build", "build"]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.placements[0] == 1


def test_ai_kings_moves_a_pile_to_open_a_side_it_then_fills_and_goes_out() -> None:
    # The 2 of Clubs fits nowhere; moving E (8 of Hearts) onto N (9 of Spades) opens E for it (A4, A3),
    # and the Jack of Hearts goes on the Queen of Clubs: the hand is empty in one turn.
    state = position(2, hands=[["J-hearts", "2-clubs"], ["3-hearts", "4-hearts"]],
                     piles={"N": ["9-spades"], "E": ["8-hearts"], "S": ["Q-clubs"], "W": ["5-spades"]},
                     stock=["6-hearts", "7-hearts"])
    state, taken = play_turn(state)
    assert {"type": "move_pile", "src": "E", "dst": "N"} in taken
    assert {"type": "end_turn"} not in taken
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.placements[0] == 1
    assert GAME.view(state, None)["piles"]["E"] == ["2-clubs"]


def test_ai_kings_fills_an_empty_side_with_the_card_that_lets_it_play_more() -> None:
    # E is empty. Filling it with the 9 of Hearts lets the 8 of Spades follow; the 5 of Diamonds
    # fits nowhere either way and no pile can move, so the best turn leaves only it in hand.
    state = position(2, hands=[["9-hearts", "8-spades", "5-diamonds"], ["2-hearts"]],
                     piles={"N": ["Q-clubs"], "S": ["J-clubs"], "W": ["3-spades"]},
                     stock=["K-clubs", "A-clubs"])
    state, taken = play_turn(state)
    assert taken == [
        {"type": "fill_side", "card": "9-hearts", "side": "E"},
        {"type": "build", "card": "8-spades", "space": "E"},
        {"type": "end_turn"},
    ]
    assert GAME.view(state, 0)["hand"] == ["5-diamonds", "K-clubs"]


def test_ai_kings_places_a_king_it_must_place_and_builds_on_it() -> None:
    state = position(2, hands=[["K-spades", "Q-hearts", "7-clubs"], ["2-hearts"]],
                     piles={"N": ["8-diamonds"]}, stock=["4-clubs"])
    state, taken = play_turn(state)
    assert taken[0]["type"] in ("place_king", "build")
    assert {"type": "place_king", "card": "K-spades", "corner": "NE"} in taken
    assert {"type": "build", "card": "Q-hearts", "space": "NE"} in taken
    assert {"type": "build", "card": "7-clubs", "space": "N"} in taken


def test_ai_kings_plays_only_the_drawn_card_in_draw_until_playable() -> None:
    # §7.4 K24: nothing fits, so the turn ends; the 4 of Spades is drawn (no home), then the
    # 10 of Spades, which must go on the Jack of Hearts; one more card ends the turn.
    piles = {"N": ["9-spades"], "E": ["6-diamonds"], "S": ["J-hearts"], "W": ["3-clubs"],
             "NE": ["K-clubs", "Q-hearts"], "SE": ["K-diamonds"]}
    state = position(3, hands=[["5-hearts"], ["2-clubs"], ["2-spades"]], piles=piles,
                     stock=["4-spades", "10-spades", "K-hearts", "7-clubs"],
                     options={"pass_rule": "draw_until_playable"})
    easy = EasyKingsCorner()
    state, action, _ = step(state, easy, "s")
    assert action == {"type": "end_turn"}
    assert state.phase is Phase.MUST_PLAY
    view = GAME.view(state, 0)
    assert view["must_play"] == "10-spades"
    state, action, _ = step(state, easy, "s")
    assert action == {"type": "build", "card": "10-spades", "space": "S"}
    assert state.turn == 1
    assert sorted(GAME.view(state, 0)["hand"]) == ["4-spades", "5-hearts", "K-hearts"]


def test_ai_kings_easy_beats_random_players() -> None:
    easy, rnd = EasyKingsCorner(), RandomPlayer()
    wins = games = 0
    for deal in range(40):
        seed = f"ai-kings-vs:{deal}"
        state = GAME.new_game({}, 2, seed)
        hero = deal % 2
        players = [easy if s == hero else rnd for s in range(2)]
        move = 0
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_act(state)
            action = players[seat].choose(GAME.view(state, seat), GAME.legal_actions(state, seat), f"{seed}:{move}")
            state, _ = GAME.apply(state, seat, action)
            move += 1
        outcome = GAME.outcome(state)
        assert outcome is not None
        games += 1
        wins += outcome.placements[hero] == 1 and outcome.placements[1 - hero] != 1
    assert wins / games >= 0.75, wins
