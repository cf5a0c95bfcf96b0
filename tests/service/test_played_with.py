"""The leaderboard with no group: a person and the people they finished a game with, anywhere, by rating."""

from __future__ import annotations

import pytest

from engine.core.errors import Refusal
from engine.service.tables import TableService
from tests.service.helpers import ANN, BOB, CAT, finished_game

DAN, EVE = 104, 105


async def test_played_with_lists_you_and_everyone_you_finished_the_game_with_by_rating(
    service: TableService,
) -> None:
    await finished_game(service, None, ((ANN, "Ann"), (BOB, "Bob")))  # local play: no group
    await finished_game(service, -10, ((ANN, "Ann"), (CAT, "Cat")))  # a group counts too
    await finished_game(service, None, ((DAN, "Dan"), (BOB, "Bob")))  # Dan never sat with Ann
    board = await service.record.played_with(ANN, "coins")
    assert {e["user_id"] for e in board} == {ANN, BOB, CAT}
    assert [e["place"] for e in board] == [1, 2, 3]
    assert [e["rating"] for e in board] == sorted((e["rating"] for e in board), reverse=True)
    stored = await service.store.records.ratings_of("coins")
    for e in board:  # each person's own rating and games of Coins, wherever they played
        mu, _sigma, games, wins = stored[e["user_id"]]
        assert (e["games"], e["wins"]) == (games, wins)
        assert e["rating"] == round(1500 + 30 * (mu - 25)) and e["provisional"] is (games < 10)
    assert next(e for e in board if e["user_id"] == BOB)["games"] == 2  # his game with Dan counts in his figures
    assert {e["user_id"] for e in await service.record.played_with(DAN, "coins")} == {DAN, BOB}


async def test_played_with_shows_only_you_after_games_against_ai_and_nobody_before_any(
    service: TableService,
) -> None:
    await finished_game(service, None, ((EVE, "Eve"),))
    board = await service.record.played_with(EVE, "coins")
    assert [(e["user_id"], e["place"], e["games"]) for e in board] == [(EVE, 1, 1)]
    assert await service.record.played_with(EVE, "kings_corner") == []


async def test_played_with_refuses_an_unknown_game(service: TableService) -> None:
    with pytest.raises(Refusal):
        await service.record.played_with(ANN, "chess")
