"""Kings in the Corner: every worked example of kings_corner/RULES.md §7 (K1–K31), one test each.

Players, clockwise: Ann (seat 0), Bob (seat 1), Cat (seat 2). Situations are built directly
with ``position``; expected results come from the spec text.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.games.kings_corner import GAME, KingsState, Phase, position
from engine.games.kings_corner.board import DECK, FITS_ON
from engine.games.kings_corner.deal import corner_layout_kings, high_card_first
from tests.builders import SEAT_ANN, SEAT_BOB, SEAT_CAT

FILLER = ["2-clubs", "2-spades"]  # cards that fit nowhere in these examples, so nobody goes out by accident


def in_order(*cards: str) -> list[str]:
    """Card names in the order a view lists a hand (deck order)."""
    return sorted(cards, key=DECK.parse)


def piles(state: KingsState) -> dict[str, list[str]]:
    view: dict[str, list[str]] = GAME.view(state, None)["piles"]
    return view


def hand(state: KingsState, seat: int) -> list[str]:
    cards: list[str] = GAME.view(state, seat)["hand"]
    return cards


def refused(state: KingsState, seat: int, action: dict[str, Any]) -> str:
    """The refusal code, after checking that the action is also absent from the legal list."""
    assert action not in GAME.legal_actions(state, seat)
    before = GAME.view(state, seat)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    assert GAME.view(state, seat) == before
    return info.value.code


def legal(state: KingsState, seat: int, action: dict[str, Any]) -> tuple[KingsState, list[Event]]:
    """Apply an action after checking it is listed as legal."""
    assert action in GAME.legal_actions(state, seat)
    return GAME.apply(state, seat, action)


def build(card: str, space: str) -> dict[str, Any]:
    return {"type": "build", "card": card, "space": space}


def types(events: list[Event]) -> list[str]:
    return [e.data["type"] for e in events]


END = {"type": "end_turn"}


# 7.1 Building (A1) ---------------------------------------------------------------

def test_k1_build_red_three_on_black_four_is_legal() -> None:
    state = position(hands=[["3-diamonds", "3-hearts", *FILLER]], piles={"N": ["4-clubs"]}, stock=["9-clubs"])
    after, events = legal(state, SEAT_ANN, build("3-diamonds", "N"))
    assert piles(after)["N"] == ["4-clubs", "3-diamonds"]
    assert "3-diamonds" not in hand(after, SEAT_ANN)
    assert events[0].data == {"type": "built", "seat": SEAT_ANN, "card": "3-diamonds", "space": "N"}
    after, _ = legal(state, SEAT_ANN, build("3-hearts", "N"))
    assert piles(after)["N"] == ["4-clubs", "3-hearts"]


def test_k2_build_same_colour_is_rejected() -> None:
    state = position(hands=[["3-clubs", *FILLER]], piles={"N": ["4-spades"]})
    assert refused(state, SEAT_ANN, build("3-clubs", "N")) == "does_not_fit"


def test_k3_build_must_be_exactly_one_lower() -> None:
    state = position(hands=[["2-diamonds", "5-diamonds", *FILLER]], piles={"N": ["4-clubs"]})
    assert refused(state, SEAT_ANN, build("2-diamonds", "N")) == "does_not_fit"
    assert refused(state, SEAT_ANN, build("5-diamonds", "N")) == "does_not_fit"


def test_k4_ace_goes_on_two_and_closes_the_pile() -> None:
    state = position(hands=[["A-hearts", "2-clubs"]], piles={"W": ["3-diamonds", "2-spades"]})
    after, _ = legal(state, SEAT_ANN, build("A-hearts", "W"))
    assert piles(after)["W"] == ["3-diamonds", "2-spades", "A-hearts"]
    assert FITS_ON[DECK.parse("A-hearts")] == 0
    assert not [a for a in GAME.legal_actions(after, SEAT_ANN) if a.get("space") == "W"]


def test_k5_nothing_builds_on_an_ace() -> None:
    cards = ["A-clubs", "2-hearts", "3-clubs", "K-spades", "Q-hearts", "7-diamonds"]
    state = position(hands=[cards], piles={"W": ["2-spades", "A-hearts"]}, options={"king_compulsory": False})
    for card in cards:
        assert refused(state, SEAT_ANN, build(card, "W")) == "does_not_fit"


def test_k6_corner_king_takes_a_red_queen_only() -> None:
    state = position(hands=[["Q-diamonds", "Q-clubs", "J-hearts", *FILLER]], piles={"NE": ["K-clubs"]})
    after, _ = legal(state, SEAT_ANN, build("Q-diamonds", "NE"))
    assert piles(after)["NE"] == ["K-clubs", "Q-diamonds"]
    assert refused(state, SEAT_ANN, build("Q-clubs", "NE")) == "does_not_fit"
    assert refused(state, SEAT_ANN, build("J-hearts", "NE")) == "does_not_fit"


# 7.2 Kings and corners (A2, A5, A6) ------------------------------------------------

def test_k7_king_placed_on_empty_corner() -> None:
    state = position(hands=[["K-spades", *FILLER]])
    after, events = legal(state, SEAT_ANN, {"type": "place_king", "card": "K-spades", "corner": "NE"})
    assert piles(after)["NE"] == ["K-spades"]
    assert events[0].data == {"type": "king_placed", "seat": SEAT_ANN, "card": "K-spades", "corner": "NE"}


def test_k8_only_kings_start_corners() -> None:
    state = position(hands=[["Q-hearts", *FILLER]])
    assert refused(state, SEAT_ANN, build("Q-hearts", "NE")) == "space_empty"
    assert refused(state, SEAT_ANN, {"type": "place_king", "card": "Q-hearts", "corner": "NE"}) == "not_a_king"


def test_k9_end_turn_refused_while_holding_a_king_when_compulsory() -> None:
    state = position(hands=[["K-diamonds", "7-clubs"], ["5-hearts"], ["6-hearts"]], stock=["9-hearts", "9-spades"])
    assert refused(state, SEAT_ANN, END) == "king_must_be_placed"
    state, _ = legal(state, SEAT_ANN, {"type": "place_king", "card": "K-diamonds", "corner": "SE"})
    after, events = legal(state, SEAT_ANN, END)
    assert hand(after, SEAT_ANN) == in_order("7-clubs", "9-hearts")
    assert GAME.view(after, None)["stock"] == 1
    assert after.turn == SEAT_BOB
    assert types(events) == ["drew", "turn_ended"]


def test_k10_end_turn_keeps_the_king_when_optional() -> None:
    state = position(hands=[["K-diamonds", "7-clubs"], ["5-hearts"], ["6-hearts"]], stock=["9-hearts"],
                     options={"king_compulsory": False})
    after, _ = legal(state, SEAT_ANN, END)
    assert "K-diamonds" in hand(after, SEAT_ANN)
    assert after.turn == SEAT_BOB


def test_k11_layout_king_moves_to_a_corner_then_side_is_filled() -> None:
    state = position(hands=[["9-hearts", *FILLER]], piles={"N": ["K-spades"], "E": ["5-hearts"], "S": ["8-hearts"],
                                                           "W": ["J-diamonds"]})
    after, events = legal(state, SEAT_ANN, {"type": "move_king_pile", "side": "N", "corner": "SW"})
    assert piles(after)["SW"] == ["K-spades"]
    assert piles(after)["N"] == []
    assert events[0].data["type"] == "pile_moved"
    after, _ = legal(after, SEAT_ANN, {"type": "fill_side", "card": "9-hearts", "side": "N"})
    assert piles(after)["N"] == ["9-hearts"]


def test_k12_layout_kings_go_to_corners_automatically() -> None:
    sides = [DECK.parse(c) for c in ("K-spades", "4-clubs", "K-hearts", "10-diamonds")]
    stock = tuple(DECK.parse(c) for c in ("7-diamonds", "9-clubs", "3-hearts"))
    board, rest, moved = corner_layout_kings(sides, stock)
    names = [DECK.texts(sum(1 << c for c in pile)) for pile in board]
    assert names == [["7-diamonds"], ["4-clubs"], ["9-clubs"], ["10-diamonds"], ["K-spades"], ["K-hearts"], [], []]
    assert rest == (DECK.parse("3-hearts"),)
    assert moved == [(0, 4), (2, 5)]


# 7.3 Pile moves (A4) and empty sides (A3) -----------------------------------------

K13_PILES = {"N": ["9-spades", "8-hearts"], "E": ["7-clubs", "6-diamonds"], "S": ["8-diamonds", "7-spades"]}


def test_k13_move_pile_onto_fitting_top() -> None:
    state = position(hands=[["5-clubs", "K-diamonds", *FILLER]], piles=K13_PILES, options={"king_compulsory": False})
    after, _ = legal(state, SEAT_ANN, {"type": "move_pile", "src": "E", "dst": "N"})
    assert piles(after)["N"] == ["9-spades", "8-hearts", "7-clubs", "6-diamonds"]
    assert piles(after)["E"] == []


def test_k14_move_pile_refused_when_bottom_does_not_fit() -> None:
    state = position(hands=[FILLER], piles={"N": ["9-spades", "8-hearts"], "E": ["7-hearts", "6-spades"]})
    assert refused(state, SEAT_ANN, {"type": "move_pile", "src": "E", "dst": "N"}) == "does_not_fit"


def test_k15_no_partial_pile_moves() -> None:
    state = position(hands=[FILLER], piles=K13_PILES)
    assert refused(state, SEAT_ANN, build("6-diamonds", "S")) == "no_partial_moves"
    partial = {"type": "move_pile", "src": "E", "dst": "S", "card": "6-diamonds"}
    assert refused(state, SEAT_ANN, partial) == "no_partial_moves"


def test_k16_side_pile_moves_onto_a_corner_pile() -> None:
    board = {"NE": ["K-hearts", "Q-spades", "J-diamonds"], "W": ["10-clubs", "9-hearts"]}
    state = position(hands=[FILLER], piles=board)
    after, _ = legal(state, SEAT_ANN, {"type": "move_pile", "src": "W", "dst": "NE"})
    assert len(piles(after)["NE"]) == 5
    assert piles(after)["W"] == []


def test_k17_corner_pile_never_moves() -> None:
    state = position(hands=[FILLER], piles={"NE": ["K-hearts", "Q-spades"], "S": ["2-hearts"]})
    assert refused(state, SEAT_ANN, {"type": "move_pile", "src": "NE", "dst": "S"}) == "corner_cannot_move"


def test_k18_empty_side_filled_from_hand_but_not_with_a_king_by_default() -> None:
    state = position(hands=[["5-clubs", "K-diamonds", *FILLER]], piles=K13_PILES, options={"king_compulsory": False})
    state, _ = legal(state, SEAT_ANN, {"type": "move_pile", "src": "E", "dst": "N"})
    after, _ = legal(state, SEAT_ANN, {"type": "fill_side", "card": "5-clubs", "side": "E"})
    assert piles(after)["E"] == ["5-clubs"]
    assert refused(state, SEAT_ANN, {"type": "fill_side", "card": "K-diamonds", "side": "E"}) == "kings_go_to_corners"

    lenient = position(hands=[["5-clubs", "K-diamonds", *FILLER]], piles=K13_PILES,
                       options={"king_compulsory": False, "king_on_empty_side": True})
    lenient, _ = legal(lenient, SEAT_ANN, {"type": "move_pile", "src": "E", "dst": "N"})
    after, _ = legal(lenient, SEAT_ANN, {"type": "fill_side", "card": "K-diamonds", "side": "E"})
    assert piles(after)["E"] == ["K-diamonds"]


def test_k19_pile_never_moves_onto_an_empty_side() -> None:
    state = position(hands=[FILLER], piles={"N": ["9-spades", "8-hearts"]})
    assert refused(state, SEAT_ANN, {"type": "move_pile", "src": "N", "dst": "E"}) == "space_empty"


def test_k20_layout_cards_that_fit_may_be_joined_by_the_first_player() -> None:
    state = position(hands=[["4-spades", *FILLER]], piles={"N": ["8-clubs"], "E": ["7-hearts"], "S": ["Q-hearts"],
                                                          "W": ["10-spades"]}, dealer=SEAT_CAT)
    assert state.turn == SEAT_ANN
    after, _ = legal(state, SEAT_ANN, {"type": "move_pile", "src": "E", "dst": "N"})
    assert piles(after)["N"] == ["8-clubs", "7-hearts"]
    assert piles(after)["E"] == []
    assert {"type": "fill_side", "card": "4-spades", "side": "E"} in GAME.legal_actions(after, SEAT_ANN)


# 7.4 Drawing and the stock ---------------------------------------------------------

def stock_of(n: int, *used: str) -> list[str]:
    """``n`` stock cards, none of them ``used``."""
    taken = {DECK.parse(c) for c in used}
    return [DECK.text(c) for c in range(DECK.size) if c not in taken][:n]


def test_k21_end_of_turn_draws_one_card() -> None:
    stock = stock_of(20, "A-spades", "A-hearts", "A-diamonds")
    state = position(hands=[["A-spades"], ["A-hearts"], ["A-diamonds"]], stock=stock)
    after, events = legal(state, SEAT_ANN, END)
    assert GAME.view(after, None)["stock"] == 19
    assert hand(after, SEAT_ANN) == in_order("A-spades", stock[0])
    assert after.turn == SEAT_BOB
    drew = events[0]
    assert drew.for_seat(SEAT_ANN) == {"type": "drew", "seat": SEAT_ANN, "cards": [stock[0]], "count": 1, "stock": 19}
    assert drew.for_seat(SEAT_BOB) == {"type": "drew", "seat": SEAT_ANN, "count": 1, "stock": 19}


def test_k22_draw_two_takes_only_the_last_card() -> None:
    state = position(hands=[["A-spades"], ["A-hearts"], ["A-diamonds"]], stock=["9-clubs"], options={"draw_count": 2})
    after, _ = legal(state, SEAT_ANN, END)
    assert hand(after, SEAT_ANN) == in_order("9-clubs", "A-spades")
    assert GAME.view(after, None)["stock"] == 0


def test_k23_empty_stock_no_draw_and_idle_streak_resets_after_playing() -> None:
    state = position(hands=[["A-spades"], ["8-hearts", "7-clubs", "2-clubs"], ["A-diamonds"]],
                     piles={"N": ["9-spades"]}, turn=SEAT_BOB, idle_streak=2)
    state, _ = legal(state, SEAT_BOB, build("8-hearts", "N"))
    state, _ = legal(state, SEAT_BOB, build("7-clubs", "N"))
    after, events = legal(state, SEAT_BOB, END)
    assert "drew" not in types(events)
    assert after.idle_streak == 0
    assert hand(after, SEAT_BOB) == ["2-clubs"]
    assert after.turn == SEAT_CAT


def test_k24_draw_until_playable_must_play_then_draws_one_more() -> None:
    board = {"N": ["9-spades"], "E": ["6-diamonds"], "S": ["J-hearts"], "W": ["3-clubs"],
             "NE": ["K-clubs", "Q-hearts"], "SE": ["K-diamonds"]}
    stock = ["4-spades", "10-spades", "K-hearts", "4-hearts"]
    opts = {"pass_rule": "draw_until_playable"}
    state = position(hands=[["A-spades"], ["A-hearts"], ["2-clubs"]], piles=board, stock=stock, turn=SEAT_CAT,
                     options=opts)
    state, events = legal(state, SEAT_CAT, END)
    assert state.phase is Phase.MUST_PLAY and state.turn == SEAT_CAT
    assert events[0].for_seat(SEAT_CAT)["cards"] == ["4-spades", "10-spades"]
    assert GAME.legal_actions(state, SEAT_CAT) == [build("10-spades", "S")]
    assert refused(state, SEAT_CAT, END) == "must_play_drawn"
    assert refused(state, SEAT_CAT, build("2-clubs", "W")) == "must_play_drawn"
    state, events = legal(state, SEAT_CAT, build("10-spades", "S"))
    assert types(events) == ["built", "drew", "turn_ended"]
    assert hand(state, SEAT_CAT) == in_order("2-clubs", "K-hearts", "4-spades")
    assert state.turn == SEAT_ANN
    assert GAME.view(state, None)["stock"] == 1
    state, _ = GAME.apply(state, SEAT_ANN, END)
    state, _ = GAME.apply(state, SEAT_BOB, END)
    assert state.turn == SEAT_CAT
    assert refused(state, SEAT_CAT, END) == "king_must_be_placed"

    plain = position(hands=[["A-spades"], ["A-hearts"], ["2-clubs"]], piles=board, stock=stock, turn=SEAT_CAT)
    after, _ = legal(plain, SEAT_CAT, END)
    assert hand(after, SEAT_CAT) == in_order("2-clubs", "4-spades")
    assert after.turn == SEAT_ANN


def test_k25_draw_at_start_of_turn_and_not_at_end() -> None:
    state = position(hands=[["A-spades"], ["A-hearts"], ["A-diamonds"]],
                     stock=stock_of(20, "A-spades", "A-hearts", "A-diamonds"), options={"draw_timing": "start"})
    state, events = legal(state, SEAT_ANN, END)
    assert types(events) == ["turn_ended", "drew"]
    assert events[1].data["seat"] == SEAT_BOB
    assert state.turn == SEAT_BOB
    assert len(hand(state, SEAT_BOB)) == 2 and len(hand(state, SEAT_ANN)) == 1
    assert GAME.view(state, None)["stock"] == 19
    state, _ = legal(state, SEAT_BOB, END)
    assert len(hand(state, SEAT_BOB)) == 2
    assert len(hand(state, SEAT_CAT)) == 2


# 7.5 End of the game ----------------------------------------------------------------

def test_k26_going_out_ends_the_game_at_once() -> None:
    state = position(hands=[["A-spades"], ["8-hearts", "7-clubs"], ["A-diamonds"]], piles={"N": ["9-spades"]},
                     stock=stock_of(19, "A-spades", "8-hearts", "7-clubs", "A-diamonds", "9-spades"), turn=SEAT_BOB)
    state, _ = legal(state, SEAT_BOB, build("8-hearts", "N"))
    after, events = legal(state, SEAT_BOB, build("7-clubs", "N"))
    assert types(events) == ["built", "went_out", "game_over"]
    assert after.phase is Phase.OVER
    assert GAME.to_act(after) == frozenset()
    result = GAME.outcome(after)
    assert result is not None and result.winners == (SEAT_BOB,)
    assert GAME.view(after, None)["stock"] == 19


def test_k27_blocked_fewest_cards_share_the_win() -> None:
    state = position(hands=[["A-spades", "A-hearts"], ["2-clubs", "2-spades", "A-clubs", "A-diamonds"],
                            ["3-clubs", "3-spades"]])
    state, _ = legal(state, SEAT_ANN, END)
    state, _ = legal(state, SEAT_BOB, END)
    after, events = legal(state, SEAT_CAT, END)
    assert types(events) == ["turn_ended", "blocked", "game_over"]
    result = GAME.outcome(after)
    assert result is not None and result.winners == (SEAT_ANN, SEAT_CAT)


def test_k28_completed_corner_is_collected() -> None:
    twelve = ["K-diamonds", "Q-spades", "J-hearts", "10-clubs", "9-diamonds", "8-spades", "7-hearts", "6-clubs",
              "5-diamonds", "4-spades", "3-hearts", "2-clubs"]
    state = position(hands=[["A-hearts", "2-spades"]], piles={"NE": twelve}, options={"scoring": "corners"})
    after, events = legal(state, SEAT_ANN, build("A-hearts", "NE"))
    assert types(events) == ["built", "corner_collected"]
    assert after.collected == (1, 0, 0)
    assert piles(after)["NE"] == []
    assert all("A-hearts" not in pile for pile in piles(after).values())


def test_k29_most_corners_wins_and_going_out_breaks_ties() -> None:
    def bob_goes_out(collected: tuple[int, int, int]) -> tuple[int, ...]:
        state = position(hands=[["A-spades"], ["8-hearts"], ["A-diamonds"]], piles={"N": ["9-spades"]}, turn=SEAT_BOB,
                         collected=collected, options={"scoring": "corners"})
        after, _ = legal(state, SEAT_BOB, build("8-hearts", "N"))
        result = GAME.outcome(after)
        assert result is not None
        return result.winners

    assert bob_goes_out((0, 0, 1)) == (SEAT_CAT,)
    assert bob_goes_out((0, 1, 1)) == (SEAT_BOB,)


def test_k30_penalty_ten_per_king_one_per_card_lowest_total_wins() -> None:
    state = position(hands=[["K-clubs", "7-hearts", "2-spades"], ["8-hearts"],
                            ["2-hearts", "3-hearts", "4-hearts", "5-hearts", "6-hearts"]],
                     piles={"N": ["9-spades"], "NE": ["K-spades"], "SE": ["K-hearts"], "SW": ["K-diamonds"]},
                     turn=SEAT_BOB, totals=(15, 9, 9), options={"scoring": "penalty", "penalty_limit": 25})
    after, events = legal(state, SEAT_BOB, build("8-hearts", "N"))
    assert types(events) == ["built", "went_out", "hand_over", "game_over"]
    assert events[2].data["penalties"] == [12, 0, 5]
    assert after.totals == (27, 9, 14)
    result = GAME.outcome(after)
    assert result is not None and result.winners == (SEAT_BOB,)


def test_k31_high_card_draw_ties_draw_again() -> None:
    script = {1: ["9-clubs", "Q-hearts", "Q-spades"], 2: ["3-diamonds", "J-clubs"]}
    calls: list[tuple[int, tuple[int, ...]]] = []

    def draw(round_no: int, contenders: tuple[int, ...]) -> list[int]:
        calls.append((round_no, contenders))
        return [DECK.parse(c) for c in script[round_no]]

    first, rounds = high_card_first(3, draw)
    assert first == SEAT_CAT
    assert calls == [(1, (SEAT_ANN, SEAT_BOB, SEAT_CAT)), (2, (SEAT_BOB, SEAT_CAT))]
    assert len(rounds) == 2
