"""The cap on a person's open tables, held by the service for every way of taking a seat (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from engine.core.errors import Refusal
from engine.service.tables import TableService
from tests.service.conftest import StoreFactory
from tests.service.helpers import ANN, BOB, CAT, play_out

LIMIT = 2


@pytest.fixture
async def capped(store_factory: StoreFactory) -> AsyncIterator[TableService]:
    """A started service whose people may sit at two open tables each."""
    service = TableService(await store_factory(), heal_every=None, max_open_tables=LIMIT)
    await service.start()
    yield service
    await service.close()


async def test_creating_and_joining_are_refused_at_the_cap_and_allowed_again_when_a_table_closes(
        capped: TableService) -> None:
    first = await capped.create_table("coins", ANN, "Ann")
    await capped.create_table("coins", ANN, "Ann")
    with pytest.raises(Refusal) as refused:
        await capped.create_table("coins", ANN, "Ann")
    assert refused.value.code == "too_many_tables" and str(LIMIT) in refused.value.message
    bobs = await capped.create_table("coins", BOB, "Bob")
    with pytest.raises(Refusal) as refused:
        await capped.join(bobs.id, ANN, "Ann")
    assert refused.value.code == "too_many_tables"
    assert (await capped.info(bobs.id)).seat_of(ANN) is None
    assert await capped.count_open_tables(ANN) == LIMIT
    await capped.leave(first.id, ANN)  # her first lobby is abandoned: room for one more
    assert (await capped.join(bobs.id, ANN, "Ann")).seat_of(ANN) == 1


async def test_a_lesson_counts_and_is_refused_at_the_cap(capped: TableService) -> None:
    await capped.start_lesson("coins", ANN, "Ann")
    await capped.create_table("coins", ANN, "Ann")
    with pytest.raises(Refusal) as refused:
        await capped.start_lesson("coins", ANN, "Ann")
    assert refused.value.code == "too_many_tables"


async def test_concurrent_creates_at_the_limit_give_exactly_one_table(capped: TableService) -> None:
    await capped.create_table("coins", ANN, "Ann")
    results = await asyncio.gather(*(capped.create_table("coins", ANN, "Ann") for _ in range(8)),
                                   return_exceptions=True)
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(made) == 1 and len(refused) == 7 and {r.code for r in refused} == {"too_many_tables"}
    assert await capped.count_open_tables(ANN) == LIMIT


async def test_concurrent_joins_of_different_tables_at_the_limit_give_exactly_one_seat(capped: TableService) -> None:
    await capped.create_table("coins", ANN, "Ann")
    lobbies = [await capped.create_table("coins", host, name) for host, name in ((BOB, "Bob"), (CAT, "Cat"))]
    results = await asyncio.gather(*(capped.join(info.id, ANN, "Ann") for info in lobbies), return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["Refusal", "TableInfo"]
    assert await capped.count_open_tables(ANN) == LIMIT


async def test_a_rematch_is_not_opened_by_a_person_at_the_cap(capped: TableService) -> None:
    info = await capped.create_table("coins", ANN, "Ann", {"target_score": 1})
    await capped.join(info.id, BOB, "Bob")
    await capped.start_game(info.id, ANN)
    await play_out(capped, info.id)
    await capped.create_table("coins", ANN, "Ann")
    await capped.create_table("coins", ANN, "Ann")
    with pytest.raises(Refusal) as refused:
        await capped.join_rematch(info.id, ANN, "Ann")
    assert refused.value.code == "too_many_tables"
    assert (await capped.info(info.id)).rematch is None
    fresh, opened = await capped.join_rematch(info.id, BOB, "Bob")  # Bob has room: he opens it
    assert opened and fresh.seat_of(BOB) == 0


async def test_the_cap_follows_the_service_setting(service: TableService) -> None:
    assert service.max_open_tables == 20  # the default, as the settings' MAX_OPEN_TABLES_PER_USER
    service.max_open_tables = 1
    await service.create_table("coins", ANN, "Ann")
    with pytest.raises(Refusal) as refused:
        await service.create_table("coins", ANN, "Ann")
    assert refused.value.code == "too_many_tables" and refused.value.params == {"limit": 1}
