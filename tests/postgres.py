"""A PostgreSQL database of its own for each test of several processes (or services) sharing one.

Import ``database`` into a folder's conftest.py to use it; with no PostgreSQL server
configured (``CARDROOM_TEST_POSTGRES``) the tests that ask for it do not run.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator

import asyncpg
import pytest

from tests.service.conftest import POSTGRES

SHARED = ["postgres"] if POSTGRES else []  # several processes need the PostgreSQL server the test command finds


@contextlib.asynccontextmanager
async def fresh_database(prefix: str) -> AsyncIterator[str]:
    """A new database on the test PostgreSQL server, named ``prefix`` and a random part; dropped afterwards."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(POSTGRES)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    try:
        yield POSTGRES.rsplit("/", 1)[0] + "/" + name
    finally:
        admin = await asyncpg.connect(POSTGRES)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


@pytest.fixture(params=SHARED)
async def database(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """A fresh database on the test PostgreSQL server, dropped afterwards."""
    async with fresh_database("cardroom_two") as url:
        yield url
