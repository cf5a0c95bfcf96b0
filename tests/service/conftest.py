"""Stores for the service tests: a SQLite file in a temp dir, and PostgreSQL when configured.

``CARDROOM_TEST_POSTGRES`` (set by the README's test command and by CI, where a server
runs on loopback) names a PostgreSQL server; each test gets a database of its own.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from engine.store.database import Store, database_url

POSTGRES = os.environ.get("CARDROOM_TEST_POSTGRES", "")
BACKENDS = ["sqlite", "postgres"] if POSTGRES else ["sqlite"]

StoreFactory = Callable[[], Awaitable[Store]]


@pytest.fixture(params=BACKENDS)
async def store_factory(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[StoreFactory]:
    """Opens stores over one database (call it again to 'restart' over the same data)."""
    opened: list[Store] = []
    if request.param == "sqlite":
        url = database_url(None, tmp_path)
    else:
        name = f"cardroom_test_{secrets.token_hex(4)}"
        admin = await asyncpg.connect(POSTGRES)
        await admin.execute(f'CREATE DATABASE "{name}"')
        await admin.close()
        url = database_url(POSTGRES.rsplit("/", 1)[0] + "/" + name, tmp_path)

    async def open_store() -> Store:
        store = Store(url)
        await store.open()
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        await store.close()
    if request.param == "postgres":
        admin = await asyncpg.connect(POSTGRES)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


@pytest.fixture
async def store(store_factory: StoreFactory) -> Store:
    """An open store on each backend (the shared ``service`` fixture runs over it)."""
    return await store_factory()
