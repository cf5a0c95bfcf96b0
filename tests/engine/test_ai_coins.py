"""The Coins players: trick tables, what a seat can infer, the easy heuristic, the search."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from engine.ai.coins import EasyCoins, StrongCoins
from engine.ai.coins.easy import easy_card
from engine.ai.coins.fast import STRIDE0, STRIDE1, WINNERS, race_odds
from engine.ai.coins.seen import read_view, sample_hands
from engine.ai.coins.strong import playout
from engine.core.cards import SPANISH, cards_in
from engine.core.rules import remembering_view
from engine.games import get
from engine.games.coins import trick_winner

# coins/RULES.md §7.1, the machine form of C1..C28: (cards in play order, winner index).
SPEC_TRICKS = [
    ([("2", "cups"), ("A", "coins"), ("A", "swords")], 0), ([("K", "swords"), ("3", "cups"), ("9", "coins")], 1),
    ([("A", "coins"), ("N", "swords"), ("5", "cups")], 2), ([("4", "coins"), ("A", "swords"), ("K", "clubs")], 0),
    ([("7", "clubs"), ("2", "coins"), ("A", "swords")], 1), ([("A", "swords"), ("A", "clubs"), ("J", "coins")], 2),
    ([("2", "swords"), ("A", "cups"), ("A", "clubs")], 0), ([("K", "cups"), ("6", "swords"), ("9", "clubs")], 1),
    ([("J", "clubs"), ("N", "cups"), ("3", "swords")], 2), ([("3", "clubs"), ("A", "cups"), ("A", "coins")], 0),
    ([("8", "coins"), ("2", "clubs"), ("K", "cups")], 1), ([("A", "cups"), ("9", "coins"), ("4", "clubs")], 2),
    ([("A", "swords"), ("A", "coins"), ("A", "cups")], 2), ([("5", "swords"), ("9", "swords"), ("A", "cups")], 1),
    ([("A", "cups"), ("2", "coins"), ("3", "coins")], 2), ([("K", "clubs"), ("A", "clubs"), ("7", "coins")], 1),
    ([("6", "coins"), ("A", "swords"), ("4", "coins")], 0), ([("J", "cups"), ("N", "cups"), ("K", "clubs")], 1),
    ([("2", "swords"), ("K", "coins"), ("3", "swords")], 2), ([("N", "clubs"), ("J", "clubs"), ("A", "swords")], 0),
    ([("9", "cups"), ("8", "cups"), ("A", "coins")], 0), ([("7", "coins"), ("K", "coins"), ("2", "clubs")], 1),
    ([("2", "coins"), ("3", "coins"), ("4", "coins")], 2), ([("A", "swords"), ("K", "swords"), ("9", "swords")], 0),
    ([("J", "cups"), ("A", "cups"), ("N", "cups")], 1), ([("8", "clubs"), ("9", "clubs"), ("J", "clubs")], 2),
    ([("N", "coins"), ("K", "coins"), ("A", "coins")], 2), ([("K", "cups"), ("N", "cups"), ("J", "cups")], 0),
]


def c(text: str) -> int:
    return SPANISH.parse(text)


@pytest.mark.parametrize(("cards", "winner"), SPEC_TRICKS)
def test_ai_trick_table_matches_the_spec_examples(cards: list[tuple[str, str]], winner: int) -> None:
    c0, c1, c2 = (SPANISH.card(rank, suit) for rank, suit in cards)
    assert WINNERS[c0 * STRIDE0 + c1 * STRIDE1 + c2] == winner


def test_ai_trick_table_agrees_with_the_rules_on_every_trick() -> None:
    texts = [SPANISH.text(card) for card in range(48)]
    for c0, c1, c2 in itertools.permutations(range(0, 48, 5), 3):
        assert WINNERS[c0 * STRIDE0 + c1 * STRIDE1 + c2] == trick_winner([texts[c0], texts[c1], texts[c2]])


def test_ai_race_odds_are_even_for_equal_needs_and_certain_at_the_target() -> None:
    assert race_odds(4, 4, 4) == pytest.approx(1 / 3)
    assert race_odds(0, 3, 3) == 1.0
    assert race_odds(3, 0, 5) == 0.0
    assert race_odds(1, 9, 9) > race_odds(5, 5, 5) > race_odds(9, 1, 9)


def _view(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "seat": 0, "hand_no": 1, "trick_no": 1, "turn": 0, "trick": [], "last_trick": [],
        "hand_counts": [16, 16, 16], "won_cards": [0, 0, 0], "scores": [0, 0, 0], "target_score": 10,
        "hand": [],
    }
    base.update(over)
    return base


def _play_until(trick_no: int, trick_len: int, seed: str = "seen") -> Any:
    game = get("coins")
    state = game.new_game({"first_dealer": "seat:2"}, 3, seed)
    easy = EasyCoins()
    while not (state.trick_no == trick_no and len(state.trick) == trick_len):
        (seat,) = game.to_act(state)
        state, _ = game.apply(state, seat, easy.choose(game.view(state, seat), game.legal_actions(state, seat), "s"))
    return state


def test_ai_seen_counts_the_coins_left_in_the_other_hands_exactly() -> None:
    game = get("coins")
    for seed, trick_no, trick_len in (("a", 4, 0), ("b", 7, 2), ("c", 11, 1)):
        state = _play_until(trick_no, trick_len, seed)
        seat = state.turn
        seen = read_view(game.view(state, seat))
        others = state.hands[(seat + 1) % 3] | state.hands[(seat + 2) % 3]
        coins_held = sum(1 for card in cards_in(others) if SPANISH.suit_name(card) == "coins")
        assert seen.coins_out == coins_held
        unseen = set(seen.unseen_plain) | set(seen.unseen_coins)
        assert set(cards_in(others)) <= unseen
        assert not unseen & set(cards_in(state.hands[seat]))


def test_ai_sampled_deals_agree_with_everything_the_seat_saw() -> None:
    game = get("coins")
    state = _play_until(6, 2)
    seat = state.turn
    seen = read_view(game.view(state, seat))
    draws = iter([(i * 0.6180339887) % 1.0 for i in range(10_000)])
    for _ in range(20):
        hands = sample_hands(seen, lambda: next(draws))
        assert hands[seat] == list(seen.hand)
        for other in seen.others:
            assert len(hands[other]) == state.hands[other].bit_count()
        sampled = hands[seen.others[0]] + hands[seen.others[1]]
        assert len(set(sampled)) == len(sampled)
        assert set(sampled) <= set(seen.unseen_plain) | set(seen.unseen_coins)
        assert sum(1 for card in sampled if SPANISH.suit_name(card) == "coins") == seen.coins_out


def test_the_memory_of_a_coins_seat_is_every_card_of_this_hands_finished_tricks_and_no_more() -> None:
    game = get("coins")
    state = game.new_game({"first_dealer": "seat:2"}, 3, "memory")
    easy = EasyCoins()
    played: set[str] = set()  # this hand's finished tricks, as a seat watching the table saw them
    hand_no, steps, most = state.hand_no, 0, 0
    while game.outcome(state) is None and steps < 200:
        if state.hand_no != hand_no:
            hand_no, played = state.hand_no, set()
        for seat in range(3):
            memory = game.memory(state, seat)
            assert set(memory["played"]) == played, (steps, seat)
            assert "played" not in game.view(state, seat)  # the page still shows the last trick only (D11)
        (seat,) = game.to_act(state)
        trick = [SPANISH.text(card) for _, card in state.trick]
        action = easy.choose(game.view(state, seat), game.legal_actions(state, seat), "s")
        state, _ = game.apply(state, seat, action)
        if len(trick) == 2:  # that card finished the trick
            played |= {*trick, action["card"]}
        steps += 1
        most = max(most, len(played))
    assert most >= 30  # a whole hand was watched (and then forgotten at the next deal)


def test_ai_with_its_memory_knows_the_other_hands_cards_exactly() -> None:
    game = get("coins")
    for seed, trick_no, trick_len in (("a", 4, 0), ("b", 7, 2), ("c", 11, 1)):
        state = _play_until(trick_no, trick_len, seed)
        seat = state.turn
        seen = read_view(remembering_view(game, state, seat))
        others = set(cards_in(state.hands[(seat + 1) % 3] | state.hands[(seat + 2) % 3]))
        assert set(seen.unseen_plain) | set(seen.unseen_coins) == others
        assert seen.coins_out == len(seen.unseen_coins)
        forgetting = read_view(game.view(state, seat))  # without it, cards gone in older tricks might still be held
        assert len(forgetting.unseen_plain) + len(forgetting.unseen_coins) > len(others)


def test_ai_seen_ignores_the_last_trick_of_the_previous_hand() -> None:
    view = _view(hand=["2-cups"], hand_counts=[1, 1, 1], last_trick=[{"seat": 1, "card": "A-coins"}],
                 trick_no=1, hand_no=2, scores=[5, 4, 3])
    seen = read_view(view)
    assert c("A-coins") in seen.unseen_coins


def test_ai_easy_takes_points_last_with_its_lowest_winning_card() -> None:
    # 2-cups, A-coins led: 3-cups makes a Cups pair (3 > 2) and K-clubs a three-suit trick
    # without Swords (Clubs win); both take the point, the 3 is cheaper. 5-coins loses to the A.
    card = easy_card([c("K-clubs"), c("5-coins"), c("3-cups"), c("A-swords")], [c("2-cups"), c("A-coins")])
    assert card == c("3-cups")


def test_ai_easy_wins_with_a_coin_when_that_adds_a_point() -> None:
    # 7-coins, 2-clubs: K-coins tops the Coins pair for 2 points; 3-clubs tops the Clubs pair for 1.
    assert easy_card([c("3-clubs"), c("K-coins")], [c("7-coins"), c("2-clubs")]) == c("K-coins")


def test_ai_easy_gives_no_coin_away_when_it_cannot_win() -> None:
    # A-cups, 2-swords: a Coins card would lose to the Cups (no Clubs); 4-clubs loses for nothing.
    assert easy_card([c("3-coins"), c("4-clubs")], [c("A-cups"), c("2-swords")]) == c("4-clubs")


def test_ai_easy_tops_a_led_coin_in_its_suit_when_second() -> None:
    assert easy_card([c("K-coins"), c("2-cups"), c("9-coins")], [c("6-coins")]) == c("9-coins")


def test_ai_easy_leads_its_lowest_plain_card() -> None:
    assert easy_card([c("A-coins"), c("7-swords"), c("3-clubs"), c("K-cups")], []) == c("3-clubs")


def test_ai_playout_scores_a_trick_that_reaches_the_target_as_a_win_or_a_loss() -> None:
    # Seat 1 led 2-coins, seat 2 played 3-coins, seat 0 plays last with one card left.
    # 4-cups: a Coins pair and an odd card, so the 3-coins (seat 2) takes 2 points: 8 + 2 = 10.
    hands: list[list[int]] = [[c("4-cups")], [], []]
    assert playout(hands, [c("2-coins"), c("3-coins")], 1, [9, 0, 8], 10, 0, lambda: 0.0) == 0.0
    # 4-coins: three Coins, the highest (seat 0) takes 3 points: 9 + 3 = 12.
    hands = [[c("4-coins")], [], []]
    assert playout(hands, [c("2-coins"), c("3-coins")], 1, [9, 0, 8], 10, 0, lambda: 0.0) == 1.0


def _win_now_view() -> tuple[dict[str, Any], list[dict[str, str]]]:
    # Seat 0 has 8 of 10 and plays last to 5-coins, 2-swords: only the 9-coins wins the trick
    # (a Coins pair, 9 > 5) and with it the game; 4-coins would hand the 2 points over.
    hand = ["9-coins", "4-coins", "3-clubs", "J-cups"]
    view = _view(hand=hand, trick=[{"seat": 1, "card": "5-coins"}, {"seat": 2, "card": "2-swords"}],
                 hand_counts=[4, 3, 3], trick_no=13, scores=[8, 0, 0], won_cards=[21, 9, 6])
    return view, [{"type": "play", "card": text} for text in hand]


def test_ai_strong_takes_the_trick_that_wins_the_game() -> None:
    view, legal = _win_now_view()
    assert StrongCoins(playouts=200, seconds=None).choose(view, legal, "w") == {"type": "play", "card": "9-coins"}


def test_ai_strong_is_deterministic_for_a_seed_and_playout_budget() -> None:
    game = get("coins")
    state = _play_until(3, 0, "det")
    view, legal = game.view(state, state.turn), game.legal_actions(state, state.turn)
    picks = {str(StrongCoins(playouts=150, seconds=None).choose(view, legal, "seed-1")) for _ in range(3)}
    assert len(picks) == 1


def test_ai_strong_spends_exactly_its_playout_budget() -> None:
    view, legal = _win_now_view()
    player = StrongCoins(playouts=77, seconds=None)
    player.choose(view, legal, "b")
    assert player.playouts_done == 77


def test_ai_strong_stops_at_the_clock_cap() -> None:
    ticks = itertools.count()
    view, legal = _win_now_view()
    player = StrongCoins(playouts=100_000, seconds=0.5, clock=lambda: float(next(ticks)))
    player.choose(view, legal, "t")
    assert player.playouts_done == 32  # the clock is read every 32 playouts; one tick is past the cap
