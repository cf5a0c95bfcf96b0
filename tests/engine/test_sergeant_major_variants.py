"""Sergeant Major alternate, misère and the other variants: sergeant_major/RULES.md §7.6 (A1-A5), §7.7 (V1-V7)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.games.sergeant_major import GAME, Phase
from engine.games.sergeant_major.stacked import stacked
from tests.builders import SEAT_ANN, SEAT_BOB, SEAT_CAT, finish_hand, hand_of, of_type, win_trick
from tests.builders import sm_act as act

ALT = {"variant": "alternate"}


def test_alternate_a1_suit_call_scores_tricks_minus_target() -> None:
    state, _ = stacked(ALT, dealer=SEAT_ANN)
    assert state.phase is Phase.CALL
    state, events = act(state, SEAT_ANN, {"type": "call", "call": "spades"})
    assert of_type(events, "called")[0]["call"] == "spades"
    assert state.phase is Phase.KITTY and GAME.view(state, SEAT_BOB)["trump"] == "spades"
    after, events = finish_hand(state, SEAT_ANN, (5, 4, 6))
    assert of_type(events, "hand_over")[0]["results"] == [-2, -1, 3]
    assert after.match.totals == (-2, -1, 3)
    assert after.phase is Phase.CALL and after.deal.transfers == ()  # no exchange in alternate


def test_alternate_a2_misere_scores_maximum_minus_tricks() -> None:
    state, _ = stacked(ALT, dealer=SEAT_ANN)
    state, _ = act(state, SEAT_ANN, {"type": "call", "call": "misere"})
    assert state.deal.trump is None and state.deal.targets == (3, 5, 8)
    assert GAME.view(state, SEAT_CAT)["target_kind"] == "maximum"
    _, events = finish_hand(state, SEAT_ANN, (4, 4, 7))
    assert of_type(events, "hand_over")[0]["results"] == [-2, 1, 1]


def test_alternate_a3_misere_under_and_over_the_maximum() -> None:
    state, _ = stacked(ALT, dealer=SEAT_ANN)
    state, _ = act(state, SEAT_ANN, {"type": "call", "call": "misere"})
    _, events = finish_hand(state, SEAT_ANN, (0, 5, 10))
    assert of_type(events, "hand_over")[0]["results"] == [2, 0, -2]


def test_alternate_misere_dealer_names_trump_when_set() -> None:
    state, _ = stacked({**ALT, "misere_trump": "dealer_names"}, dealer=SEAT_ANN)
    state, _ = act(state, SEAT_ANN, {"type": "call", "call": "misere"})
    assert state.phase is Phase.TRUMP
    state, _ = act(state, SEAT_ANN, {"type": "name_trump", "suit": "hearts"})
    assert state.phase is Phase.KITTY and GAME.view(state, SEAT_BOB)["trump"] == "hearts"
    assert state.deal.call == "misere"


def test_alternate_a4_each_call_once() -> None:
    state, _ = stacked(ALT, dealer=SEAT_ANN, calls_used={SEAT_ANN: ["hearts", "no_trump"]})
    calls = [a["call"] for a in GAME.legal_actions(state, SEAT_ANN)]
    assert sorted(calls) == ["clubs", "diamonds", "misere", "spades"]
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_ANN, {"type": "call", "call": "hearts"})
    assert refused.value.code == "call_used"
    sixth, _ = stacked(ALT, dealer=SEAT_ANN, calls_used={SEAT_ANN: ["hearts", "no_trump", "clubs", "spades", "misere"]})
    assert GAME.legal_actions(sixth, SEAT_ANN) == [{"type": "call", "call": "diamonds"}]


@pytest.mark.parametrize(("totals", "winners", "placements"), [
    ((7, -2, -5), (SEAT_ANN,), (1, 2, 3)),
    ((3, 3, -6), (SEAT_ANN, SEAT_BOB), (1, 1, 3)),
])
def test_alternate_a5_game_ends_after_hand_eighteen(totals: tuple[int, int, int], winners: tuple[int, ...],
                                                    placements: tuple[int, ...]) -> None:
    state, _ = stacked(ALT, dealer=SEAT_ANN, hand_no=18, totals=totals,
                       calls_used={SEAT_ANN: ["hearts", "clubs", "diamonds", "no_trump", "misere"]})
    state, _ = act(state, SEAT_ANN, {"type": "call", "call": "spades"})
    after, events = finish_hand(state, SEAT_ANN, (7, 5, 3))
    outcome = GAME.outcome(after)
    assert after.phase is Phase.OVER and outcome is not None
    assert outcome.winners == winners and outcome.placements == placements
    assert of_type(events, "game_over")[0]["totals"] == list(totals)


def test_alternate_goes_on_after_hand_seventeen() -> None:
    state, _ = stacked(ALT, dealer=SEAT_ANN, hand_no=17, totals=(12, -6, -6))
    state, _ = act(state, SEAT_ANN, {"type": "call", "call": "spades"})
    after, _ = finish_hand(state, SEAT_ANN, (7, 5, 3))
    assert after.phase is Phase.CALL and after.match.hand_no == 18


def test_six_three_eight_v1_removed_card_seventeen_each_and_plus_ten_wins() -> None:
    fresh = GAME.new_game({"variant": "six_three_eight"}, 3, "v1")
    assert [len(GAME.view(fresh, s)["hand"]) for s in range(3)] == [17, 17, 17]
    assert all("2-clubs" not in hand_of(fresh, s) for s in range(3)) and fresh.deal.kitty == 0
    assert GAME.view(fresh, SEAT_ANN)["removed_card"] == "2-clubs"
    state, _ = stacked({"variant": "six_three_eight"}, dealer=SEAT_ANN)
    assert state.deal.targets == (8, 6, 3)
    after, events = finish_hand(state, SEAT_ANN, (8, 5, 3))
    assert of_type(events, "hand_over")[0]["results"] == [1, -1, 0]
    assert after.match.totals == (1, -1, 0) and after.phase is not Phase.OVER
    state, _ = stacked({"variant": "six_three_eight"}, dealer=SEAT_ANN, totals=(9, -5, -4))
    after, _ = finish_hand(state, SEAT_ANN, (8, 5, 3))
    assert after.phase is Phase.OVER and after.match.winners == (SEAT_ANN,)


def test_running_score_tie_at_the_top_plays_on_until_one_leads() -> None:
    state, _ = stacked({"variant": "six_three_eight"}, dealer=SEAT_ANN, totals=(9, 10, -19))
    ahead, _ = finish_hand(state, SEAT_ANN, (8, 5, 3))  # Ann (D 8) +1, Bob (E 6) −1, Cat (M 3) 0
    assert ahead.match.totals == (10, 9, -19) and ahead.phase is Phase.OVER
    state, _ = stacked({"variant": "six_three_eight"}, dealer=SEAT_ANN, totals=(9, 11, -20))
    tied, _ = finish_hand(state, SEAT_ANN, (8, 5, 3))
    assert tied.match.totals == (10, 10, -20) and tied.phase is not Phase.OVER and tied.match.overtime
    again, _ = finish_hand(tied, SEAT_CAT, (4, 7, 5))  # dealer Bob 8, Cat E 6, Ann M 3: Ann +1, Bob −1, Cat 0
    assert again.match.totals == (11, 9, -20) and again.match.winners == (SEAT_ANN,)


def test_nine_five_two_v2_targets_and_exchange_order() -> None:
    state, _ = stacked({"variant": "nine_five_two"}, dealer=SEAT_ANN)
    assert state.deal.targets == (9, 5, 2)
    after, events = finish_hand(state, SEAT_BOB, (8, 6, 1))
    assert of_type(events, "hand_over")[0]["results"] == [-1, 2, -1]
    assert sum(after.match.totals) == 0
    assert after.deal.targets == (2, 9, 5)
    assert after.deal.transfers == ((SEAT_BOB, SEAT_ANN, 1), (SEAT_BOB, SEAT_CAT, 1))


@pytest.mark.parametrize(("win_score", "over"), [(10, True), (20, False)])
def test_nine_five_two_win_score(win_score: int, over: bool) -> None:
    state, _ = stacked({"variant": "nine_five_two", "win_score": win_score}, dealer=SEAT_ANN, totals=(9, -4, -5))
    after, _ = finish_hand(state, SEAT_ANN, (9, 5, 1))
    assert (after.phase is Phase.OVER) is over


def test_nine_five_two_variation_v3_minus_fifteen_ends_and_highest_wins() -> None:
    state, _ = stacked({"variant": "nine_five_two_variation"}, dealer=SEAT_ANN, totals=(9, 6, -15))
    assert state.deal.targets == (9, 2, 5)
    after, _ = finish_hand(state, SEAT_ANN, (8, 2, 5))
    assert after.phase is Phase.OVER and after.match.winners == (SEAT_ANN,)


def test_nine_five_two_variation_kitty_give_trump_then_return() -> None:
    state, events = stacked({"variant": "nine_five_two_variation"}, dealer=SEAT_BOB, hand_no=2, prev_result=(2, -1, -1),
                            hands={SEAT_ANN: ["4-clubs", "5-clubs"], SEAT_CAT: ["K-clubs"], SEAT_BOB: ["Q-clubs"]})
    assert state.phase is Phase.KITTY and len(hand_of(state, SEAT_BOB)) == 20
    assert of_type(events, "took_kitty", SEAT_BOB)[0]["cards"]
    state, _ = act(state, SEAT_BOB, GAME.legal_actions(state, SEAT_BOB)[0])
    # new targets Bob 9, Cat 2, Ann 5: the lower target (Cat) is served first
    assert state.phase is Phase.EXCHANGE and state.deal.transfers == ((SEAT_ANN, SEAT_CAT, 1), (SEAT_ANN, SEAT_BOB, 1))
    state, _ = act(state, SEAT_ANN, {"type": "give", "cards": ["4-clubs"]})
    state, _ = act(state, SEAT_ANN, {"type": "give", "cards": ["5-clubs"]})
    assert state.phase is Phase.TRUMP and "5-clubs" not in hand_of(state, SEAT_BOB)
    assert GAME.view(state, SEAT_BOB)["escrow"][1]["gave"] == ["5-clubs"]
    assert "gave" not in GAME.view(state, SEAT_BOB)["escrow"][0]
    state, events = act(state, SEAT_BOB, {"type": "name_trump", "suit": "hearts"})
    assert [e["cards"] for e in of_type(events, "returned", SEAT_ANN)] == [["K-clubs"], ["Q-clubs"]]
    assert {"Q-clubs", "K-clubs"} <= hand_of(state, SEAT_ANN)
    assert "4-clubs" in hand_of(state, SEAT_CAT) and "5-clubs" in hand_of(state, SEAT_BOB)
    assert state.phase is Phase.PLAY


def test_nine_five_two_variation_receiver_never_returns_the_other_givers_card() -> None:
    # §4.4: Cat then Bob give to Ann; Bob's K of Clubs is not Ann's to hand back to Cat
    state, _ = stacked({"variant": "nine_five_two_variation"}, dealer=SEAT_ANN, hand_no=2, prev_result=(-2, 1, 1),
                       hands={SEAT_BOB: ["K-clubs"], SEAT_CAT: ["4-clubs"], SEAT_ANN: ["2-clubs"]})
    state, _ = act(state, SEAT_ANN, {"type": "discard", "cards": GAME.view(state, SEAT_ANN)["kitty"]})
    assert [c for c in hand_of(state, SEAT_ANN) if c.endswith("clubs")] == ["2-clubs"]
    assert state.deal.transfers == ((SEAT_CAT, SEAT_ANN, 1), (SEAT_BOB, SEAT_ANN, 1))  # new targets Ann 9, Bob 2, Cat 5
    state, _ = act(state, SEAT_CAT, {"type": "give", "cards": ["4-clubs"]})
    state, _ = act(state, SEAT_BOB, {"type": "give", "cards": ["K-clubs"]})
    state, events = act(state, SEAT_ANN, {"type": "name_trump", "suit": "hearts"})
    back = {e["to"]: e["cards"] for e in of_type(events, "returned", SEAT_ANN)}
    assert back == {SEAT_CAT: ["4-clubs"], SEAT_BOB: ["K-clubs"]}
    assert "4-clubs" in hand_of(state, SEAT_CAT) and "K-clubs" in hand_of(state, SEAT_BOB)


def test_three_five_nine_v4_discards_are_the_dealers_first_trick() -> None:
    state, _ = stacked({"variant": "three_five_nine_uhs"}, dealer=SEAT_ANN)
    assert state.deal.targets == (9, 5, 3)
    state, events = act(state, SEAT_ANN, {"type": "name_trump", "suit": "hearts"})
    assert of_type(events, "took_kitty", SEAT_ANN) and state.phase is Phase.KITTY
    state, events = act(state, SEAT_ANN, GAME.legal_actions(state, SEAT_ANN)[0])
    assert state.phase is Phase.PLAY and state.tricks == (1, 0, 0) and GAME.to_act(state) == {SEAT_BOB}
    _, events = finish_hand(state, SEAT_ANN, (8, 5, 3))
    over = of_type(events, "hand_over")[0]
    assert over["tricks"] == [9, 5, 3] and over["results"] == [0, 0, 0]


def test_three_five_nine_v5_first_up_trick_decides_passing_order() -> None:
    state, _ = stacked({"variant": "three_five_nine_uhs"}, dealer=SEAT_CAT)
    state, _ = win_trick(state, SEAT_CAT, trick_no=11, tricks=(2, 2, 9))
    assert state.first_up == (-1, -1, 12)
    uhs, _ = stacked({"variant": "three_five_nine_uhs"}, dealer=SEAT_ANN, hand_no=2, prev_result=(-2, 1, 1),
                     prev_first_up=(-1, 14, 12))
    assert uhs.deal.targets == (9, 5, 3)
    assert uhs.deal.transfers == ((SEAT_CAT, SEAT_ANN, 1), (SEAT_BOB, SEAT_ANN, 1))
    classic, _ = stacked(dealer=SEAT_ANN, hand_no=2, prev_result=(-2, 1, 1), prev_first_up=(-1, 14, 12))
    assert classic.deal.transfers == ((SEAT_BOB, SEAT_ANN, 1), (SEAT_CAT, SEAT_ANN, 1))


@pytest.mark.parametrize("face_up", ["Q-spades", "2-clubs", "2-diamonds"])
def test_nine_five_three_v6_two_of_diamonds_swap(face_up: str) -> None:
    hands = {SEAT_CAT: ["2-diamonds"]} if face_up != "2-diamonds" else {}
    state, _ = stacked({"variant": "nine_five_three_single_kitty"}, hands=hands, face_up=face_up, dealer=SEAT_ANN)
    assert GAME.view(state, SEAT_BOB)["face_up"] == face_up and len(hand_of(state, SEAT_CAT)) == 17
    state, _ = act(state, SEAT_ANN, {"type": "name_trump", "suit": "clubs"})
    if face_up != "Q-spades":
        assert state.phase is Phase.PLAY
        return
    assert state.phase is Phase.SWAP and GAME.to_act(state) == {SEAT_CAT}
    state, events = act(state, SEAT_CAT, {"type": "swap"})
    assert of_type(events, "swapped")[0] == {"type": "swapped", "seat": SEAT_CAT, "took": "Q-spades",
                                             "gave": "2-diamonds"}
    assert "Q-spades" in hand_of(state, SEAT_CAT) and "2-diamonds" not in hand_of(state, SEAT_CAT)
    assert GAME.view(state, SEAT_ANN)["face_up"] == "2-diamonds" and state.phase is Phase.PLAY


def test_nine_five_three_swap_may_be_declined() -> None:
    state, _ = stacked({"variant": "nine_five_three_single_kitty"}, hands={SEAT_CAT: ["2-diamonds"]},
                       face_up="Q-spades")
    state, _ = act(state, SEAT_ANN, {"type": "name_trump", "suit": "clubs"})
    kept, _ = act(state, SEAT_CAT, {"type": "decline_swap"})
    assert kept.hands == state.hands and kept.phase is Phase.PLAY


@pytest.mark.parametrize(("before", "over"), [(12, True), (11, False)])
def test_nine_five_three_v7_thirteen_tricks_win(before: int, over: bool) -> None:
    state, _ = stacked({"variant": "nine_five_three_single_kitty"}, dealer=SEAT_ANN)
    after, _ = win_trick(state, SEAT_BOB, trick_no=14, tricks=(1, before, 1))
    assert (after.phase is Phase.OVER) is over
    if over:
        assert after.match.winners == (SEAT_BOB,)
