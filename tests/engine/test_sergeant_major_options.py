"""Sergeant Major settings and refusals: sergeant_major/RULES.md §2 (bad values and combinations) and action codes."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import BadOptions, IllegalAction, MalformedAction
from engine.games import get
from engine.games.sergeant_major import GAME, VARIANTS, Phase
from engine.games.sergeant_major.stacked import stacked
from tests.builders import SEAT_ANN, SEAT_BOB, win_trick
from tests.builders import sm_act as act


def test_registry_hands_out_sergeant_major() -> None:
    assert get("sergeant_major") is GAME
    assert GAME.title == "Sergeant Major (3-5-8)" and GAME.min_players == GAME.max_players == 3


@pytest.mark.parametrize("variant", VARIANTS)
def test_options_every_variant_accepted_with_defaults(variant: str) -> None:
    assert GAME.parse_options({"variant": variant}).variant == variant


@pytest.mark.parametrize(("raw", "words"), [
    ({"woburn_first_bid": True, "variant": "alternate"}, ["woburn_first_bid", "alternate", "classic"]),
    ({"kitty_order": "take_then_discard", "variant": "nine_five_two"}, ["kitty_order", "nine_five_two"]),
    ({"misere_trump": "dealer_names"}, ["misere_trump", "classic", "alternate"]),
    ({"win_score": 20, "variant": "six_three_eight"}, ["win_score", "nine_five_two"]),
    ({"removed_card": "3-hearts"}, ["removed_card", "six_three_eight"]),
    ({"game_end": "all_sixteen", "variant": "nine_five_two"}, ["game_end", "three_five_nine_uhs"]),
    ({"exchange_ace": "high", "variant": "alternate"}, ["exchange_ace", "alternate"]),
    ({"woburn_max_bleed": True, "variant": "alternate"}, ["woburn_max_bleed", "alternate"]),
])
def test_options_refuse_a_modifier_for_a_variant_it_does_not_apply_to(raw: dict[str, Any], words: list[str]) -> None:
    with pytest.raises(BadOptions) as refused:
        GAME.parse_options(raw)
    assert refused.value.code == "bad_options"
    assert all(word in refused.value.message for word in words), refused.value.message


@pytest.mark.parametrize(("raw", "name"), [
    ({"variant": "whist"}, "variant"),
    ({"win_score": 15, "variant": "nine_five_two"}, "win_score"),
    ({"removed_card": "11-hearts", "variant": "six_three_eight"}, "removed_card"),
    ({"first_dealer": "seat:3"}, "first_dealer"),
    ({"no_such_setting": 1}, "no_such_setting"),
])
def test_options_refuse_a_bad_value_naming_the_setting(raw: dict[str, Any], name: str) -> None:
    with pytest.raises(BadOptions) as refused:
        GAME.parse_options(raw)
    assert name in refused.value.message


def test_options_accept_any_removed_card_and_random_each_hand() -> None:
    opts = GAME.parse_options({"variant": "six_three_eight", "removed_card": "7-spades"})
    state = GAME.new_game(opts, 3, "seed")
    assert all("7-spades" not in GAME.view(state, s)["hand"] for s in range(3))
    rnd = GAME.new_game({"variant": "six_three_eight", "removed_card": "random_each_hand"}, 3, "seed")
    assert rnd.deal.removed.bit_count() == 1
    assert GAME.view(rnd, 0)["removed_card"] is None
    assert len(GAME.hidden_cards(rnd, 0)) == 35  # two other hands and the unknown removed card


def test_new_game_refuses_other_player_counts() -> None:
    with pytest.raises(BadOptions):
        GAME.new_game(None, 4, "seed")


def test_action_refused_not_your_turn() -> None:
    state, _ = stacked(dealer=SEAT_ANN)
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_BOB, {"type": "name_trump", "suit": "hearts"})
    assert refused.value.code == "not_your_turn"


def test_action_refused_wrong_phase() -> None:
    state, _ = stacked(dealer=SEAT_ANN)
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_ANN, {"type": "play", "card": GAME.view(state, SEAT_ANN)["hand"][0]})
    assert refused.value.code == "wrong_phase" and "trump" in refused.value.message


def test_action_refused_no_trump_in_classic() -> None:
    state, _ = stacked(dealer=SEAT_ANN)
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_ANN, {"type": "name_trump", "suit": "no_trump"})
    assert refused.value.code == "bad_call"
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_ANN, {"type": "name_trump", "suit": "none"})
    assert refused.value.code == "bad_suit"


def test_action_refused_when_legal_actions_never_list_its_form() -> None:
    state, _ = stacked(dealer=SEAT_ANN)  # classic: the dealer names trump, there are no calls
    assert {"type": "call", "call": "hearts"} not in GAME.legal_actions(state, SEAT_ANN)
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_ANN, {"type": "call", "call": "hearts"})
    assert refused.value.code == "wrong_phase"


def test_action_refused_card_not_in_hand_for_play_and_discard() -> None:
    state, _ = stacked(dealer=SEAT_ANN, hands={SEAT_BOB: ["A-hearts"]})
    state, _ = act(state, SEAT_ANN, {"type": "name_trump", "suit": "hearts"})
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_ANN, {"type": "discard", "cards": ["A-hearts", *GAME.view(state, SEAT_ANN)["hand"][:3]]})
    assert refused.value.code == "card_not_in_hand"
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_ANN, {"type": "discard", "cards": GAME.view(state, SEAT_ANN)["hand"][:5]})
    assert refused.value.code == "bad_count"
    state, _ = act(state, SEAT_ANN, {"type": "discard", "cards": GAME.view(state, SEAT_ANN)["hand"][-4:]})
    assert state.phase is Phase.PLAY and GAME.to_act(state) == {SEAT_BOB}
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_BOB, {"type": "play", "card": GAME.view(state, SEAT_ANN)["hand"][0]})
    assert refused.value.code == "card_not_in_hand"


@pytest.mark.parametrize(("action", "code"), [
    ({"type": "discard", "cards": "2-hearts"}, "malformed_action"),
    ({"type": "discard", "cards": ["2-hearts", "2-hearts", "3-hearts", "4-hearts"]}, "duplicate_card"),
    ({"type": "discard", "cards": ["1-hearts"]}, "unknown_card"),
    ({"type": "bid", "tricks": 9}, "wrong_phase"),
    ({"type": "jump"}, "unknown_action"),
    ({"card": "2-hearts"}, "malformed_action"),
])
def test_action_refused_when_malformed_or_out_of_place(action: dict[str, Any], code: str) -> None:
    state, _ = stacked(dealer=SEAT_ANN)
    state, _ = act(state, SEAT_ANN, {"type": "name_trump", "suit": "hearts"})
    with pytest.raises(IllegalAction) as refused:
        act(state, SEAT_ANN, action)
    assert refused.value.code == code
    assert isinstance(refused.value, MalformedAction) is (code != "wrong_phase")


def test_action_refused_once_the_game_is_over() -> None:
    state, _ = stacked(dealer=SEAT_ANN)
    over, _ = win_trick(state, SEAT_ANN, trick_no=11, tricks=(11, 0, 0))
    with pytest.raises(IllegalAction) as refused:
        act(over, SEAT_ANN, {"type": "play", "card": "2-hearts"})
    assert refused.value.code == "game_over"
