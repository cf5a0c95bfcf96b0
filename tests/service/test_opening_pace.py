"""The process's budget of new tables: a storm of openings is refused before it costs anything, and cancelled
lobbies leave memory (SQLite and PostgreSQL)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from engine.core.errors import Refusal
from engine.service.opening_pace import OpeningPace
from engine.service.tables import TableService
from tests.clock import ManualClock
from tests.service.conftest import StoreFactory
from tests.service.helpers import ANN, BOB, CAT

CLOCK = ManualClock()


@pytest.fixture
async def paced(store_factory: StoreFactory) -> AsyncIterator[TableService]:
    """A started service that opens two tables at once and one more every two seconds."""
    service = TableService(await store_factory(), heal_every=None,
                           opening_pace=OpeningPace(rate=0.5, burst=2, clock=CLOCK, spread=0))
    await service.start()
    yield service
    await service.close()


async def test_openings_beyond_the_budget_are_refused_with_the_wait_and_change_nothing(paced: TableService) -> None:
    first = await paced.create_table("coins", ANN, "Ann")
    await paced.create_table("coins", BOB, "Bob")  # the budget is everyone's, not each person's
    for opening in (paced.create_table("coins", CAT, "Cat"), paced.start_lesson("coins", CAT, "Cat")):
        with pytest.raises(Refusal) as refused:
            await opening
        assert refused.value.code == "too_many_new_tables" and refused.value.params == {"seconds": 2}
        assert refused.value.message == "Many tables are being opened right now; try again in 2 s."
    assert await paced.tables_of(CAT) == [] and await paced.count_open_tables(CAT) == 0
    assert (await paced.join(first.id, CAT, "Cat")).seat_of(CAT) == 1  # what is not an opening goes on

    CLOCK.now += 1.0
    with pytest.raises(Refusal) as refused:
        await paced.create_table("coins", CAT, "Cat")
    assert refused.value.params == {"seconds": 1}
    CLOCK.now += 1.0  # two seconds give one opening back, and only one
    assert (await paced.create_table("coins", CAT, "Cat")).seat_of(CAT) == 0
    with pytest.raises(Refusal):
        await paced.create_table("coins", CAT, "Cat")


async def test_a_cancelled_lobby_nobody_follows_leaves_memory_and_still_reads_as_cancelled(
        paced: TableService) -> None:
    cancelled = await paced.create_table("coins", ANN, "Ann")
    left = await paced.create_table("coins", BOB, "Bob")
    CLOCK.now += 2.0
    watched = await paced.create_table("coins", ANN, "Ann")
    subscription = paced.subscribe(watched.id)  # a socket follows this one
    await paced.abandon(cancelled.id, ANN)
    await paced.leave(left.id, BOB)  # its last person left: cancelled too
    await paced.abandon(watched.id, ANN)
    assert paced.live(cancelled.id) is None and paced.live(left.id) is None
    assert paced.live(watched.id) is not None  # its follower still reads it from memory
    assert (await paced.info(cancelled.id)).status == (await paced.info(left.id)).status == "abandoned"
    subscription.close()


async def test_one_person_opening_table_after_table_is_refused_while_everyone_else_opens(
        store_factory: StoreFactory) -> None:
    clock = ManualClock()
    service = TableService(await store_factory(), heal_every=None, opening_pace=OpeningPace(
        rate=100.0, burst=100, clock=clock, person_rate=0.25, person_burst=3))
    await service.start()
    try:
        for _ in range(3):  # a lesson, a game and a rematch in a row pass ...
            await service.abandon((await service.create_table("coins", ANN, "Ann")).id, ANN)
        with pytest.raises(Refusal) as refused:  # ... the fourth at once is Ann's own to wait for
            await service.create_table("coins", ANN, "Ann")
        assert refused.value.reason == "too_many_new_tables_yours" and refused.value.params == {"seconds": 4}
        assert refused.value.message == "You have opened many tables in a row; try again in 4 s."
        assert await service.count_open_tables(ANN) == 0
        for person, name in ((BOB, "Bob"), (CAT, "Cat")):  # the process's openings are not spent by her
            assert (await service.play_now("coins", person, name)).seat_of(person) == 0
        clock.now += 4.0
        assert (await service.create_table("coins", ANN, "Ann")).seat_of(ANN) == 0
    finally:
        await service.close()


def test_the_doors_look_refuses_only_while_the_process_has_nothing_left_and_spends_nothing() -> None:
    clock = ManualClock()
    pace = OpeningPace(rate=1.0, burst=2, clock=clock, spread=0)
    for _ in range(5):
        pace.check()  # looking spends nothing
    pace.take(ANN)
    pace.take(BOB)
    with pytest.raises(Refusal) as refused:
        pace.check()
    assert refused.value.code == "too_many_new_tables" and refused.value.params == {"seconds": 1}
    with pytest.raises(Refusal):  # a refused take spends neither the person's opening nor the process's
        pace.take(CAT)
    clock.now += 1.0
    pace.check()
    pace.take(CAT)
    assert pace.people[CAT].tokens == pace.person_burst - 1


def test_a_crowd_refused_at_one_moment_is_told_to_come_back_at_different_moments() -> None:
    clock = ManualClock()
    pace = OpeningPace(rate=1.0, burst=1, clock=clock, spread=2, rng=random.Random(7))
    pace.take(ANN)
    waits = []
    for _ in range(60):
        with pytest.raises(Refusal) as refused:
            pace.check()
        waits.append(refused.value.params["seconds"])
    assert set(waits) == {1, 2, 3}  # the second until an opening comes back, and up to two more at random
