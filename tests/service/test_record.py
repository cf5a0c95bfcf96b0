"""Every game remembered: ratings move the right way and rebuild from the logs, history, leaderboards, replays."""

from __future__ import annotations

import hashlib

import pytest
from openskill.models import PlackettLuce

from engine.service.tables import TableService
from tests.service.helpers import ANN, BOB, CAT, finished_game

DAN = 104


async def test_one_game_moves_ratings_exactly_as_openskill_computes_them(service: TableService) -> None:
    table_id = await finished_game(service, -1, ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")))
    result = (await service.info(table_id)).result
    assert result is not None
    placements = result["placements"]
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[float(p) for p in placements])
    stored = await service.store.records.ratings_of("coins")
    for seat, user in enumerate((ANN, BOB, CAT)):
        mu, sigma, games, wins = stored[user]
        assert mu == pytest.approx(expected[seat][0].mu) and sigma == pytest.approx(expected[seat][0].sigma)
        assert games == 1 and wins == (1 if placements[seat] == 1 else 0)
    best = min(range(3), key=lambda s: placements[s])
    worst = max(range(3), key=lambda s: placements[s])
    assert stored[(ANN, BOB, CAT)[best]][0] > 25.0 > stored[(ANN, BOB, CAT)[worst]][0]


async def test_a_rebuild_from_the_logs_equals_the_ratings_kept_game_by_game(service: TableService) -> None:
    await finished_game(service, -1, ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")))
    await finished_game(service, -1, ((BOB, "Bob"), (CAT, "Cat")))  # one AI seat, at its fixed rating
    await finished_game(service, -2, ((ANN, "Ann"), (DAN, "Dan"), (CAT, "Cat")))
    kept = await service.store.records.ratings_of("coins")
    counted = await service.record.rebuild()
    rebuilt = await service.store.records.ratings_of("coins")
    assert counted == {"coins": 3} and set(rebuilt) == set(kept) == {ANN, BOB, CAT, DAN}
    for user, (mu, sigma, games, wins) in kept.items():
        re_mu, re_sigma, re_games, re_wins = rebuilt[user]
        assert re_mu == pytest.approx(mu) and re_sigma == pytest.approx(sigma) and (re_games, re_wins) == (games, wins)


async def test_history_lists_each_players_games_and_the_leaderboard_only_the_groups_players(
    service: TableService,
) -> None:
    here = await finished_game(service, -10, ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")))
    elsewhere = await finished_game(service, -20, ((DAN, "Dan"), (CAT, "Cat")))
    history = await service.record.history(CAT)
    assert [g["table_id"] for g in history] == [elsewhere, here]
    assert {s["name"] for s in history[1]["seats"]} == {"Ann", "Bob", "Cat"}
    assert [s["you"] for s in history[1]["seats"]] == [False, False, True]
    assert [g["table_id"] for g in await service.record.history(ANN)] == [here]
    board = await service.record.leaderboard(-10, "coins")
    assert {entry["user_id"] for entry in board} == {ANN, BOB, CAT}  # Dan never played in this group
    assert [entry["place"] for entry in board] == [1, 2, 3] and all(entry["games"] == 1 for entry in board)
    assert board[0]["rating"] >= board[1]["rating"] >= board[2]["rating"]
    assert await service.store.records.played_in_chat(DAN,
                                                      -10) is False and await service.store.records.played_in_chat(ANN,
                                                                                                                   -10)


async def test_a_replay_shows_every_hand_at_every_step_and_the_seed_that_proves_the_deals(
    service: TableService,
) -> None:
    # first to 5 points: a trick holds at most 3 Coins cards, so the game takes at least two tricks (6 moves)
    table_id = await finished_game(service, None, ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")), target=5)
    first = await service.record.replay(table_id, 0, 5)
    assert hashlib.sha256(first["seed"].encode()).hexdigest() == first["seed_hash"]
    assert first["moves"] > 5
    assert [s["seq"] for s in first["steps"]] == list(range(6)) and first["next"] == 5
    assert all(len(step["views"]) == 3 for step in first["steps"])
    assert [len(v["hand"]) for v in first["steps"][0]["views"]] == [16, 16, 16]
    assert first["steps"][1]["seat"] is not None and first["steps"][1]["action"]["type"] == "play"
    rest = await service.record.replay(table_id, 5, 1000)
    assert [s["seq"] for s in rest["steps"]] == list(range(6, first["moves"] + 1)) and rest["next"] is None


async def test_a_game_still_being_played_has_no_replay(service: TableService) -> None:
    info = await service.create_table("coins", ANN, "Ann")
    await service.start_game(info.id, ANN)
    with pytest.raises(Exception, match="no such table"):
        await service.record.replay(info.id)


async def test_a_groups_standings_kept_game_by_game_equal_its_results_totalled(service: TableService) -> None:
    for people in (((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")), ((BOB, "Bob"), (CAT, "Cat")), ((ANN, "Ann"),)):
        await finished_game(service, -30, people)
    await finished_game(service, -40, ((ANN, "Ann"), (DAN, "Dan")))
    totals: dict[int, list[int]] = {}
    for user in (ANN, BOB, CAT, DAN):
        for game in await service.record.history(user):
            if game["chat_id"] == -30:
                mine = next(s for s in game["seats"] if s["you"])
                totals.setdefault(user, [0, 0])[0] += 1
                totals[user][1] += mine["placement"] == 1
    kept = {e["user_id"]: [e["games"], e["wins"]] for e in await service.record.leaderboard(-30, "coins")}
    assert kept == totals and {user: games for user, (games, _) in kept.items()} == {ANN: 2, BOB: 2, CAT: 2}
    await service.store.records.retotal_standings()
    assert {e["user_id"]: [e["games"], e["wins"]] for e in await service.record.leaderboard(-30, "coins")} == kept
