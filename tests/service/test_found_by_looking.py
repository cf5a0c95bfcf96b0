"""A change another process made that this one finds by looking (its notice lost, or read before the notice came).

Two table services on one PostgreSQL database stand for two processes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.postgres import database as database
from tests.service.helpers import ANN, BOB, CAT, play_out


@pytest.fixture
async def two(database: str, tmp_path: Path) -> AsyncIterator[tuple[TableService, TableService]]:
    """Two 'processes' on the shared database."""
    services = []
    for _ in range(2):
        store = Store(database_url(database, tmp_path))
        await store.open()
        service = TableService(store, heal_every=None)
        await service.start()
        services.append(service)
    yield services[0], services[1]
    for service in services:
        await service.close()
        await service.store.close()


async def test_a_rematch_found_by_looking_is_told_as_a_rematch(two: tuple[TableService, TableService]) -> None:
    one, other = two
    info = await one.create_table("coins", ANN, "Ann", {"target_score": 1})
    await one.join(info.id, BOB, "Bob")
    await one.join(info.id, CAT, "Cat")
    await one.start_game(info.id, ANN)
    await play_out(one, info.id)
    await other.info(info.id)
    heard = other.subscribe(info.id)  # a player's socket on the other process
    one.store.origin = ""  # the rematch's notice is lost on the way
    rematch, opened = await one.join_rematch(info.id, ANN, "Ann")
    assert opened
    assert await other.sharing.check(every_table=True, grace=0) == [info.id]
    update = await asyncio.wait_for(heard.get(), timeout=5)
    assert update.kind == "rematch" and update.snapshot.info.rematch == rematch.id
