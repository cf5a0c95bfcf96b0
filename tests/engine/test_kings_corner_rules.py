"""Kings in the Corner: settings, the seeded deal, refusals, scoring paths, views and events."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import BadOptions, IllegalAction, Refusal
from engine.core.rng import deal_rng
from engine.core.rules import Game
from engine.games import get
from engine.games.kings_corner import GAME, KingsOptions, KingsState, Phase, idle_action, position
from engine.games.kings_corner.board import DECK, VALUES
from tests.builders import SEAT_ANN, SEAT_BOB, SEAT_CAT

END = {"type": "end_turn"}
FILLER = ["2-clubs", "2-spades"]
FULL_SIDES = {"N": ["9-spades"], "E": ["9-hearts"], "S": ["Q-spades"], "W": ["Q-hearts"]}


def names(cards: list[int]) -> list[str]:
    return [DECK.text(c) for c in cards]


def code_of(state: KingsState, seat: int, action: Any) -> str:
    before = GAME.view(state, seat)
    with pytest.raises(Refusal) as info:
        GAME.apply(state, seat, action)
    assert GAME.view(state, seat) == before
    return info.value.code


# settings --------------------------------------------------------------------------

def test_kings_corner_registry_hands_out_the_game() -> None:
    game = get("kings_corner")
    assert game is GAME
    assert isinstance(game, Game)
    assert (game.name, game.title, game.min_players, game.max_players) == ("kings_corner", "Kings in the Corner", 2, 4)


def test_kings_corner_options_defaults_follow_the_spec() -> None:
    opts = GAME.parse_options(None)
    assert opts == KingsOptions("random", "left_of_dealer", True, False, "movable", "end", 1, "draw_one", "first_out",
                                25)


def test_kings_corner_options_accept_text_values() -> None:
    opts = GAME.parse_options({"draw_count": "2", "king_compulsory": "off", "penalty_limit": "40"})
    assert (opts.draw_count, opts.king_compulsory, opts.penalty_limit) == (2, False, 40)


def test_kings_corner_options_refuse_draw_until_playable_with_draw_at_start() -> None:
    with pytest.raises(BadOptions) as info:
        GAME.parse_options({"pass_rule": "draw_until_playable", "draw_timing": "start"})
    assert info.value.code == "bad_options"
    message = info.value.message
    assert "“Draw until a card can be played”" in message and "“Draw at: Start of the turn”" in message
    assert "_" not in message, "settings named as a player reads them, not by their keys"
    assert GAME.parse_options({"pass_rule": "draw_until_playable"}).draw_timing == "end"


@pytest.mark.parametrize("raw", [
    {"draw_count": 3}, {"draw_count": True}, {"scoring": "golf"}, {"penalty_limit": 0}, {"penalty_limit": "lots"},
    {"first_player": "youngest"}, {"king_compulsory": "maybe"}, {"layout_kings": "discard"},
    {"draw_timing": "middle"}, {"colour": "red"}, {"first_dealer": "seat:4"}, {"first_dealer": "anyone"},
])
def test_kings_corner_options_refuse_values_not_offered(raw: dict[str, Any]) -> None:
    with pytest.raises(BadOptions) as info:
        GAME.parse_options(raw)
    assert info.value.code == "bad_options"


@pytest.mark.parametrize("players", [1, 5, 0])
def test_kings_corner_new_game_refuses_player_counts_outside_two_to_four(players: int) -> None:
    with pytest.raises(BadOptions):
        GAME.new_game({}, players, "s")


def test_kings_corner_new_game_refuses_a_dealer_seat_the_table_lacks() -> None:
    with pytest.raises(BadOptions):
        GAME.new_game({"first_dealer": "seat:3"}, 3, "s")


# the deal --------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_kings_corner_deal_follows_the_seeded_permutation(players: int) -> None:
    seed = f"deal-{players}"
    state = GAME.new_game({"first_dealer": "seat:1"}, players, seed)
    order = deal_rng(seed, 1).shuffled(range(52))
    expected: list[list[int]] = [[] for _ in range(players)]
    for k in range(7 * players):
        expected[(1 + 1 + k) % players].append(order[k])
    for seat in range(players):
        assert GAME.view(state, seat)["hand"] == DECK.texts(sum(1 << c for c in expected[seat]))
    view = GAME.view(state, None)
    base = 7 * players
    assert [view["piles"][s] for s in ("N", "E", "S", "W")] == [[DECK.text(order[base + i])] for i in range(4)]
    assert view["stock"] == 52 - base - 4
    assert state.turn == 2 % players and state.dealer == 1
    # The stock's top card is the next card of the permutation: the first player draws it.
    state = GAME.new_game({"first_dealer": "seat:1", "king_compulsory": False}, players, seed)
    _, events = GAME.apply(state, state.turn, END)
    assert events[0].for_seat(state.turn)["cards"] == [DECK.text(order[base + 4])]


def test_kings_corner_two_players_non_dealer_starts() -> None:
    for dealer in (0, 1):
        state = GAME.new_game({"first_dealer": f"seat:{dealer}"}, 2, "two")
        assert state.turn == 1 - dealer


def test_kings_corner_high_card_draw_uses_its_own_seeded_streams() -> None:
    seed = "high"
    state = GAME.new_game({"first_player": "high_card_draw", "first_dealer": "host"}, 4, seed)
    contenders = [0, 1, 2, 3]
    round_no = 1
    while True:
        order = deal_rng(seed, f"high_card:1:{round_no}").shuffled(range(52))
        drawn = dict(zip(contenders, order, strict=False))
        best = max(VALUES[c] for c in drawn.values())
        contenders = [s for s, c in drawn.items() if VALUES[c] == best]
        if len(contenders) == 1:
            break
        round_no += 1
    assert state.turn == contenders[0]
    assert len(GAME.view(state, None)["high_card"]) == round_no
    # The deal itself is unchanged by the draw: the cards went back and the deal uses its own stream.
    plain = GAME.new_game({"first_dealer": "host"}, 4, seed)
    assert state.hands == plain.hands and state.piles == plain.piles
    kinds = [e.data["type"] for e in GAME.start_events(state)]
    assert kinds[0] == "high_card_drawn"


def test_kings_corner_auto_corner_moves_layout_kings_of_a_real_deal() -> None:
    seed = next(f"k{i}" for i in range(500) if any(
        VALUES[p[0]] == 13 for p in GAME.new_game({"first_dealer": "host"}, 2, f"k{i}").piles[:4]))
    movable = GAME.new_game({"first_dealer": "host"}, 2, seed)
    auto = GAME.new_game({"first_dealer": "host", "layout_kings": "auto_corner"}, 2, seed)
    # §3.2 step 3 by hand: side by side, each King to the next corner, the stock's top card onto the side.
    sides = [p[0] for p in movable.piles[:4]]
    stock = list(movable.stock)
    corners = []
    for i in range(4):
        while VALUES[sides[i]] == 13:
            corners.append(sides[i])
            sides[i] = stock.pop(0)
    assert corners
    assert auto.piles == tuple((c,) for c in sides) + tuple((c,) for c in corners) + ((),) * (4 - len(corners))
    assert auto.stock == tuple(stock)
    assert auto.hands == movable.hands


def test_kings_corner_start_events_deal_privately_and_lay_out_publicly() -> None:
    state = GAME.new_game({"draw_timing": "start", "first_dealer": "seat:0"}, 3, "events")
    events = GAME.start_events(state)
    assert [e.data["type"] for e in events] == ["dealt", "dealt", "dealt", "laid_out", "drew"]
    for seat in range(3):
        mine = events[seat].for_seat(seat)
        assert len(mine["cards"]) == 7
        assert "cards" not in events[seat].for_seat((seat + 1) % 3)
    assert events[3].to is None
    assert len(GAME.view(state, 1)["hand"]) == 8  # the first player drew at the start of the turn
    assert events[4].for_seat(1)["cards"][0] in GAME.view(state, 1)["hand"]


# refusals ----------------------------------------------------------------------------

def board_state(**options: Any) -> KingsState:
    return position(hands=[["K-hearts", "7-clubs", "9-diamonds", *FILLER], ["5-hearts"], ["6-hearts"]],
                    piles={"N": ["8-hearts"], "E": ["J-spades"], "S": ["K-clubs", "Q-diamonds"], "NE": ["K-spades"]},
                    stock=["3-hearts"], options=options)


@pytest.mark.parametrize(("seat", "action", "code"), [
    (SEAT_BOB, END, "not_your_turn"),
    (SEAT_ANN, "build", "malformed_action"),
    (SEAT_ANN, {}, "malformed_action"),
    (SEAT_ANN, {"type": "discard", "card": "7-clubs"}, "unknown_action"),
    (SEAT_ANN, {"type": "build", "card": "11-clubs", "space": "N"}, "unknown_card"),
    (SEAT_ANN, {"type": "build", "card": "7-clubs", "space": "middle"}, "unknown_space"),
    (SEAT_ANN, {"type": "build", "card": "7-spades", "space": "N"}, "card_not_in_hand"),
    (SEAT_ANN, {"type": "build", "card": "9-diamonds", "space": "W"}, "space_empty"),
    (SEAT_ANN, {"type": "place_king", "card": "K-hearts", "corner": "W"}, "not_a_corner"),
    (SEAT_ANN, {"type": "place_king", "card": "K-hearts", "corner": "NE"}, "space_not_empty"),
    (SEAT_ANN, {"type": "fill_side", "card": "9-diamonds", "side": "SE"}, "not_a_side"),
    (SEAT_ANN, {"type": "fill_side", "card": "9-diamonds", "side": "N"}, "space_not_empty"),
    (SEAT_ANN, {"type": "move_pile", "src": "N", "dst": "N"}, "same_space"),
    (SEAT_ANN, {"type": "move_pile", "src": "W", "dst": "N"}, "space_empty"),
    (SEAT_ANN, {"type": "move_king_pile", "side": "N", "corner": "SE"}, "not_a_king"),
    (SEAT_ANN, {"type": "move_king_pile", "side": "S", "corner": "NE"}, "space_not_empty"),
    (SEAT_ANN, {"type": "move_king_pile", "side": "NE", "corner": "SE"}, "not_a_side"),
    (SEAT_ANN, {"type": "move_king_pile", "side": "S", "corner": "E"}, "not_a_corner"),
    (SEAT_ANN, {"type": "move_king_pile", "side": "W", "corner": "SE"}, "space_empty"),
    (SEAT_ANN, END, "king_must_be_placed"),
])
def test_kings_corner_refusals_have_specific_codes_and_change_nothing(seat: int, action: Any, code: str) -> None:
    state = board_state()
    assert code_of(state, seat, action) == code
    if isinstance(action, dict):
        assert action not in GAME.legal_actions(state, seat)


def test_kings_corner_refuses_king_pile_moves_when_layout_kings_go_to_corners() -> None:
    state = board_state(layout_kings="auto_corner")
    assert code_of(state, SEAT_ANN, {"type": "move_king_pile", "side": "S", "corner": "SE"}) == "king_piles_fixed"
    assert {"type": "move_king_pile", "side": "S", "corner": "SE"} in GAME.legal_actions(board_state(), SEAT_ANN)


def test_kings_corner_refuses_everything_once_the_game_is_over() -> None:
    state = position(hands=[["8-hearts"], ["5-hearts"]], players=2, piles={"N": ["9-spades"]})
    over, _ = GAME.apply(state, SEAT_ANN, {"type": "build", "card": "8-hearts", "space": "N"})
    assert over.phase is Phase.OVER
    assert code_of(over, SEAT_BOB, END) == "game_over"
    assert GAME.legal_actions(over, SEAT_BOB) == []


def test_kings_corner_refusal_messages_are_sentences() -> None:
    with pytest.raises(IllegalAction) as info:
        GAME.apply(board_state(), SEAT_ANN, {"type": "build", "card": "9-diamonds", "space": "E"})
    assert info.value.code == "does_not_fit" and info.value.message.endswith(".")


# scoring paths ------------------------------------------------------------------------

def test_kings_corner_going_out_by_placing_a_king_ends_the_game() -> None:
    state = position(hands=[["K-hearts"], ["5-hearts"], ["6-hearts"]], stock=["3-hearts"])
    after, events = GAME.apply(state, SEAT_ANN, {"type": "place_king", "card": "K-hearts", "corner": "SW"})
    assert [e.data["type"] for e in events] == ["king_placed", "went_out", "game_over"]
    result = GAME.outcome(after)
    assert result is not None and result.winners == (SEAT_ANN,)


def test_kings_corner_corner_completed_by_a_pile_move_is_collected() -> None:
    top = ["K-diamonds", "Q-spades", "J-hearts", "10-clubs", "9-diamonds", "8-spades", "7-hearts"]
    low = ["6-clubs", "5-diamonds", "4-spades", "3-hearts", "2-clubs", "A-diamonds"]
    state = position(hands=[["9-hearts", "3-spades"]], piles={"SE": top, "W": low}, options={"scoring": "corners"})
    after, events = GAME.apply(state, SEAT_ANN, {"type": "move_pile", "src": "W", "dst": "SE"})
    assert [e.data["type"] for e in events] == ["pile_moved", "corner_collected"]
    assert after.collected == (1, 0, 0) and after.piles[5] == () and after.piles[3] == ()
    plain = position(hands=[["9-hearts", "3-spades"]], piles={"SE": top, "W": low})
    after, _ = GAME.apply(plain, SEAT_ANN, {"type": "move_pile", "src": "W", "dst": "SE"})
    assert len(after.piles[5]) == 13 and after.collected == (0, 0, 0)


def test_kings_corner_full_king_pile_moved_to_a_corner_is_collected() -> None:
    full = ["K-diamonds", "Q-spades", "J-hearts", "10-clubs", "9-diamonds", "8-spades", "7-hearts", "6-clubs",
            "5-diamonds", "4-spades", "3-hearts", "2-clubs", "A-diamonds"]
    state = position(hands=[["9-hearts"]], piles={"E": full}, options={"scoring": "corners"})
    after, events = GAME.apply(state, SEAT_ANN, {"type": "move_king_pile", "side": "E", "corner": "NW"})
    assert [e.data["type"] for e in events] == ["pile_moved", "corner_collected"]
    assert after.collected[SEAT_ANN] == 1 and after.piles[7] == ()


def test_kings_corner_penalty_hand_below_the_limit_deals_the_next_hand() -> None:
    state = position(hands=[["K-clubs", "7-hearts"], ["8-hearts"], ["2-hearts", "3-hearts"]], turn=SEAT_BOB,
                     dealer=SEAT_ANN, piles={"N": ["9-spades"]}, options={"scoring": "penalty"}, seed="next")
    after, events = GAME.apply(state, SEAT_BOB, {"type": "build", "card": "8-hearts", "space": "N"})
    kinds = [e.data["type"] for e in events]
    assert kinds == ["built", "went_out", "hand_over", "dealt", "dealt", "dealt", "laid_out"]
    assert after.totals == (11, 0, 2) and after.hand_no == 2 and after.dealer == SEAT_BOB
    assert after.turn == SEAT_CAT and after.phase is Phase.ACTING
    order = deal_rng("next", 2).shuffled(range(52))
    assert DECK.texts(after.hands[SEAT_CAT]) == DECK.texts(sum(1 << order[k] for k in range(0, 21, 3)))
    assert GAME.view(after, None)["stock"] == 52 - 25


def test_kings_corner_blocked_penalty_hand_charges_everyone() -> None:
    state = position(players=2, hands=[["K-clubs", "7-hearts"], ["8-hearts"]], idle_streak=1,
                     options={"scoring": "penalty", "penalty_limit": 5, "king_compulsory": False})
    after, events = GAME.apply(state, SEAT_ANN, END)
    assert [e.data["type"] for e in events] == ["turn_ended", "blocked", "hand_over", "game_over"]
    assert events[2].data["penalties"] == [11, 1]
    assert after.totals == (11, 1)
    result = GAME.outcome(after)
    assert result is not None and result.winners == (SEAT_BOB,) and result.placements == (2, 1)


def test_kings_corner_idle_streak_counts_only_with_an_empty_stock() -> None:
    state = position(hands=[["A-spades"], ["A-hearts"], ["A-diamonds"]], stock=["3-clubs", "3-spades", "4-clubs"])
    for seat in (SEAT_ANN, SEAT_BOB):
        state, _ = GAME.apply(state, seat, END)
        assert state.idle_streak == 0
    state, _ = GAME.apply(state, SEAT_CAT, END)  # Cat draws the last card: the stock is empty when her turn ends
    assert state.idle_streak == 1
    state, _ = GAME.apply(state, SEAT_ANN, END)
    assert state.idle_streak == 2 and state.phase is Phase.ACTING


def test_kings_corner_draw_until_playable_ends_the_turn_when_the_stock_runs_out() -> None:
    state = position(hands=[["A-spades"], ["A-hearts"], ["A-diamonds"]], piles=FULL_SIDES,
                     stock=["4-clubs", "2-diamonds"], options={"pass_rule": "draw_until_playable"})
    after, events = GAME.apply(state, SEAT_ANN, END)
    assert [e.data["type"] for e in events] == ["drew", "turn_ended"]
    assert events[0].for_seat(SEAT_ANN)["cards"] == ["4-clubs", "2-diamonds"]
    assert after.turn == SEAT_BOB and len(after.stock) == 0


def test_kings_corner_draw_until_playable_stops_at_a_king_which_must_be_placed() -> None:
    state = position(hands=[["A-spades"], ["A-hearts"], ["A-diamonds"]], piles={**FULL_SIDES, "NE": ["K-clubs"]},
                     stock=["4-clubs", "K-hearts", "5-spades"], options={"pass_rule": "draw_until_playable"})
    after, _ = GAME.apply(state, SEAT_ANN, END)
    assert after.phase is Phase.MUST_PLAY
    assert [a["corner"] for a in GAME.legal_actions(after, SEAT_ANN)] == ["SE", "SW", "NW"]
    assert GAME.view(after, SEAT_ANN)["must_play"] == "K-hearts"
    assert GAME.view(after, SEAT_BOB)["must_play"] is None


# views and helpers --------------------------------------------------------------------------

def test_kings_corner_view_shows_own_hand_counts_and_board_only() -> None:
    state = GAME.new_game({"first_dealer": "seat:2"}, 3, "view")
    view = GAME.view(state, SEAT_ANN)
    assert view["hand"] == DECK.texts(state.hands[SEAT_ANN])
    assert view["hand_counts"] == [7, 7, 7] and view["stock"] == 27
    assert view["turn"] == SEAT_ANN and view["legal"] == GAME.legal_actions(state, SEAT_ANN)
    assert {s["name"] for s in view["settings"]} >= {"draw_timing", "scoring", "penalty_limit"}
    spectator = GAME.view(state, None)
    assert "hand" not in spectator and "legal" not in spectator
    assert [e["type"] for e in spectator["recent"]] == ["dealt", "dealt", "dealt", "laid_out"]


def test_kings_corner_view_recent_keeps_the_last_turn_and_the_current_one() -> None:
    state = position(hands=[["8-hearts", "2-clubs"], ["A-hearts"], ["A-diamonds"]], piles={"N": ["9-spades"]},
                     stock=["3-hearts", "4-hearts"])
    state, _ = GAME.apply(state, SEAT_ANN, {"type": "build", "card": "8-hearts", "space": "N"})
    state, _ = GAME.apply(state, SEAT_ANN, END)
    recent = GAME.view(state, SEAT_CAT)["recent"]
    assert [e["type"] for e in recent] == ["built", "drew", "turn_ended"]
    assert "cards" not in recent[1]
    state, _ = GAME.apply(state, SEAT_BOB, END)
    assert [e["type"] for e in GAME.view(state, SEAT_CAT)["recent"]] == ["drew", "turn_ended"]


def test_kings_corner_idle_action_places_kings_in_corner_order_before_ending() -> None:
    state = position(hands=[["K-hearts", "K-spades", "7-clubs"]], piles={"NE": ["K-clubs"]})
    assert idle_action(state, SEAT_ANN) == {"type": "place_king", "card": "K-hearts", "corner": "SE"}
    assert idle_action(state, SEAT_BOB) is None
    free = position(hands=[["K-hearts", "7-clubs"]], options={"king_compulsory": False})
    assert idle_action(free, SEAT_ANN) == END
