"""coins/RULES.md §7.1: the 28 worked trick examples, each its own test case."""

from __future__ import annotations

import pytest

from engine.core.errors import MalformedAction
from engine.core.events import Event
from engine.games import get
from engine.games.coins import trick_winner
from tests.builders import coins_position as position

# (id, cards in play order, winning index, Coins points) copied from the spec's table
TRICKS = [
    ("C1", ["2-cups", "A-coins", "A-swords"], 0, 1),
    ("C2", ["K-swords", "3-cups", "9-coins"], 1, 1),
    ("C3", ["A-coins", "N-swords", "5-cups"], 2, 1),
    ("C4", ["4-coins", "A-swords", "K-clubs"], 0, 1),
    ("C5", ["7-clubs", "2-coins", "A-swords"], 1, 1),
    ("C6", ["A-swords", "A-clubs", "J-coins"], 2, 1),
    ("C7", ["2-swords", "A-cups", "A-clubs"], 0, 0),
    ("C8", ["K-cups", "6-swords", "9-clubs"], 1, 0),
    ("C9", ["J-clubs", "N-cups", "3-swords"], 2, 0),
    ("C10", ["3-clubs", "A-cups", "A-coins"], 0, 1),
    ("C11", ["8-coins", "2-clubs", "K-cups"], 1, 1),
    ("C12", ["A-cups", "9-coins", "4-clubs"], 2, 1),
    ("C13", ["A-swords", "A-coins", "A-cups"], 2, 1),
    ("C14", ["5-swords", "9-swords", "A-cups"], 1, 0),
    ("C15", ["A-cups", "2-coins", "3-coins"], 2, 2),
    ("C16", ["K-clubs", "A-clubs", "7-coins"], 1, 1),
    ("C17", ["6-coins", "A-swords", "4-coins"], 0, 2),
    ("C18", ["J-cups", "N-cups", "K-clubs"], 1, 0),
    ("C19", ["2-swords", "K-coins", "3-swords"], 2, 1),
    ("C20", ["N-clubs", "J-clubs", "A-swords"], 0, 0),
    ("C21", ["9-cups", "8-cups", "A-coins"], 0, 1),
    ("C22", ["7-coins", "K-coins", "2-clubs"], 1, 2),
    ("C23", ["2-coins", "3-coins", "4-coins"], 2, 3),
    ("C24", ["A-swords", "K-swords", "9-swords"], 0, 0),
    ("C25", ["J-cups", "A-cups", "N-cups"], 1, 0),
    ("C26", ["8-clubs", "9-clubs", "J-clubs"], 2, 0),
    ("C27", ["N-coins", "K-coins", "A-coins"], 2, 3),
    ("C28", ["K-cups", "N-cups", "J-cups"], 0, 0),
]


@pytest.mark.parametrize(("example", "cards", "winner", "points"), TRICKS, ids=[t[0] for t in TRICKS])
def test_trick_winner_matches_worked_example(example: str, cards: list[str], winner: int, points: int) -> None:
    assert trick_winner(cards) == winner


@pytest.mark.parametrize(("example", "cards", "winner", "points"), TRICKS, ids=[t[0] for t in TRICKS])
def test_trick_played_through_rules_scores_worked_example(
    example: str, cards: list[str], winner: int, points: int
) -> None:
    # Seat 0 leads; each seat holds its card plus a spare so the hand does not end.
    spare = ["2-clubs", "3-clubs", "4-clubs", "5-clubs", "6-clubs", "7-clubs"]
    spare = [c for c in spare if c not in cards][:3]
    state = position(((cards[0], spare[0]), (cards[1], spare[1]), (cards[2], spare[2])), turn=0)
    game = get("coins")
    events: list[Event] = []
    for seat, card in enumerate(cards):
        state, events = game.apply(state, seat, {"type": "play", "card": card})
    won = [e.data for e in events if e.data["type"] == "trick_won"]
    assert won == [{"type": "trick_won", "seat": winner, "points": points,
                    "scores": [points if s == winner else 0 for s in range(3)], "trick_no": 1}]
    assert state.scores[winner] == points
    assert state.turn == winner  # coins/RULES.md §3.2: the winner leads the next trick


def test_trick_winner_refuses_a_wrong_number_of_cards() -> None:
    with pytest.raises(MalformedAction) as refused:
        trick_winner(["2-cups", "3-cups"])
    assert refused.value.code == "bad_trick"


def test_trick_winner_refuses_an_unknown_card_naming_it() -> None:
    with pytest.raises(MalformedAction) as refused:
        trick_winner(["2-cups", "10-cups", "3-cups"])
    assert refused.value.code == "unknown_card"
    assert "'10-cups'" in refused.value.message


def test_trick_winner_refuses_a_repeated_card() -> None:
    with pytest.raises(MalformedAction):
        trick_winner(["2-cups", "2-cups", "3-cups"])
