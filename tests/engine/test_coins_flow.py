"""coins/RULES.md §7.2 worked examples G1-G12, settings (§2) and refusals (§3.5)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core.cards import SPANISH, cards_in
from engine.core.errors import BadOptions, IllegalAction, MalformedAction
from engine.core.rng import deal_rng
from engine.games import get
from engine.games.coins import CoinsState, Phase
from tests.builders import cards
from tests.builders import coins_position as position

ANA, BEN, CHLOE = 0, 1, 2
GAME = get("coins")


def play(state: CoinsState, seat: int, card: str) -> tuple[CoinsState, list[dict[str, Any]]]:
    state, events = GAME.apply(state, seat, {"type": "play", "card": card})
    return state, [e.data for e in events]


def random_game(seed: str, target: int) -> list[CoinsState]:
    rnd = random.Random(seed)
    state = GAME.new_game({"target_score": target}, 3, seed)
    states = [state]
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        state, _ = GAME.apply(state, seat, rnd.choice(GAME.legal_actions(state, seat)))
        states.append(state)
    return states


def test_deal_g1_goes_clockwise_from_the_dealers_left_and_left_of_dealer_leads() -> None:
    state = GAME.new_game({"first_dealer": "seat:1"}, 3, "g1-seed")
    order = deal_rng("g1-seed", 1).shuffled(range(48))
    assert state.dealer == BEN
    assert state.hands[CHLOE] >> order[0] & 1 and state.hands[ANA] >> order[1] & 1 and state.hands[BEN] >> order[2] & 1
    assert state.hands[CHLOE] >> order[3] & 1
    assert [h.bit_count() for h in state.hands] == [16, 16, 16]
    assert state.hands[0] | state.hands[1] | state.hands[2] == SPANISH.full
    assert GAME.to_act(state) == {CHLOE}
    state, _ = play(state, CHLOE, SPANISH.text(cards_in(state.hands[CHLOE])[0]))
    assert GAME.to_act(state) == {ANA}
    state, _ = play(state, ANA, SPANISH.text(cards_in(state.hands[ANA])[0]))
    assert GAME.to_act(state) == {BEN}  # the dealer plays last in the first trick


def test_any_card_g2_is_legal_without_following_suit() -> None:
    state = position((("2-clubs", "3-coins", "4-coins", "6-coins"), ("2-coins", "9-cups"), ("5-coins", "A-cups")),
                     turn=CHLOE, dealer=BEN)
    state, _ = play(state, CHLOE, "5-coins")
    assert {a["card"] for a in GAME.legal_actions(state, ANA)} == {"2-clubs", "3-coins", "4-coins", "6-coins"}
    state, _ = play(state, ANA, "2-clubs")
    state, events = play(state, BEN, "2-coins")
    won = next(e for e in events if e["type"] == "trick_won")
    assert (won["seat"], won["points"]) == (CHLOE, 2)
    assert state.scores == (0, 0, 2)


def test_out_of_turn_g3_is_refused_and_changes_nothing() -> None:
    state = position((("2-clubs", "3-coins"), ("2-coins", "9-cups"), ("5-coins", "A-cups")), turn=CHLOE, dealer=BEN)
    state, _ = play(state, CHLOE, "5-coins")
    with pytest.raises(IllegalAction) as refused:
        play(state, BEN, "2-coins")
    assert refused.value.code == "not_your_turn"
    assert GAME.to_act(state) == {ANA} and state.hands[BEN] == cards("2-coins", "9-cups")
    assert GAME.legal_actions(state, BEN) == []


def test_lead_g4_passes_to_the_trick_winner() -> None:
    state = position((("9-swords", "K-cups"), ("2-cups", "3-cups"), ("5-swords", "6-cups")), turn=CHLOE, trick_no=3)
    state, _ = play(state, CHLOE, "5-swords")
    state, _ = play(state, ANA, "9-swords")
    state, events = play(state, BEN, "2-cups")
    assert next(e for e in events if e["type"] == "trick_won")["seat"] == ANA
    assert state.trick_no == 4 and GAME.to_act(state) == {ANA}
    state, _ = play(state, ANA, "K-cups")
    assert GAME.to_act(state) == {BEN}
    state, _ = play(state, BEN, "3-cups")
    assert GAME.to_act(state) == {CHLOE}


def test_trick_g5_without_points_still_gives_the_lead() -> None:
    state = position((("2-swords", "3-cups"), ("A-cups", "4-cups"), ("A-clubs", "5-cups")), turn=ANA)
    for seat, card in ((ANA, "2-swords"), (BEN, "A-cups"), (CHLOE, "A-clubs")):
        state, events = play(state, seat, card)
    assert next(e for e in events if e["type"] == "trick_won")["points"] == 0
    assert state.scores == (0, 0, 0) and GAME.to_act(state) == {ANA}


def test_next_dealer_g6_is_right_of_last_trick_winner_and_scores_carry() -> None:
    state = position((("2-swords",), ("A-cups",), ("A-clubs",)), turn=ANA, trick_no=16, scores=(5, 4, 3), target=15)
    for seat, card in ((ANA, "2-swords"), (BEN, "A-cups"), (CHLOE, "A-clubs")):
        state, events = play(state, seat, card)
    assert state.hand_no == 2 and state.dealer == CHLOE
    assert GAME.to_act(state) == {ANA} and state.trick_no == 1
    assert state.scores == (5, 4, 3)
    assert [h.bit_count() for h in state.hands] == [16, 16, 16]
    types = [e["type"] for e in events]
    assert types == ["played", "trick_won", "hand_over", "dealt", "dealt", "dealt"]


def test_target_g7_reached_mid_hand_ends_the_game_at_once() -> None:
    state = position((("6-coins", "7-cups"), ("A-swords", "8-cups"), ("4-coins", "9-cups")), turn=ANA, trick_no=9,
                     scores=(8, 3, 1), target=10)
    for seat, card in ((ANA, "6-coins"), (BEN, "A-swords"), (CHLOE, "4-coins")):
        state, events = play(state, seat, card)
    assert state.phase is Phase.OVER and state.winner == ANA
    assert state.scores == (10, 3, 1)
    assert GAME.to_act(state) == frozenset() and GAME.legal_actions(state, ANA) == []
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (ANA,) and outcome.placements == (1, 2, 3)
    assert events[-1] == {"type": "game_over", "winner": ANA, "scores": [10, 3, 1]}
    with pytest.raises(IllegalAction) as refused:
        play(state, ANA, "7-cups")
    assert refused.value.code == "game_over"


def test_overshoot_g8_wins_with_the_score_past_the_target() -> None:
    state = position((("2-coins", "7-cups"), ("4-coins", "8-cups"), ("3-coins", "9-cups")), turn=ANA,
                     scores=(2, 13, 4), target=15)
    for seat, card in ((ANA, "2-coins"), (BEN, "4-coins"), (CHLOE, "3-coins")):
        state, _ = play(state, seat, card)
    assert state.winner == BEN and state.scores == (2, 16, 4)


def test_target_g9_on_trick_16_ends_without_a_new_hand() -> None:
    # three suits with Cups missing: Coins > Swords > Clubs, so Chloe's King of Coins wins 1 point.
    state = position((("2-swords",), ("3-clubs",), ("K-coins",)), turn=ANA, trick_no=16, scores=(1, 0, 9))
    for seat, card in ((ANA, "2-swords"), (BEN, "3-clubs"), (CHLOE, "K-coins")):
        state, events = play(state, seat, card)
    assert state.phase is Phase.OVER and state.winner == CHLOE and state.scores == (1, 0, 10)
    assert state.hand_no == 1 and not any(e["type"] in ("hand_over", "dealt") for e in events)


def test_last_trick_winner_g10_leads_the_next_hand() -> None:
    state = position((("5-cups",), ("9-cups",), ("2-cups",)), turn=CHLOE, trick_no=16, hand_no=2, dealer=ANA,
                     scores=(6, 9, 9), target=15)
    for seat, card in ((CHLOE, "2-cups"), (ANA, "5-cups"), (BEN, "9-cups")):
        state, _ = play(state, seat, card)
    assert state.hand_no == 3 and state.dealer == ANA and GAME.to_act(state) == {BEN}


@pytest.mark.parametrize(("target", "max_hands"), [(10, 3), (15, 4), (20, 5)])
def test_hands_g11_never_exceed_the_bound(target: int, max_hands: int) -> None:
    for i in range(15):
        assert random_game(f"g11-{target}-{i}", target)[-1].hand_no <= max_hands


def test_coins_total_g12_is_twelve_over_a_complete_hand() -> None:
    for i in range(10):
        states = random_game(f"g12-{i}", 99)
        first_of_hand_2 = next(s for s in states if s.hand_no == 2)
        assert sum(first_of_hand_2.scores) == 12


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"target_score": 0}, "1 to 99"),
        ({"target_score": 100}, "1 to 99"),
        ({"target_score": "ten"}, "1 to 99"),
        ({"first_dealer": "oldest"}, "first_dealer"),
        ({"first_dealer": "seat:3"}, "first_dealer"),
        ({"trumps": "cups"}, "Unknown setting 'trumps'"),
    ],
)
def test_options_refuse_bad_values_with_a_clear_message(options: dict[str, Any], fragment: str) -> None:
    with pytest.raises(BadOptions) as refused:
        GAME.new_game(options, 3, "seed")
    assert fragment in refused.value.message and refused.value.code == "bad_options"


def test_options_accept_presets_custom_targets_and_text_values() -> None:
    assert GAME.parse_options({"target_score": "15"}).target_score == 15
    assert GAME.parse_options({"target_score": 37}).target_score == 37
    assert GAME.parse_options(None).target_score == 10
    assert GAME.new_game({"first_dealer": "host"}, 3, "s").dealer == 0


def test_new_game_refuses_a_table_without_three_players() -> None:
    with pytest.raises(BadOptions):
        GAME.new_game(None, 4, "seed")


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ("play K-cups", "malformed_action"),
        ({"card": "K-cups"}, "malformed_action"),
        ({"type": "discard", "card": "K-cups"}, "unknown_action"),
        ({"type": "play", "card": "Q-cups"}, "unknown_card"),
        ({"type": "play"}, "unknown_card"),
    ],
)
def test_apply_refuses_malformed_actions_with_specific_codes(action: Any, code: str) -> None:
    state = GAME.new_game(None, 3, "bad-actions")
    (seat,) = GAME.to_act(state)
    with pytest.raises(MalformedAction) as refused:
        GAME.apply(state, seat, action)
    assert refused.value.code == code
    assert GAME.new_game(None, 3, "bad-actions") == state


def test_apply_refuses_a_card_not_in_hand() -> None:
    state = GAME.new_game(None, 3, "not-in-hand")
    (seat,) = GAME.to_act(state)
    other = SPANISH.text(cards_in(state.hands[(seat + 1) % 3])[0])
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, seat, {"type": "play", "card": other})
    assert refused.value.code == "card_not_in_hand" and other in refused.value.message


def test_view_shows_the_credit_and_suit_cycle_and_only_the_own_hand() -> None:
    state = GAME.new_game(None, 3, "view")
    view = GAME.view(state, 1)
    assert view["credit"] == "Coins by Mark Steere"
    assert view["suit_cycle"] == ["cups", "coins", "swords", "clubs"]
    assert sorted(view["hand"]) == sorted(SPANISH.texts(state.hands[1]))
    assert "hand" not in GAME.view(state, None) and "legal" not in GAME.view(state, None)
    assert "seed" not in str(GAME.view(state, None)).lower().replace("seed_hash", "")


def test_last_trick_of_the_hand_stays_in_view_after_the_next_deal() -> None:
    # coins/RULES.md §3.4: the just-finished trick stays on view until the next card is led, across the deal too.
    state = position((("2-swords",), ("A-cups",), ("A-clubs",)), turn=ANA, trick_no=16, scores=(5, 4, 3), target=15)
    for seat, card in ((ANA, "2-swords"), (BEN, "A-cups"), (CHLOE, "A-clubs")):
        state, _ = play(state, seat, card)
    assert state.hand_no == 2 and state.trick_no == 1
    shown = GAME.view(state, ANA)["last_trick"]
    assert shown == [{"seat": ANA, "card": "2-swords"}, {"seat": BEN, "card": "A-cups"},
                     {"seat": CHLOE, "card": "A-clubs"}]
    assert GAME.view(state, ANA)["trick"] == []
    # who took it is on view too (a reloaded page marks it): the seat left of the new dealer (G6)
    assert GAME.view(state, ANA)["last_trick_winner"] == (state.dealer + 1) % 3
