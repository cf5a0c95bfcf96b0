"""Sergeant Major targets, up/down, game end and Woburn rules: sergeant_major/RULES.md §7.3 (T1-T6), §7.5 (W1-W6)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.games.sergeant_major import GAME, Phase
from engine.games.sergeant_major.stacked import stacked
from engine.games.sergeant_major.state import SMState
from tests.builders import SEAT_ANN, SEAT_BOB, SEAT_CAT, finish_hand, of_type, win_trick
from tests.builders import sm_act as act


def woburn(seed: str = "woburn") -> SMState:
    return GAME.new_game({"woburn_first_bid": True, "first_dealer": "seat:0"}, 3, seed)


def test_hand_end_t1_up_and_down_against_position_targets() -> None:
    state, _ = stacked(dealer=SEAT_ANN)
    assert state.deal.targets == (8, 5, 3)
    after, events = finish_hand(state, SEAT_ANN, (9, 4, 2))
    over = of_type(events, "hand_over")[0]
    assert over["tricks"] == [10, 4, 2]
    assert over["results"] == [2, -1, -1]
    assert over["totals"] == [2, -1, -1]
    assert after.match.prev_result == (2, -1, -1)
    assert GAME.view(after, SEAT_CAT)["totals"] == [2, -1, -1]


def test_hand_end_t2_deal_and_targets_rotate_left() -> None:
    state, _ = stacked(dealer=SEAT_ANN)
    hand2, _ = finish_hand(state, SEAT_ANN, (7, 5, 3))  # exact targets: no exchange to get in the way
    view2 = GAME.view(hand2, SEAT_ANN)
    assert (view2["hand_no"], view2["dealer"], view2["positions"], view2["targets"]) == (
        2, SEAT_BOB, ["M", "D", "E"], [3, 8, 5])
    assert GAME.to_act(hand2) == {SEAT_BOB}
    hand3, _ = finish_hand(hand2, SEAT_BOB, (3, 7, 5))
    view3 = GAME.view(hand3, SEAT_ANN)
    assert (view3["hand_no"], view3["dealer"], view3["positions"], view3["targets"]) == (
        3, SEAT_CAT, ["E", "M", "D"], [5, 3, 8])
    hand4, _ = finish_hand(hand3, SEAT_CAT, (5, 3, 7))
    assert hand4.deal.targets[SEAT_ANN] == 8


def test_game_end_t3_twelve_tricks_win_at_once() -> None:
    state, _ = stacked(dealer=SEAT_BOB, hand_no=2, prev_result=(0, 0, 0))
    assert state.deal.targets[SEAT_ANN] == 3
    after, events = win_trick(state, SEAT_ANN, trick_no=13, tricks=(11, 2, 0))
    assert after.phase is Phase.OVER and after.trick_no == 14
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (SEAT_ANN,)
    assert of_type(events, "game_over")[0]["winners"] == [SEAT_ANN]
    assert of_type(events, "hand_over") == []
    assert GAME.to_act(after) == frozenset() and GAME.legal_actions(after, SEAT_ANN) == []


@pytest.mark.parametrize(("game_end", "over"), [("target_plus_five", True), ("twelve_tricks", False)])
def test_game_end_t4_target_plus_five(game_end: str, over: bool) -> None:
    state, _ = stacked({"game_end": game_end}, dealer=SEAT_BOB, hand_no=2, prev_result=(0, 0, 0))
    after, _ = win_trick(state, SEAT_ANN, trick_no=10, tricks=(7, 2, 1))
    assert (after.phase is Phase.OVER) is over
    if over:
        assert after.match.winners == (SEAT_ANN,)


def test_game_end_t5_all_sixteen_fifteen_tricks_is_not_enough() -> None:
    state, _ = stacked({"game_end": "all_sixteen"}, dealer=SEAT_BOB, hand_no=2, prev_result=(0, 0, 0))
    after, events = finish_hand(state, SEAT_BOB, (1, 14, 0))
    assert after.phase is not Phase.OVER
    assert of_type(events, "hand_over")[0]["results"] == [-2, 7, -5]
    assert after.match.hand_no == 3


def test_game_end_t5_all_sixteen_ends_on_the_sixteenth_trick() -> None:
    state, _ = stacked({"game_end": "all_sixteen"}, dealer=SEAT_BOB, hand_no=2, prev_result=(0, 0, 0))
    after, _ = finish_hand(state, SEAT_BOB, (0, 15, 0))
    assert after.phase is Phase.OVER and after.match.winners == (SEAT_BOB,)


def test_hand_end_t6_exact_targets_mean_no_exchange() -> None:
    state, _ = stacked(dealer=SEAT_ANN)
    after, events = finish_hand(state, SEAT_ANN, (7, 5, 3))
    assert of_type(events, "hand_over")[0]["results"] == [0, 0, 0]
    assert after.phase is Phase.TRUMP and after.deal.transfers == ()
    assert of_type(events, "exchange_due") == []


def test_woburn_w1_highest_bidder_deals_with_table_targets() -> None:
    state = woburn()
    assert state.phase is Phase.BID and GAME.to_act(state) == {SEAT_ANN}
    state, _ = act(state, SEAT_ANN, {"type": "bid", "tricks": 9})
    state, _ = act(state, SEAT_BOB, {"type": "bid", "tricks": 10})
    state, _ = act(state, SEAT_CAT, {"type": "pass"})
    state, events = act(state, SEAT_ANN, {"type": "pass"})
    assert of_type(events, "bid_won")[0]["seat"] == SEAT_BOB
    assert state.match.dealer == SEAT_BOB and state.deal.targets == (2, 10, 4)
    assert state.phase is Phase.TRUMP and GAME.to_act(state) == {SEAT_BOB}
    state, _ = act(state, SEAT_BOB, {"type": "name_trump", "suit": "clubs"})
    state, _ = act(state, SEAT_BOB, GAME.legal_actions(state, SEAT_BOB)[0])
    assert state.phase is Phase.PLAY and GAME.to_act(state) == {SEAT_CAT}
    hand2, _ = finish_hand(state, SEAT_BOB, (2, 9, 4))
    assert hand2.match.dealer == SEAT_CAT and hand2.deal.targets == (5, 3, 8)
    assert hand2.match.prev_result == (0, 0, 0)


def test_woburn_w2_all_pass_redeals_with_the_next_dealer() -> None:
    state = woburn()
    first_hands = state.hands
    for seat in (SEAT_ANN, SEAT_BOB, SEAT_CAT):
        state, events = act(state, seat, {"type": "pass"})
    assert of_type(events, "redeal")[0]["dealer"] == SEAT_BOB
    assert state.phase is Phase.BID and state.match.dealer == SEAT_BOB and GAME.to_act(state) == {SEAT_BOB}
    assert state.match.hand_no == 1 and state.hands != first_hands


def test_woburn_w3_bid_of_sixteen_ends_the_auction() -> None:
    state = woburn()
    state, _ = act(state, SEAT_ANN, {"type": "bid", "tricks": 8})
    state, _ = act(state, SEAT_BOB, {"type": "pass"})
    state, _ = act(state, SEAT_CAT, {"type": "bid", "tricks": 16})
    assert state.match.dealer == SEAT_CAT and state.deal.targets == (0, 0, 16)
    assert state.phase is Phase.TRUMP
    after, _ = win_trick(state, SEAT_CAT, trick_no=11, tricks=(0, 0, 11))
    assert after.phase is Phase.OVER and after.match.winners == (SEAT_CAT,)


def test_woburn_bid_must_be_higher_than_the_last() -> None:
    state = woburn()
    state, _ = act(state, SEAT_ANN, {"type": "bid", "tricks": 10})
    assert [a.get("tricks") for a in GAME.legal_actions(state, SEAT_BOB)] == [11, 12, 13, 14, 15, 16, None]
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_BOB, {"type": "bid", "tricks": 10})
    assert refused.value.code == "bad_bid"


@pytest.mark.parametrize(("bleed", "order"), [(True, ((SEAT_BOB, SEAT_ANN, 2), (SEAT_CAT, SEAT_ANN, 1))),
                                              (False, ((SEAT_BOB, SEAT_ANN, 2), (SEAT_CAT, SEAT_ANN, 2)))])
def test_woburn_w4_max_bleed_caps_the_receiver_at_three(bleed: bool, order: object) -> None:
    # new hand: Bob deals (P8), Cat is eldest (P5), Ann is middle (P3)
    state, _ = stacked({"woburn_max_bleed": bleed}, dealer=SEAT_BOB, hand_no=2, prev_result=(-4, 2, 2))
    assert state.deal.targets == (3, 8, 5)
    assert state.deal.transfers == order


@pytest.mark.parametrize(("bleed", "order"), [(True, ((SEAT_BOB, SEAT_CAT, 2), (SEAT_BOB, SEAT_ANN, 1))),
                                              (False, ((SEAT_BOB, SEAT_ANN, 2), (SEAT_BOB, SEAT_CAT, 2)))])
def test_woburn_w5_max_bleed_caps_the_giver_and_reverses_priority(bleed: bool, order: object) -> None:
    state, _ = stacked({"woburn_max_bleed": bleed}, dealer=SEAT_BOB, hand_no=2, prev_result=(-2, 4, -2))
    assert state.deal.transfers == order


def test_woburn_w6_max_bleed_moves_only_three_cards() -> None:
    state, _ = stacked({"woburn_max_bleed": True}, dealer=SEAT_BOB, hand_no=2, prev_result=(0, -5, 5))
    assert state.deal.transfers == ((SEAT_CAT, SEAT_BOB, 3),)
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_CAT, {"type": "give", "cards": GAME.view(state, SEAT_CAT)["hand"][:5]})
    assert refused.value.code == "bad_count"


def test_game_end_places_the_others_by_their_stakes() -> None:
    state, _ = stacked(dealer=SEAT_BOB, hand_no=3, prev_result=(0, 0, 0), totals=(1, -3, 2))
    after, _ = win_trick(state, SEAT_ANN, trick_no=13, tricks=(11, 2, 0))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (SEAT_ANN,)
    assert outcome.placements == (1, 3, 2)  # Cat's stakes +2 before Bob's -3
    assert outcome.scores == (1, -3, 2)


def test_game_end_in_hand_one_places_the_others_level_when_their_stakes_are() -> None:
    # SM-D30: the unfinished hand adds nothing to the stakes (all 0) and breaks no tie: Bob, the dealer, stood 2 of
    # 8 (-6) and Cat 0 of 5 (-5), which said more about their targets than their play; they share second place
    state, _ = stacked(dealer=SEAT_BOB)
    assert state.deal.targets == (3, 8, 5)
    after, _ = win_trick(state, SEAT_ANN, trick_no=13, tricks=(11, 2, 0))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (0, 0, 0)
    assert outcome.placements == (1, 2, 2)


def test_game_end_shares_a_place_between_others_level_on_stakes_and_hand() -> None:
    state, _ = stacked(dealer=SEAT_BOB)
    after, _ = win_trick(state, SEAT_ANN, trick_no=14, tricks=(11, 3, 0))  # Bob 3 of 8 and Cat 0 of 5: level stakes
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.placements == (1, 2, 2)
