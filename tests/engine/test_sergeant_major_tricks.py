"""Sergeant Major trick winners and legal plays: sergeant_major/RULES.md §7.1 (S1-S9) and §7.2 (L1-L4)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.games.sergeant_major import GAME, trick_winner
from engine.games.sergeant_major.stacked import playing
from tests.builders import SEAT_ANN, SEAT_BOB, SEAT_CAT, of_type
from tests.builders import sm_act as act


def test_trick_winner_s1_highest_of_suit_led_when_all_follow() -> None:
    assert trick_winner(["10-spades", "Q-spades", "4-spades"], "hearts") == 1


def test_trick_winner_s2_lowest_trump_beats_ace_led() -> None:
    assert trick_winner(["K-clubs", "2-hearts", "A-clubs"], "hearts") == 1


def test_trick_winner_s3_higher_trump_overruffs() -> None:
    assert trick_winner(["7-diamonds", "9-hearts", "J-hearts"], "hearts") == 2


def test_trick_winner_s4_offsuit_card_never_wins() -> None:
    assert trick_winner(["A-diamonds", "K-clubs", "3-diamonds"], "spades") == 0


def test_trick_winner_s5_trump_led_offsuit_ace_is_worthless() -> None:
    assert trick_winner(["5-diamonds", "A-spades", "6-diamonds"], "diamonds") == 2


def test_trick_winner_s6_no_trump_highest_of_suit_led() -> None:
    assert trick_winner(["5-hearts", "K-spades", "10-hearts"], None) == 2


def test_trick_winner_s7_no_trump_offsuit_aces_lose() -> None:
    assert trick_winner(["2-clubs", "A-diamonds", "A-spades"], None) == 0


def test_trick_winner_s8_two_trumps_higher_wins() -> None:
    assert trick_winner(["Q-hearts", "3-clubs", "2-clubs"], "clubs") == 1


def test_trick_winner_s9_misere_leader_takes_unwanted_trick() -> None:
    assert trick_winner(["9-spades", "8-spades", "J-diamonds"], None) == 0


def test_trick_winner_refuses_a_repeated_card() -> None:
    with pytest.raises(IllegalAction) as refused:
        trick_winner(["9-spades", "9-spades"], None)
    assert refused.value.code == "bad_trick"


def test_legal_play_l1_must_follow_suit() -> None:
    state = playing({SEAT_ANN: ["10-spades"], SEAT_BOB: ["3-spades", "A-hearts"]}, "hearts", [(SEAT_ANN, "10-spades")])
    assert [a["card"] for a in GAME.legal_actions(state, SEAT_BOB)] == ["3-spades"]
    assert GAME.view(state, SEAT_BOB)["legal"] == ["3-spades"]
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_BOB, {"type": "play", "card": "A-hearts"})
    assert refused.value.code == "must_follow_suit"


def test_legal_play_l2_no_duty_to_trump() -> None:
    hands = {SEAT_ANN: ["10-spades"], SEAT_BOB: ["A-hearts", "2-diamonds"]}
    state = playing(hands, "hearts", [(SEAT_ANN, "10-spades")])
    legal = [a["card"] for a in GAME.legal_actions(state, SEAT_BOB)]
    assert "A-hearts" in legal and "2-diamonds" in legal
    assert not any(card.endswith("spades") for card in GAME.view(state, SEAT_BOB)["hand"])
    assert len(legal) == 16  # void in spades: the whole hand
    act(state, SEAT_BOB, {"type": "play", "card": "2-diamonds"})


def test_legal_play_l3_no_duty_to_overtrump() -> None:
    state = playing(
        {SEAT_ANN: ["7-diamonds"], SEAT_BOB: ["9-hearts"], SEAT_CAT: ["J-hearts", "4-clubs"]},
        "hearts", [(SEAT_ANN, "7-diamonds"), (SEAT_BOB, "9-hearts")], options={}, dealer=SEAT_CAT,
    )
    legal = [a["card"] for a in GAME.legal_actions(state, SEAT_CAT)]
    assert "J-hearts" in legal and "4-clubs" in legal
    after, events = act(state, SEAT_CAT, {"type": "play", "card": "4-clubs"})
    assert after.tricks == (0, 1, 0) and after.turn == SEAT_BOB
    assert of_type(events, "trick_won")[0]["seat"] == SEAT_BOB


def test_legal_play_l4_trump_led_must_follow_with_trump() -> None:
    hands = {SEAT_BOB: ["5-diamonds"], SEAT_CAT: ["6-diamonds", "A-spades"]}
    state = playing(hands, "diamonds", [(SEAT_BOB, "5-diamonds")])
    assert [a["card"] for a in GAME.legal_actions(state, SEAT_CAT)] == ["6-diamonds"]
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_CAT, {"type": "play", "card": "A-spades"})
    assert refused.value.code == "must_follow_suit"
