"""The durable store: SQLite by default, PostgreSQL when the URL says so, one code path.

``Store`` is built in layers, a module each: ``writer`` (the connection and the one writer task
every write goes through; on SQLite, plain moves through ``sqlite_moves``; the schema brought
up to date by ``migrating``),
``table_rows`` (tables, seats, the move log, users, snapshots), ``record_rows`` (results,
ratings, history, leaderboards) and ``bot_rows`` (the bot's records and chosen languages);
``finish_rows`` is what a finished game writes in the transaction that finishes it.
"""

from __future__ import annotations

from engine.store.bot_rows import BotRows
from engine.store.migrating import MIGRATION_LOCK
from engine.store.writer import CHANNEL, Job, Pending, StaleRow, database_url

__all__ = ["CHANNEL", "MIGRATION_LOCK", "Job", "Pending", "StaleRow", "Store", "database_url"]


class Store(BotRows):
    """Reads and writes tables, seats, users, the move log, the record and the bot's records."""
