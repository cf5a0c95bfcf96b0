"""A replay is the rules' own replay: every step of every game, every seat's view, across pages and hands."""

from __future__ import annotations

from typing import Any

import pytest

from engine import games
from engine.service.record import REPLAY_PAGE
from engine.service.tables import TableService
from tests.service.helpers import ai_game

CASES = [  # (game, options, players); the last two always take several hands
    ("coins", {"target_score": 2}, None),
    pytest.param("sergeant_major", {}, None, marks=pytest.mark.slow),  # some 2,000 moves of AI play
    ("kings_corner", {"scoring": "penalty", "penalty_limit": 25}, 3),
]


async def every_step(service: TableService, table_id: str) -> list[dict[str, Any]]:
    """Every step of a replay, page after page as the Mini App asks for them."""
    page = await service.record.replay(table_id)
    steps = list(page["steps"])
    while page["next"] is not None:
        page = await service.record.replay(table_id, page["next"])
        steps.extend(page["steps"])
    return steps


@pytest.mark.parametrize(("game_name", "options", "players"), CASES, ids=["coins", "sergeant_major", "kings_corner"])
async def test_every_replay_step_shows_every_seat_what_the_rules_replay_of_the_log_so_far_shows(
    service: TableService, game_name: str, options: dict[str, Any], players: int | None
) -> None:
    table_id = await ai_game(service, game_name, options, players)
    row = await service.store.tables.load_table(table_id)
    assert row is not None
    game, log = games.get(row.game), await service.store.tables.load_actions(table_id)
    parsed = game.parse_options(row.options)
    steps = await every_step(service, table_id)
    assert [s["seq"] for s in steps] == list(range(len(log) + 1))
    assert [(s["seat"], s["action"]) for s in steps[1:]] == [(a.seat, a.action) for a in log]
    # The rules' replay of each prefix, one move further each step (replay() is new_game then apply, move by move);
    # replay() itself is asked for the prefix at every new hand, at each page's edge and at the end.
    state = game.new_game(parsed, row.size, row.seed)
    hands: set[int | None] = set()
    for k, step in enumerate(steps):
        if k:
            state, _ = game.apply(state, log[k - 1].seat, log[k - 1].action)
        hand = step["views"][0].get("hand_no")
        if hand not in hands or k % REPLAY_PAGE in (0, 1) or k == len(log):
            hands.add(hand)
            state = game.replay(parsed, row.size, row.seed, [(a.seat, a.action) for a in log[:k]])
        assert step["views"] == [game.view(state, seat) for seat in range(row.size)], f"step {k}"
    assert len(hands) > 1 or game_name == "coins", f"the game should span several hands, not {hands}"
    outcome = game.outcome(state)
    assert outcome is not None and outcome.as_dict() == row.result
