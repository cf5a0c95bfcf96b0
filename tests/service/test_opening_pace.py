"""The process's budget of new tables: a storm of openings is refused before it costs anything, and cancelled
lobbies leave memory (SQLite and PostgreSQL)."""

from __future__ import annotations

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
                           opening_pace=OpeningPace(rate=0.5, burst=2, clock=CLOCK))
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
