"""Sergeant Major card exchange: sergeant_major/RULES.md §4 and §7.4 (X1-X10)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import IllegalAction
from engine.core.events import for_seat
from engine.games.sergeant_major import GAME, Phase
from engine.games.sergeant_major.stacked import stacked
from engine.games.sergeant_major.state import SMState
from tests.builders import SEAT_ANN, SEAT_BOB, SEAT_CAT, hand_of, of_type
from tests.builders import sm_act as act

RECEIVER_LAST = (SEAT_ANN, SEAT_CAT, "kitty", SEAT_BOB)  # Bob gets only the cards left over (spades, here)
RECEIVER_FIRST = (SEAT_BOB, SEAT_ANN, SEAT_CAT, "kitty")  # Bob gets the hearts


def hand2(ann: list[str], bob: list[str], *, prev: tuple[int, int, int] = (2, -2, 0), fill: Any = RECEIVER_LAST,
          kitty: list[str] | None = None, **options: Any) -> SMState:
    """Hand 2 with Bob dealing after Ann went up and Bob down in hand 1 (§7.4 setting)."""
    state, _ = stacked(options, hands={SEAT_ANN: ann, SEAT_BOB: bob}, kitty=kitty or [], dealer=SEAT_BOB, hand_no=2,
                       prev_result=prev, fill=fill)
    return state


def give(state: SMState, cards: list[str]) -> tuple[SMState, list[Any]]:
    return act(state, SEAT_ANN, {"type": "give", "cards": cards})


def test_exchange_x1_highest_of_suit_returned_or_own_card_back() -> None:
    state = hand2(["4-clubs", "9-hearts"], ["K-clubs", "7-clubs", "2-clubs", "6-hearts", "3-hearts"])
    assert state.phase is Phase.EXCHANGE and GAME.to_act(state) == {SEAT_ANN}
    assert GAME.view(state, SEAT_ANN)["choose"]["count"] == 2
    after, events = give(state, ["4-clubs", "9-hearts"])
    assert of_type(events, "returned")[0]["cards"] == ["9-hearts", "K-clubs"]
    assert {"K-clubs", "9-hearts"} <= hand_of(after, SEAT_ANN) and "4-clubs" not in hand_of(after, SEAT_ANN)
    assert "4-clubs" in hand_of(after, SEAT_BOB) and "K-clubs" not in hand_of(after, SEAT_BOB)
    assert [len(hand_of(after, s)) for s in (SEAT_ANN, SEAT_BOB, SEAT_CAT)] == [16, 16, 16]
    assert after.phase is Phase.TRUMP and GAME.to_act(after) == {SEAT_BOB}


@pytest.mark.parametrize(("ace", "back"), [("low", "Q-spades"), ("high", "A-spades")])
def test_exchange_x2_ace_setting_decides_the_return(ace: str, back: str) -> None:
    state = hand2(["5-spades"], ["A-spades", "Q-spades", "8-spades"], prev=(1, -1, 0), fill=RECEIVER_FIRST,
                  exchange_ace=ace)
    _, events = give(state, ["5-spades"])
    assert of_type(events, "returned")[0]["cards"] == [back]


@pytest.mark.parametrize(("ace", "back"), [("low", "J-diamonds"), ("high", "A-diamonds")])
def test_exchange_x3_low_ace_is_not_higher_than_the_jack(ace: str, back: str) -> None:
    state = hand2(["J-diamonds"], ["A-diamonds", "3-diamonds"], prev=(1, -1, 0), exchange_ace=ace)
    assert {c for c in hand_of(state, SEAT_BOB) if c.endswith("diamonds")} == {"A-diamonds", "3-diamonds"}
    _, events = give(state, ["J-diamonds"])
    assert of_type(events, "returned")[0]["cards"] == [back]


def test_exchange_x4_void_receiver_returns_the_given_card() -> None:
    state = hand2(["7-spades"], [], prev=(1, -1, 0), fill=RECEIVER_FIRST)
    assert not any(c.endswith("spades") for c in hand_of(state, SEAT_BOB))
    after, events = give(state, ["7-spades"])
    assert of_type(events, "returned")[0]["cards"] == ["7-spades"]
    assert after.hands == state.hands


def test_exchange_x5_two_cards_of_one_suit_take_the_two_highest() -> None:
    state = hand2(["3-hearts", "5-hearts"], ["K-hearts", "10-hearts", "4-hearts"])
    after, events = give(state, ["3-hearts", "5-hearts"])
    assert of_type(events, "returned")[0]["cards"] == ["10-hearts", "K-hearts"]
    assert {c for c in hand_of(after, SEAT_BOB) if c.endswith("hearts")} == {"5-hearts", "4-hearts", "3-hearts"}


def test_exchange_x6_given_card_comes_back_with_the_receivers_lower_one() -> None:
    state = hand2(["3-hearts", "5-hearts"], ["4-hearts"])
    after, events = give(state, ["3-hearts", "5-hearts"])
    assert of_type(events, "returned")[0]["cards"] == ["4-hearts", "5-hearts"]
    assert {c for c in hand_of(after, SEAT_BOB) if c.endswith("hearts")} == {"3-hearts"}


def test_exchange_x7_two_up_players_higher_new_target_first() -> None:
    state, _ = stacked(dealer=SEAT_BOB, hand_no=2, prev_result=(1, 1, -2))
    assert state.deal.targets == (3, 8, 5)
    assert state.deal.transfers == ((SEAT_BOB, SEAT_CAT, 1), (SEAT_ANN, SEAT_CAT, 1))
    assert GAME.to_act(state) == {SEAT_BOB}
    after, _ = act(state, SEAT_BOB, GAME.legal_actions(state, SEAT_BOB)[0])
    assert after.phase is Phase.EXCHANGE and GAME.to_act(after) == {SEAT_ANN}


@pytest.mark.parametrize(("bleed", "order"), [(False, ((SEAT_ANN, SEAT_CAT, 1), (SEAT_ANN, SEAT_BOB, 1))),
                                              (True, ((SEAT_ANN, SEAT_BOB, 1), (SEAT_ANN, SEAT_CAT, 1)))])
def test_exchange_x8_one_up_two_down_lower_new_target_first(bleed: bool, order: Any) -> None:
    state, _ = stacked({"woburn_max_bleed": bleed}, dealer=SEAT_BOB, hand_no=2, prev_result=(2, -1, -1))
    assert state.deal.transfers == order


@pytest.mark.parametrize(("kitty_club", "ace", "shown"), [
    ("Q-clubs", "low", ["Q-clubs"]),
    ("A-clubs", "low", []),
    ("A-clubs", "high", ["A-clubs"]),
])
def test_exchange_x9_dealer_reveals_higher_kitty_cards_to_the_giver(kitty_club: str, ace: str,
                                                                      shown: list[str]) -> None:
    state = hand2(["4-clubs", "9-hearts"], ["10-clubs", "7-clubs", "2-clubs", "6-hearts", "3-hearts"],
                  kitty=[kitty_club, "6-clubs", "2-hearts", "9-spades"], exchange_ace=ace)
    state, events = give(state, ["4-clubs", "9-hearts"])
    assert of_type(events, "returned")[0]["cards"] == ["9-hearts", "10-clubs"]
    state, _ = act(state, SEAT_BOB, {"type": "name_trump", "suit": "spades"})
    spades = [c for c in GAME.view(state, SEAT_BOB)["hand"] if c.endswith("spades")][:4]
    state, events = act(state, SEAT_BOB, {"type": "discard", "cards": spades})
    assert of_type(events, "kitty_shown", SEAT_ANN)[0]["cards"] == shown
    assert "cards" not in of_type(events, "kitty_shown", SEAT_CAT)[0]
    assert GAME.view(state, SEAT_ANN)["shown"] == shown
    assert GAME.view(state, SEAT_CAT)["shown"] == []


def test_exchange_x10_no_exchange_in_hand_one_and_none_for_a_player_at_zero() -> None:
    first = GAME.new_game({"first_dealer": "seat:0"}, 3, "x10")
    assert first.phase is Phase.TRUMP and first.deal.transfers == ()
    state = hand2(["4-clubs", "9-hearts"], ["K-clubs", "7-clubs", "2-clubs", "6-hearts", "3-hearts"])
    assert state.deal.transfers == ((SEAT_ANN, SEAT_BOB, 2),)
    after, events = give(state, ["4-clubs", "9-hearts"])
    assert after.hands[SEAT_CAT] == state.hands[SEAT_CAT]
    seen_by_cat = for_seat(events, SEAT_CAT)
    assert seen_by_cat == [{"type": "gave", "seat": SEAT_ANN, "to": SEAT_BOB, "count": 2},
                           {"type": "returned", "seat": SEAT_BOB, "to": SEAT_ANN, "count": 2}]
    assert "gave" not in GAME.view(after, SEAT_CAT)["exchanges"][0]
    assert GAME.view(after, SEAT_ANN)["exchanges"][0]["gave"] == ["9-hearts", "4-clubs"]


def test_exchange_refuses_the_wrong_number_of_cards() -> None:
    state = hand2(["4-clubs", "9-hearts"], [])
    with pytest.raises(IllegalAction) as refused:
        give(state, ["4-clubs"])
    assert refused.value.code == "bad_count"


def test_exchange_refuses_a_card_not_in_hand() -> None:
    state = hand2(["4-clubs"], ["K-clubs"])
    with pytest.raises(IllegalAction) as refused:
        give(state, ["4-clubs", "K-clubs"])
    assert refused.value.code == "card_not_in_hand"
