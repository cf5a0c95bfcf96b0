"""Whether the service's database is ready to serve: it answers a trivial query in time, at the newest schema."""

from __future__ import annotations

import asyncio

from engine.service.tables import TableService
from engine.store.migrating import HEAD, stored_revision

DATABASE_TIMEOUT = 2.0  # seconds the database has to answer a readiness check


async def database_problem(service: TableService, within: float = DATABASE_TIMEOUT) -> str | None:
    """None when the database answers within ``within`` seconds at the newest schema; else what is not."""
    try:
        async with asyncio.timeout(within):
            revision = await stored_revision(service.store.writer.engine)
    except TimeoutError:
        return f"the database did not answer within {within:g} s"
    except Exception as error:  # out of reach, refused, a broken connection: say which, never the address
        return f"the database failed: {type(error).__name__}"
    if revision != HEAD:
        return f"the schema is at revision {revision or 'none'}, the code needs {HEAD}: migrations not done"
    return None
