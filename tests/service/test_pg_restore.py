"""PostgreSQL: a pg_dump of a database at the previous schema, pg_restore'd, is migrated forward and plays on."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from engine.service.tables import TableService
from engine.store.database import Store, database_url
from engine.store.migrating import HEAD, MIGRATIONS, stored_revision
from tests.postgres import database as database
from tests.postgres import fresh_database

pytestmark = pytest.mark.postgres
PREVIOUS = sorted(path.name[:4] for path in (MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))[-2]
ANN = 5


def downgrade(connection: Connection, revision: str) -> None:
    """Take the schema on ``connection`` back to ``revision``, as the previous release left it."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.downgrade(config, revision)


async def run(*argv: str) -> None:
    process = await asyncio.create_subprocess_exec(*argv, stderr=asyncio.subprocess.PIPE)
    _out, err = await process.communicate()
    assert process.returncode == 0, err.decode()


async def test_a_dump_of_the_previous_schema_restores_migrates_forward_and_plays_on(
    database: str, tmp_path: Path,
) -> None:
    store = Store(database_url(database, tmp_path))
    await store.open()
    service = TableService(store, ai_delay=0.0, heal_every=None)
    await service.start()
    table_id = (await service.play_now("coins", ANN, "Ann", {"target_score": 99})).id
    for _ in range(3):
        await service.autoplay.idle()
        table = service.live(table_id)
        assert table is not None and table.to_act() == {0}
        await service.act(table_id, ANN, table.game.legal_actions(table.state, 0)[0], table.seq)
    await service.autoplay.idle()
    logged = await store.tables.load_actions(table_id)
    await service.close()
    await store.close()

    engine = create_async_engine(database_url(database, tmp_path))
    async with engine.begin() as conn:
        await conn.run_sync(downgrade, PREVIOUS)
    assert await stored_revision(engine) == PREVIOUS != HEAD
    await engine.dispose()
    dump = tmp_path / "cardroom.dump"
    await run("pg_dump", "--format=custom", f"--file={dump}", database)

    async with fresh_database("cardroom_restored") as restored:
        await run("pg_restore", "--no-owner", f"--dbname={restored}", str(dump))
        again = Store(database_url(restored, tmp_path))
        await again.open()  # migrates forward
        service = TableService(again, ai_delay=0.0, heal_every=None)
        await service.start()
        try:
            assert await stored_revision(again.writer.engine) == HEAD
            assert await again.tables.load_actions(table_id) == logged
            assert (await service.info(table_id)).seq == len(logged)
            await service.autoplay.idle()
            table = service.live(table_id)
            assert table is not None and table.to_act() == {0}
            moved = await service.act(table_id, ANN, table.game.legal_actions(table.state, 0)[0], table.seq)
            assert moved.seq == len(logged) + 1
        finally:
            await service.close()
            await again.close()
