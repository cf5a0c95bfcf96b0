"""A writer for each repository's tests: on a SQLite file in a temp dir, and on PostgreSQL when configured.

Each repository is built alone over it, as the store builds it: nothing else of the store is
needed to read or write its rows.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.store.dialects import database_url
from engine.store.rows import SeatRow, TableRow
from engine.store.writer import Writer
from tests.postgres import fresh_database
from tests.service.conftest import BACKENDS


@pytest.fixture(params=BACKENDS)
async def writer(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Writer]:
    """An open writer over a fresh database (a SQLite file, or a PostgreSQL database of its own)."""
    if request.param == "sqlite":
        opened = Writer(database_url(None, tmp_path))
        await opened.open()
        yield opened
        await opened.close()
        return
    async with fresh_database("cardroom_store") as url:
        opened = Writer(database_url(url, tmp_path))
        await opened.open()
        yield opened
        await opened.close()


def table(table_id: str, *, chat_id: int | None = -100, status: str = "playing", people: tuple[int, ...] = (1, 2, 3),
          created_at: float = 1.0) -> TableRow:
    """A coins table of three seats held by ``people`` (user ids), in ``chat_id``."""
    return TableRow(table_id, "coins", {"target_score": 1}, 3, status, people[0], chat_id, f"seed {table_id}",
                    "0" * 64, created_at=created_at,
                    seats=[SeatRow(seat, f"P{user}", user) for seat, user in enumerate(people)])
