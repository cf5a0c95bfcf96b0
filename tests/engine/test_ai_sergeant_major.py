"""The easy Sergeant Major player: only actions apply accepts in every variant, games that finish,
each decision's heuristic on hands reasoned out by hand, and a clear margin over random play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine.ai import choose, player_for
from engine.ai.base import RandomPlayer
from engine.ai.sergeant_major import EasySergeantMajor
from engine.ai.sergeant_major.choices import discard, give, misere_discard, should_swap
from engine.ai.sergeant_major.hand import best_call, best_trump, bid_tricks
from engine.ai.sergeant_major.play import duck_card, take_card
from engine.core.cards import FRENCH
from engine.games.sergeant_major import GAME, SMState

HEARTS, DIAMONDS, CLUBS, SPADES = range(4)
# Option sets and the phases each must take the player through in hands 1 and 2.
CONFIGS: list[tuple[dict[str, Any], set[str]]] = [
    ({"variant": "classic"}, {"trump", "kitty", "exchange", "play"}),
    ({"variant": "classic", "woburn_first_bid": True, "kitty_order": "take_then_discard"}, {"bid", "kitty"}),
    ({"variant": "classic", "exchange_ace": "high", "woburn_max_bleed": True, "game_end": "target_plus_five"},
     {"exchange"}),
    ({"variant": "alternate"}, {"call", "kitty", "play"}),
    ({"variant": "alternate", "misere_trump": "dealer_names", "kitty_order": "take_then_discard"}, {"call"}),
    ({"variant": "six_three_eight", "removed_card": "random_each_hand"}, {"trump", "exchange", "play"}),
    ({"variant": "nine_five_two", "win_score": 20}, {"trump", "kitty", "exchange"}),
    ({"variant": "nine_five_two_variation"}, {"kitty", "exchange", "trump"}),
    ({"variant": "three_five_nine_uhs"}, {"kitty", "exchange"}),
    ({"variant": "nine_five_three_single_kitty"}, {"swap", "exchange", "trump"}),
]
DEALS = 9  # per option set; each deal is played through hand 2 (the first exchange)


def c(text: str) -> int:
    return FRENCH.parse(text)


def cs(*texts: str) -> list[int]:
    return [FRENCH.parse(t) for t in texts]


def check_choice(view: dict[str, Any], legal: Sequence[Mapping[str, Any]], action: Mapping[str, Any]) -> None:
    """A multi-card choice is ``count`` distinct cards of ``from``; anything else is one of ``legal``."""
    choice = view["choose"]
    if choice is not None:
        assert action["type"] == choice["type"]
        assert len(set(action["cards"])) == len(action["cards"]) == choice["count"]
        assert set(action["cards"]) <= set(choice["from"])
    else:
        assert action in legal


@pytest.mark.parametrize(("options", "phases"), CONFIGS, ids=[str(o) for o, _ in CONFIGS])
def test_ai_sm_easy_chooses_only_actions_apply_accepts(options: dict[str, Any], phases: set[str]) -> None:
    easy = player_for("sergeant_major", "easy")
    assert isinstance(easy, EasySergeantMajor)
    seen: Counter[str] = Counter()
    for deal in range(DEALS):
        seed = f"ai-sm:{options}:{deal}"
        state: SMState = GAME.new_game(options, 3, seed)
        for move in range(400):
            if GAME.outcome(state) is not None or state.match.hand_no > 2:
                break
            (seat,) = GAME.to_act(state)
            view = GAME.view(state, seat)
            legal = GAME.legal_actions(state, seat)
            action = easy.choose(view, legal, f"{seed}:{move}")
            check_choice(view, legal, action)
            seen[view["phase"]] += 1
            state, _ = GAME.apply(state, seat, action)  # raises if the action is refused
    assert phases <= set(seen), seen


def test_ai_sm_easy_classic_games_played_alone_finish() -> None:
    easy = EasySergeantMajor()
    for deal in range(6):
        state = GAME.new_game({"variant": "classic", "first_dealer": "seat:0"}, 3, f"ai-sm-alone:{deal}")
        hand_no, moves_in_hand = 1, 0
        for _ in range(8000):
            if GAME.outcome(state) is not None:
                break
            (seat,) = GAME.to_act(state)
            state, _ = GAME.apply(state, seat, easy.choose(GAME.view(state, seat),
                                                           GAME.legal_actions(state, seat), "s"))
            moves_in_hand = 0 if state.match.hand_no != hand_no else moves_in_hand + 1
            hand_no = state.match.hand_no
            assert moves_in_hand <= 16 * 3 + 8  # 16 tricks of 3 cards, plus the decisions before them
        outcome = GAME.outcome(state)
        assert outcome is not None, f"deal {deal} did not finish"
        assert max(state.tricks) >= 12  # sergeant_major/RULES.md §3.2: twelve tricks in one hand end it
        assert sorted(outcome.placements) in ([1, 2, 2], [1, 2, 3])  # by stakes; level ones share a place


def test_ai_sm_easy_reaches_its_target_more_often_than_random_seats() -> None:
    easy, rnd = EasySergeantMajor(), RandomPlayer()
    made = {"easy": 0, "random": 0}
    hands = {"easy": 0, "random": 0}
    variants = ("classic", "alternate", "six_three_eight", "nine_five_two", "three_five_nine_uhs")
    for deal in range(100):
        seed = f"ai-sm-vs:{deal}"
        state = GAME.new_game({"variant": variants[deal % len(variants)]}, 3, seed)
        hero = deal % 3
        players = [easy if s == hero else rnd for s in range(3)]
        move = 0
        while GAME.outcome(state) is None and state.match.hand_no == 1:
            (seat,) = GAME.to_act(state)
            action = players[seat].choose(GAME.view(state, seat), GAME.legal_actions(state, seat), f"{seed}:{move}")
            state, _ = GAME.apply(state, seat, action)
            move += 1
        if not state.match.history:
            continue  # a classic game won outright in hand 1 leaves no result to count
        for seat, result in enumerate(state.match.history[0]):
            who = "easy" if seat == hero else "random"
            hands[who] += 1
            made[who] += result >= 0  # reached its target (§3.2 step 9)
    assert hands["easy"] >= 95
    easy_rate = made["easy"] / hands["easy"]
    random_rate = made["random"] / hands["random"]
    assert easy_rate >= 0.7
    assert easy_rate - random_rate >= 0.2, (easy_rate, random_rate)


# Decisions on hands reasoned out by hand ---------------------------------------------

STRONG_HEARTS = cs("A-hearts", "K-hearts", "Q-hearts", "J-hearts", "10-hearts", "9-hearts", "8-hearts", "A-spades",
                   "A-clubs", "K-clubs", "3-clubs", "4-diamonds", "3-diamonds", "2-diamonds", "5-spades", "2-spades")
LOW_HAND = cs("2-hearts", "3-hearts", "4-hearts", "5-hearts", "2-diamonds", "3-diamonds", "4-diamonds",
              "6-diamonds", "2-clubs", "3-clubs", "4-clubs", "5-clubs", "2-spades", "3-spades", "4-spades", "7-spades")


def test_ai_sm_names_its_long_strong_suit_as_trump() -> None:
    assert best_trump(STRONG_HEARTS) == HEARTS


def test_ai_sm_calls_its_long_suit_or_misere_with_a_low_hand() -> None:
    calls = ["hearts", "clubs", "diamonds", "spades", "no_trump", "misere"]
    assert best_call(STRONG_HEARTS, 8, 3, calls) == "hearts"
    assert best_call(LOW_HAND, 8, 3, calls) == "misere"
    # Only what is left may be called (sergeant_major/RULES.md §5.3).
    assert best_call(LOW_HAND, 8, 3, ["spades", "no_trump"]) in ("spades", "no_trump")


def test_ai_sm_bids_the_lowest_bid_with_a_strong_hand_and_passes_a_weak_one() -> None:
    assert bid_tricks(STRONG_HEARTS, 8) == 8
    assert bid_tricks(LOW_HAND, 8) is None
    assert bid_tricks(STRONG_HEARTS, 16) is None  # never promises all sixteen


def test_ai_sm_discard_voids_a_short_side_suit_and_keeps_trumps_and_aces() -> None:
    hand = cs("A-hearts", "K-hearts", "Q-hearts", "10-hearts", "9-hearts", "5-hearts", "A-spades", "7-spades",
              "6-spades", "8-clubs", "3-clubs", "J-diamonds", "9-diamonds", "6-diamonds", "4-diamonds", "2-diamonds")
    out = discard(hand, 4, HEARTS)
    # Clubs is the shortest side suit and has no Ace: both go; then the two lowest plain cards.
    assert sorted(out) == sorted(cs("8-clubs", "3-clubs", "2-diamonds", "4-diamonds"))


def test_ai_sm_misere_discard_throws_the_highest_cards() -> None:
    hand = cs("A-hearts", "K-spades", "Q-clubs", "J-diamonds", "10-diamonds", *(f"{r}-clubs" for r in "2345"))
    assert sorted(misere_discard(hand, 3)) == sorted(cs("A-hearts", "K-spades", "Q-clubs"))


def test_ai_sm_gives_a_low_card_of_a_suit_whose_top_cards_it_lacks() -> None:
    # §4.3: the receiver returns their highest card of the suit given. We hold K, Q and J of
    # Spades, so a Spade brings back at most the 10; any Club may bring back the King.
    hand = cs("K-spades", "Q-spades", "J-spades", "2-spades", "3-clubs", "A-hearts", "A-diamonds")
    assert give(hand, 1, ace_low=True) == [c("3-clubs")]


def test_ai_sm_never_gives_an_ace_under_the_low_ace_exchange() -> None:
    # With aces low (§4.5) a given Ace is the lowest card of its suit: the receiver keeps it.
    hand = cs("A-clubs", "A-hearts", "Q-spades", "9-diamonds")
    out = give(hand, 2, ace_low=True)
    assert c("A-clubs") not in out and c("A-hearts") not in out


def test_ai_sm_takes_the_last_seat_trick_with_its_cheapest_winner() -> None:
    trick = cs("10-spades", "Q-spades")
    hand = cs("A-spades", "K-spades", "3-spades", "2-hearts")
    assert take_card(hand, cs("A-spades", "K-spades", "3-spades"), trick, HEARTS) == c("K-spades")


def test_ai_sm_ruffs_cheaply_when_void_and_throws_low_when_it_cannot_win() -> None:
    trick = cs("K-clubs", "A-clubs")
    hand = cs("2-hearts", "9-hearts", "4-diamonds")
    assert take_card(hand, hand, trick, HEARTS) == c("2-hearts")  # §7.1 S2: the lowest trump wins
    assert take_card(cs("4-diamonds", "J-diamonds"), cs("4-diamonds", "J-diamonds"), trick, HEARTS) == c("4-diamonds")


def test_ai_sm_leads_a_side_ace() -> None:
    hand = cs("A-spades", "4-spades", "5-hearts", "K-clubs")
    assert take_card(hand, hand, [], HEARTS) == c("A-spades")


def test_ai_sm_ducks_under_the_winning_card_in_misere() -> None:
    trick = cs("9-spades")
    hand = cs("8-spades", "5-spades", "K-spades")
    assert duck_card(hand, hand, trick, None) == c("8-spades")  # the highest that still loses
    void = cs("A-hearts", "3-clubs")
    assert duck_card(void, void, trick, None) == c("A-hearts")  # off-suit: shed the most dangerous card


def test_ai_sm_swaps_the_two_of_diamonds_for_a_better_face_up_card() -> None:
    two = c("2-diamonds")
    assert should_swap(c("Q-spades"), SPADES, two)  # §7.7 V6
    assert should_swap(c("5-clubs"), HEARTS, two)
    assert not should_swap(c("5-clubs"), DIAMONDS, two)  # a trump 2 beats a low plain card


def test_ai_sm_choose_answers_a_discard_view_with_count_cards_from_the_offer() -> None:
    state = GAME.new_game({"variant": "classic", "first_dealer": "seat:0"}, 3, "ai-sm-view")
    (seat,) = GAME.to_act(state)
    state, _ = GAME.apply(state, seat, {"type": "name_trump", "suit": "hearts"})
    view = GAME.view(state, seat)
    assert view["choose"]["type"] == "discard"
    action = EasySergeantMajor().choose(view, GAME.legal_actions(state, seat), "x")
    check_choice(view, GAME.legal_actions(state, seat), action)
    assert not {t for t in action["cards"] if t.endswith("-hearts") or t.startswith("A-")}
    GAME.apply(state, seat, action)
    # The table service's entry point asks the player too, though legal lists one canonical pick.
    legal = GAME.legal_actions(state, seat)
    assert len(legal) == 1 and legal[0] != action
    assert choose("sergeant_major", "easy", view, legal, "x") == action
