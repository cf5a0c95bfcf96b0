"""/top writes the same rating the page and the end of the game show: a newcomer last in a first game is at or below
1500, never below 0, with "?" (provisional) and a line saying what "?" means, in the group's language."""

from __future__ import annotations

import re

from tests.bot.conftest import GROUP, Harness
from tests.service.helpers import finished_game
from tests.service.newcomer import first_game_lost


async def test_top_shows_a_newcomers_rating_after_a_lost_first_game_with_a_question_mark(bot: Harness) -> None:
    table_id, uid = await first_game_lost(bot.service, 7100, GROUP, "Ann")
    await bot.settle()
    [change] = await bot.service.record.rating_changes(table_id)
    assert change["before"] == 1500 and 0 <= change["after"] <= 1500 and change["provisional"] is True
    [entry] = await bot.service.record.leaderboard(GROUP, "coins")
    assert (entry["rating"], entry["provisional"]) == (change["after"], True)

    bot.fake.add_user(uid, "Ann")
    await bot.send(bot.fake.message(GROUP, uid, "/top coins"))
    board = bot.fake.last_message(GROUP).shown
    line = next(line for line in board.splitlines() if line.startswith("1. "))
    assert f"Ann — {change['after']}? (1 game, 0 wins)" in line
    assert not re.search(r"[-\u2212]\d", board)  # no negative number anywhere
    assert "A rating with ? is provisional: fewer than 10 games finished." in board


async def test_top_has_no_question_mark_once_the_rating_is_no_longer_provisional(bot: Harness) -> None:
    for _ in range(10):
        await finished_game(bot.service, GROUP, ((7300, "Bea"),))
    await bot.settle()
    bot.fake.add_user(7300, "Bea")
    await bot.send(bot.fake.message(GROUP, 7300, "/top"))
    board = bot.fake.last_message(GROUP).shown
    [entry] = await bot.service.record.leaderboard(GROUP, "coins")
    assert entry["provisional"] is False and f"Bea — {entry['rating']} (10 games" in board
    assert "?" not in board
