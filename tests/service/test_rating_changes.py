"""Each person's rating before and after each game: kept as the game finishes (its mu, shown on the 1500 scale), the
same after a rebuild, none for AI seats or lessons, readable the moment the end is published, and a player's best
rating and recent trend."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import update

from engine.core.errors import Refusal
from engine.service import ratings
from engine.service.bus import Update
from engine.service.tables import TableService
from engine.store.schema import results
from tests.service.helpers import ANN, BOB, CAT, finished_game, play_out, started_coins

DAN = 104


def mu(skill: tuple[float, float]) -> float:
    """What a result keeps of a skill: its mu."""
    return skill[0]


def shown(skill: tuple[float, float]) -> int:
    """The rating people see of a skill, worked out here: 1500 + 30 (mu - 25), whole points."""
    return round(1500 + 30 * (skill[0] - 25))


def flat(changes: list[tuple[int, float, float, int]]) -> list[float]:
    """Seats and ratings in one list, to compare with pytest.approx."""
    return [figure for change in changes for figure in change]


async def placements_of(service: TableService, table_id: str) -> list[int]:
    result = (await service.info(table_id)).result
    assert result is not None
    return list(result["placements"])


async def test_a_finished_game_keeps_each_persons_rating_before_and_after_and_none_for_the_ai(
    service: TableService,
) -> None:
    first = await finished_game(service, -1, ((ANN, "Ann"), (BOB, "Bob")))  # seat 2 is an AI player
    places = await placements_of(service, first)
    after = ratings.rate([(ANN, ""), (BOB, ""), (None, "easy")], places, {})
    # newcomers start at mu 25: the rating shown before their first game is 1500, provisional after it
    assert flat(await service.store.records.rating_changes(first)) == pytest.approx(
        [0, 25.0, mu(after[ANN]), 1, 1, 25.0, mu(after[BOB]), 1], abs=1e-9)
    assert await service.record.rating_changes(first) == [
        {"seat": 0, "before": 1500, "after": shown(after[ANN]), "change": shown(after[ANN]) - 1500,
         "provisional": True},
        {"seat": 1, "before": 1500, "after": shown(after[BOB]), "change": shown(after[BOB]) - 1500,
         "provisional": True}]

    # the next game starts from where the last one left each of them: Cat is new, Ann and Bob are not
    second = await finished_game(service, -1, ((BOB, "Bob"), (CAT, "Cat"), (ANN, "Ann")))
    places = await placements_of(service, second)
    again = ratings.rate([(BOB, ""), (CAT, ""), (ANN, "")], places, after)
    assert flat(await service.store.records.rating_changes(second)) == pytest.approx(
        [0, mu(after[BOB]), mu(again[BOB]), 2, 1, 25.0, mu(again[CAT]), 1, 2, mu(after[ANN]), mu(again[ANN]), 2],
        abs=1e-9)
    stored = await service.store.records.ratings_of("coins")
    for user in (ANN, BOB, CAT):  # what the game left is the rating now
        assert mu(stored[user][:2]) == pytest.approx(mu(again[user]))


async def test_a_rebuild_keeps_the_same_rating_changes_as_the_games_did(service: TableService) -> None:
    tables = [await finished_game(service, -1, ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat"))),
              await finished_game(service, -1, ((BOB, "Bob"), (CAT, "Cat"))),
              await finished_game(service, -2, ((ANN, "Ann"), (DAN, "Dan"), (CAT, "Cat")))]
    kept = {t: await service.store.records.rating_changes(t) for t in tables}
    assert [len(kept[t]) for t in tables] == [3, 2, 3]

    async def forget(conn: Any) -> None:  # lost, as a database from before they were kept has them
        await conn.execute(update(results).values(rating_before=None, rating_after=None))

    await service.store.writer.write(forget)
    assert [await service.store.records.rating_changes(t) for t in tables] == [[], [], []]
    await service.record.rebuild()
    for t in tables:
        assert flat(await service.store.records.rating_changes(t)) == pytest.approx(flat(kept[t]), abs=1e-9)


async def test_a_lesson_has_no_rating_changes(service: TableService) -> None:
    info = await service.start_lesson("coins", DAN, "Newcomer")
    await play_out(service, info.id)
    assert (await service.info(info.id)).status == "finished"
    assert await service.record.rating_changes(info.id) == []
    assert await service.store.records.ratings_of("coins") == {}


async def test_a_table_not_finished_has_none_and_an_unknown_one_is_refused(service: TableService) -> None:
    playing = await started_coins(service, humans=2)
    assert await service.record.rating_changes(playing) == []
    with pytest.raises(Refusal) as refused:
        await service.record.rating_changes("no-such-table")
    assert refused.value.code == "table_not_found"


async def test_the_changes_are_there_the_moment_the_end_is_published(service: TableService) -> None:
    """The end is stored with its rating changes in one transaction before anyone hears of it: nothing to wait for."""
    info = await service.create_table("coins", ANN, "Ann", {"target_score": 1}, chat_id=-1)
    await service.join(info.id, BOB, "Bob")
    read_at_the_end: list[list[dict[str, Any]]] = []

    async def listener(update: Update) -> None:
        if update.kind == "finished":
            read_at_the_end.append(await service.record.rating_changes(info.id))

    listening = service.listen(info.id, listener)
    try:
        await service.start_game(info.id, ANN)
        await play_out(service, info.id)
    finally:
        listening.close()
    [changes] = read_at_the_end
    assert [c["seat"] for c in changes] == [0, 1]
    assert changes == await service.record.rating_changes(info.id)


async def test_stats_give_the_best_rating_reached_and_the_recent_trend_oldest_first(service: TableService) -> None:
    tables = [await finished_game(service, -1, ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat"))) for _ in range(3)]
    afters = [next(a for seat, _, a, _ in await service.store.records.rating_changes(t) if seat == 0) for t in tables]
    [coins] = await service.record.stats(ANN)
    assert coins["trend"] == [shown((a, 0)) for a in afters]  # oldest first, as the games were played
    assert coins["best"] == shown((max(afters), 0))
    assert coins["rating"] == shown((afters[-1], 0)) and coins["provisional"] is True  # three games of ten


async def test_the_trend_keeps_the_last_ten_games(service: TableService) -> None:
    tables = [await finished_game(service, None, ((ANN, "Ann"),)) for _ in range(12)]
    afters = [(await service.store.records.rating_changes(t))[0][2] for t in tables]

    async def peak(conn: Any) -> None:  # the first game left Ann higher than she has been since
        await conn.execute(update(results).where(results.c.table_id == tables[0], results.c.seat == 0)
                           .values(rating_after=max(afters) + 5))

    await service.store.writer.write(peak)
    [coins] = await service.record.stats(ANN)
    assert coins["games"] == 12 and coins["trend"] == [shown((a, 0)) for a in afters[2:]]
    assert coins["best"] == shown((max(afters) + 5, 0))  # the best of every game, not only of the last ten
    assert coins["provisional"] is False  # twelve games: no longer provisional
