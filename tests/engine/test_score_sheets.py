"""Every game's view carries its score sheet, one row per hand, so any page renders the sheet from the view alone
(DESIGN.md: the server is the truth). Expected rows come from the worked examples of each game's RULES.md and
from hand reasoning over them; and every seat and a watcher read the same rows.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from engine.core.cards import mask_of
from engine.games import get
from engine.games.coins import CoinsState
from engine.games.kings_corner import position as kings_position
from engine.games.sergeant_major import Phase as SMPhase
from engine.games.sergeant_major.stacked import playing, stacked
from engine.games.sergeant_major.state import DECK, SMState
from tests.builders import SEAT_ANN, SEAT_BOB, SEAT_CAT, finish_hand, win_trick
from tests.builders import coins_position as coins_at

COINS, SM, KINGS = get("coins"), get("sergeant_major"), get("kings_corner")
ANA, BEN, CHLOE = 0, 1, 2
END = {"type": "end_turn"}


def sheet_for_all(game: Any, state: Any, players: int = 3) -> list[dict[str, Any]]:
    """The score sheet as every seat and a watcher see it: the same rows for all of them."""
    sheets: list[list[dict[str, Any]]] = [game.view(state, seat)["score_sheet"] for seat in [*range(players), None]]
    assert all(s == sheets[0] for s in sheets)
    return sheets[0]


def coins_play(state: CoinsState, *plays: tuple[int, str]) -> CoinsState:
    for seat, card in plays:
        state, _ = COINS.apply(state, seat, {"type": "play", "card": card})
    return state


# --- Coins (coins/RULES.md §4: each trick's Coins go to its winner; scores carry from hand to hand) ---


def test_coins_sheet_g6_a_finished_hand_keeps_its_points_and_the_next_starts_at_nothing() -> None:
    # G6: hand 1 ends Ana 5, Ben 4, Chloe 3. Before trick 16: Ana 3; she takes 5 and 6 of Coins with the 7 (C23-like).
    state = coins_at((("7-coins",), ("5-coins",), ("6-coins",)), turn=ANA, trick_no=16, scores=(3, 4, 3), target=15)
    after = coins_play(state, (ANA, "7-coins"), (BEN, "5-coins"), (CHLOE, "6-coins"))
    assert after.hand_no == 2 and after.scores == (6, 4, 3)
    assert sheet_for_all(COINS, after) == [
        {"hand_no": 1, "points": [6, 4, 3], "done": True},
        {"hand_no": 2, "points": [0, 0, 0], "done": False},
    ]


def test_coins_sheet_g10_counts_each_hand_apart_from_the_ones_before() -> None:
    # G10: hand 2 starts from hand 1's 5/4/3 (target 15); hand 2's last trick is all Cups, Ben's 9 takes 0 points.
    state = coins_at((("5-cups",), ("9-cups",), ("2-cups",)), turn=CHLOE, trick_no=16, hand_no=2, dealer=ANA,
                     scores=(6, 9, 9), target=15)
    state = dataclasses.replace(state, hand_points=((5, 4, 3),))
    after = coins_play(state, (CHLOE, "2-cups"), (ANA, "5-cups"), (BEN, "9-cups"))
    assert after.hand_no == 3
    assert [row["points"] for row in sheet_for_all(COINS, after)] == [[5, 4, 3], [1, 5, 6], [0, 0, 0]]


def test_coins_sheet_g7_the_hand_the_target_ends_is_done_with_what_it_gave() -> None:
    # G7: Ana 8 takes two Coins at trick 9 of hand 1 (target 10): 10, and the game ends mid-hand.
    state = coins_at((("6-coins", "7-cups"), ("A-swords", "8-cups"), ("4-coins", "9-cups")), turn=ANA, trick_no=9,
                     scores=(8, 3, 1), target=10)
    after = coins_play(state, (ANA, "6-coins"), (BEN, "A-swords"), (CHLOE, "4-coins"))
    assert sheet_for_all(COINS, after) == [{"hand_no": 1, "points": [10, 3, 1], "done": True}]


def test_coins_sheet_g12_every_full_hand_gives_twelve_and_the_rows_add_up_to_the_scores() -> None:
    rnd = random.Random("sheet")
    state = COINS.new_game({"target_score": 20}, 3, "sheet-g12")
    while COINS.outcome(state) is None:
        (seat,) = COINS.to_act(state)
        state, _ = COINS.apply(state, seat, rnd.choice(COINS.legal_actions(state, seat)))
        rows = COINS.view(state, None)["score_sheet"]
        assert [row["hand_no"] for row in rows] == list(range(1, state.hand_no + 1))
        assert all(sum(row["points"]) == 12 for row in rows[:-1])  # G12: a complete hand gives out 12
        assert [sum(row["points"][s] for row in rows) for s in range(3)] == list(state.scores)
    assert state.hand_no >= 2


@pytest.mark.parametrize(("cards", "seat", "kind", "missing", "odd"), [
    (("2-cups", "A-coins", "A-swords"), 0, 1, "clubs", None),  # C1: no Clubs; Cups > Coins > Swords
    (("A-swords", "A-clubs", "J-coins"), 2, 1, "cups", None),  # C6: no Cups; Coins wins
    (("A-cups", "2-coins", "3-coins"), 2, 2, None, 0),  # C15: pair of Coins; the odd A of Cups loses
    (("6-coins", "A-swords", "4-coins"), 0, 2, None, 1),  # C17: the odd card is in the middle
    (("2-coins", "3-coins", "4-coins"), 2, 3, None, None),  # C23: one suit, highest rank
])
def test_coins_view_says_who_took_the_last_trick_and_by_which_type(
    cards: tuple[str, str, str], seat: int, kind: int, missing: str | None, odd: int | None
) -> None:
    state = coins_at(((cards[0], "7-cups"), (cards[1], "8-cups"), (cards[2], "9-cups")), turn=ANA, trick_no=2)
    after = coins_play(state, *zip((ANA, BEN, CHLOE), cards, strict=True))
    for viewer in (ANA, BEN, CHLOE, None):
        view = COINS.view(after, viewer)
        assert view["last_trick_why"] == {"seat": seat, "type": kind, "missing": missing, "odd": odd}
        assert view["last_trick_winner"] == seat


def test_coins_view_names_the_cards_that_take_the_trick_only_to_the_seat_playing_last() -> None:
    # Chloe plays third to the 2 of Swords and the K of Coins (§3.3): the A of Coins makes a pair of Coins above the
    # King, the 9 of Swords a pair of Swords above the 2 (type 2); the 5 of Cups leaves Clubs missing, so Cups >
    # Coins > Swords and Cups win (type 1). The J of Coins is below the King; with the 3 of Clubs Cups are missing,
    # Coins > Swords > Clubs, and the King takes.
    state = coins_at((("2-swords",), ("K-coins",), ("A-coins", "J-coins", "3-clubs", "9-swords", "5-cups")),
                     turn=ANA)
    state = coins_play(state, (ANA, "2-swords"))
    assert COINS.view(state, BEN)["taking"] == []  # second to play: the third card may still change everything
    state = coins_play(state, (BEN, "K-coins"))
    view = COINS.view(state, CHLOE)
    assert sorted(view["taking"]) == sorted(["A-coins", "9-swords", "5-cups"])
    assert "taking" not in COINS.view(state, None) and COINS.view(state, ANA)["taking"] == []


# --- Sergeant Major (sergeant_major/RULES.md §3.2 step 9, §7.3) ---


def test_sm_sheet_t1_a_finished_hand_shows_tricks_targets_and_results() -> None:
    state, _ = stacked(dealer=SEAT_ANN)
    after, _ = finish_hand(state, SEAT_ANN, (9, 4, 2))
    assert sheet_for_all(SM, after) == [
        {"hand_no": 1, "tricks": [10, 4, 2], "targets": [8, 5, 3], "results": [2, -1, -1], "done": True},
    ]  # hand 2 opens with the exchange: no tricks are being taken yet, so no row for it


def test_sm_sheet_t2_rows_follow_the_targets_round_the_table() -> None:
    state, _ = stacked(dealer=SEAT_ANN)
    hand2, _ = finish_hand(state, SEAT_ANN, (7, 5, 3))
    hand3, _ = finish_hand(hand2, SEAT_BOB, (3, 7, 5))
    rows = sheet_for_all(SM, hand3)
    assert [(r["hand_no"], r["tricks"], r["targets"], r["results"]) for r in rows] == [
        (1, [8, 5, 3], [8, 5, 3], [0, 0, 0]),
        (2, [3, 8, 5], [3, 8, 5], [0, 0, 0]),
    ]


def test_sm_sheet_shows_the_hand_in_play_without_a_result() -> None:
    state, _ = stacked(dealer=SEAT_ANN)
    mid, _ = win_trick(state, SEAT_BOB, trick_no=4, tricks=(2, 1, 1))
    assert mid.phase is SMPhase.PLAY
    assert sheet_for_all(SM, mid) == [
        {"hand_no": 1, "tricks": [2, 2, 1], "targets": [8, 5, 3], "results": None, "done": False},
    ]


def test_sm_sheet_t3_a_trick_count_win_ends_its_hand_with_no_result() -> None:
    # T3: hand 2, Ann (M, target 3) takes her 12th trick at trick 14 and wins at once; the hand is never scored.
    state, _ = stacked(dealer=SEAT_BOB, hand_no=2, prev_result=(0, 0, 0))
    after, _ = win_trick(state, SEAT_ANN, trick_no=13, tricks=(11, 2, 0))
    assert sheet_for_all(SM, after) == [
        {"hand_no": 2, "tricks": [12, 2, 0], "targets": [3, 8, 5], "results": None, "done": True},
    ]


def sm_trick(trump: str | None, trick: list[tuple[int, str]], holds: dict[int, list[str]]) -> SMState:
    """A trick in play under ``trump`` with ``trick`` down and each seat holding exactly ``holds``."""
    state = playing({seat: [*cards, *(c for s, c in trick if s == seat)] for seat, cards in holds.items()}, trump,
                    trick, dealer=(trick[0][0] - 1) % 3)
    return dataclasses.replace(state, hands=tuple(mask_of(DECK.parse(c) for c in holds[s]) for s in range(3)))


@pytest.mark.parametrize(("trump", "cards", "seat", "by"), [
    ("hearts", ("10-spades", "Q-spades", "4-spades"), SEAT_BOB, "high"),  # S1
    ("hearts", ("K-clubs", "2-hearts", "A-clubs"), SEAT_BOB, "trump"),  # S2: the lowest trump beats the A led
    ("hearts", ("7-diamonds", "9-hearts", "J-hearts"), SEAT_CAT, "trump"),  # S3: over-ruff
    ("diamonds", ("5-diamonds", "A-spades", "6-diamonds"), SEAT_CAT, "trump_led"),  # S5
    (None, ("2-clubs", "A-diamonds", "A-spades"), SEAT_ANN, "high"),  # S7: No Trump
])
def test_sm_view_says_who_is_taking_the_trick_and_why(
    trump: str | None, cards: tuple[str, str, str], seat: int, by: str
) -> None:
    first_two = sm_trick(trump, [(SEAT_ANN, cards[0]), (SEAT_BOB, cards[1])],
                         {SEAT_ANN: ["3-hearts"], SEAT_BOB: ["4-hearts"], SEAT_CAT: [cards[2]]})
    ahead = SM.view(first_two, None)["trick_ahead"]
    assert ahead is not None and ahead["seat"] in (SEAT_ANN, SEAT_BOB)
    done, _ = SM.apply(first_two, SEAT_CAT, {"type": "play", "card": cards[2]})
    for viewer in (SEAT_ANN, SEAT_BOB, SEAT_CAT, None):
        view = SM.view(done, viewer)
        assert view["last_trick_why"] == {"seat": seat, "by": by}
        assert view["last_trick_winner"] == seat and view["trick_ahead"] is None


def test_sm_view_l3_names_the_cards_that_would_take_the_trick_so_far() -> None:
    # L3: trump Hearts, the 7 of Diamonds led, the 9 of Hearts played; Cat holds the J of Hearts and the 4 of Clubs.
    state = sm_trick("hearts", [(SEAT_ANN, "7-diamonds"), (SEAT_BOB, "9-hearts")],
                     {SEAT_ANN: ["2-spades"], SEAT_BOB: ["3-spades"], SEAT_CAT: ["J-hearts", "4-clubs"]})
    assert SM.view(state, None)["trick_ahead"] == {"seat": SEAT_BOB, "by": "trump"}
    assert SM.view(state, SEAT_CAT)["taking"] == ["J-hearts"]
    assert SM.view(state, SEAT_ANN)["taking"] == []  # not Ann's turn


# --- Kings in the Corner (kings_corner/RULES.md §4) ---


def test_kings_sheet_k30_a_penalty_hand_shows_each_penalty_and_who_went_out() -> None:
    # K30: Bob goes out; Ann holds the K of Clubs, 7 of Hearts, 2 of Spades (+12), Cat five cards, no King (+5).
    state = kings_position(hands=[["K-clubs", "7-hearts", "2-spades"], ["8-hearts"],
                                  ["2-hearts", "3-hearts", "4-hearts", "5-hearts", "6-hearts"]],
                           piles={"N": ["9-spades"], "NE": ["K-spades"], "SE": ["K-hearts"], "SW": ["K-diamonds"]},
                           turn=SEAT_BOB, totals=(15, 9, 9), options={"scoring": "penalty", "penalty_limit": 99})
    after, _ = KINGS.apply(state, SEAT_BOB, {"type": "build", "card": "8-hearts", "space": "N"})
    assert after.hand_no == 2
    assert sheet_for_all(KINGS, after) == [
        {"hand_no": 1, "went_out": SEAT_BOB, "blocked": False, "penalties": [12, 0, 5], "done": True},
    ]  # hand 2's penalties are not known until it ends (they count the cards still held)


def test_kings_sheet_a_blocked_penalty_hand_charges_everyone_and_nobody_went_out() -> None:
    state = kings_position(players=2, hands=[["K-clubs", "7-hearts"], ["8-hearts"]], idle_streak=1,
                           options={"scoring": "penalty", "penalty_limit": 5, "king_compulsory": False})
    after, _ = KINGS.apply(state, SEAT_ANN, END)
    assert sheet_for_all(KINGS, after, players=2) == [
        {"hand_no": 1, "went_out": None, "blocked": True, "penalties": [11, 1], "done": True},
    ]


def test_kings_sheet_of_a_one_hand_game_shows_cards_left_as_they_stand() -> None:
    state = kings_position(hands=[["A-spades", "A-hearts"], ["2-clubs", "2-spades", "A-clubs"], ["3-clubs"]])
    assert sheet_for_all(KINGS, state) == [
        {"hand_no": 1, "went_out": None, "blocked": False, "cards_left": [2, 3, 1], "done": False},
    ]


# --- every game ---


@pytest.mark.parametrize(("name", "options"), [
    ("coins", {"target_score": 20}),
    ("sergeant_major", {}),
    ("kings_corner", {"scoring": "penalty", "penalty_limit": 40}),
    ("kings_corner", {}),
])
def test_every_hand_that_ends_has_its_finished_row_in_every_view(name: str, options: dict[str, Any]) -> None:
    game = get(name)
    rng = random.Random(f"rows-{name}")
    state = game.new_game(options, 3, f"rows-{name}")
    ended = 0
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        state, events = game.apply(state, seat, legal[rng.randrange(len(legal))])
        kinds = [e.data["type"] for e in events]
        if "hand_over" not in kinds and "game_over" not in kinds:
            continue
        rows = sheet_for_all(game, state)
        done = [row["hand_no"] for row in rows if row["done"]]
        for e in events:
            if e.data["type"] == "hand_over":
                ended += 1
                assert e.data["hand_no"] in done
        if "game_over" in kinds:
            assert done and done[-1] == max(row["hand_no"] for row in rows)
    assert ended or name == "kings_corner"
