"""The schema's migrations: bring a database up to the newest, one process at a time, and only when it is behind.

Alembic runs the migrations in ``engine/store/migrations``. A process that restarts on a
database already at the newest revision reads one row to learn so, and never imports or runs
Alembic: that is most of a tenth of a second of every restart (``bench.restart``). The newest
revision is the highest number a migration's file name starts with (a test holds Alembic to it).
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).parent / "migrations"
HEAD = max(path.name[:4] for path in (MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))
MIGRATION_LOCK = 72_170_001  # PostgreSQL advisory lock key: one process migrates at a time


def migrate(connection: Connection, revision: str = "head") -> None:
    """Upgrade the schema on ``connection`` to ``revision`` (the latest by default)."""
    from alembic import command  # imported only when a migration may run: it is slow to import
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


async def stored_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at, or None when it has none yet (a new database)."""
    async with engine.connect() as conn:
        try:
            return (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one_or_none()
        except DBAPIError:  # no alembic_version table: nothing was ever migrated here
            return None


async def bring_up_to_date(engine: AsyncEngine, *, shared: bool) -> None:
    """Migrate the database to ``HEAD`` unless it is there already; ``shared``: other processes may race this."""
    if await stored_revision(engine) == HEAD:
        return
    async with engine.begin() as conn:
        if shared:  # processes starting together on a fresh database must not race the migration
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        await conn.run_sync(migrate)
