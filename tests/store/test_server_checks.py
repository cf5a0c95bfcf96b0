"""A process on PostgreSQL reads the server's lock room at start and says, with the setting to raise, when it is short
of what its tables' leases may take."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from engine.store.database import Store, database_url
from engine.store.server_checks import LOCKS_WANTED, lock_settings
from tests.postgres import database as database

pytestmark = pytest.mark.postgres


async def test_a_process_says_at_start_when_the_servers_lock_table_is_short(
    database: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = database_url(database, tmp_path)
    engine = create_async_engine(url)
    try:
        per, connections = await lock_settings(engine)
    finally:
        await engine.dispose()
    caplog.set_level(logging.WARNING, logger="engine.store.server_checks")
    store = Store(url)
    await store.open()
    await store.close()
    said = [r.getMessage() for r in caplog.records if r.name == "engine.store.server_checks"]
    if per * connections >= LOCKS_WANTED:
        assert said == []
    else:  # this server's defaults (64 × 100 = 6,400): said once, with the room and the setting that would do
        assert len(said) == 1 and f"holds {per * connections} locks" in said[0]
        assert f"max_locks_per_transaction to at least {-(-LOCKS_WANTED // connections)}" in said[0]
