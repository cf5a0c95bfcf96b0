"""What a PostgreSQL server must allow for Cardroom's processes, read when a process starts.

Every table a process drives holds a lease: an advisory lock, kept in PostgreSQL's shared lock
table. That table holds ``max_locks_per_transaction`` × (``max_connections`` +
``max_prepared_transactions``) locks for the whole server, 6,400 with the defaults; once it is
full a lease cannot be taken ("out of shared memory") and new connections to the server fail.
``LOCKS_WANTED`` is room for three processes each driving as many tables as it keeps in memory
(``engine.service.loading.MAX_LOADED``, 5,000) and the ordinary locks besides. A server with less
is not refused (a small community never comes near it), but the process says so at start, with the
setting to raise (docs/deployment.md).
"""

from __future__ import annotations

import logging

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger(__name__)
LOCKS_WANTED = 16_000
LOCK_SETTINGS = text(
    "SELECT current_setting('max_locks_per_transaction')::int,"
    " current_setting('max_connections')::int + current_setting('max_prepared_transactions')::int")


async def lock_settings(engine: AsyncEngine) -> tuple[int, int]:
    """The server's ``max_locks_per_transaction``, and the connections its lock table is sized for."""
    async with engine.connect() as conn:
        per, connections = (await conn.execute(LOCK_SETTINGS)).one()
    return int(per), int(connections)


async def check_server(engine: AsyncEngine) -> int:
    """Read the server's lock room and warn when it is short of ``LOCKS_WANTED``; the room."""
    per, connections = await lock_settings(engine)
    room = per * connections
    if room < LOCKS_WANTED:
        log.warning("PostgreSQL's lock table holds %d locks (max_locks_per_transaction × connections); every table a "
                    "process drives takes one, so processes driving more than that between them cannot take a "
                    "table's lease and new connections fail: set max_locks_per_transaction to at least %d "
                    "(docs/deployment.md)", room, -(-LOCKS_WANTED // connections))
    return room
