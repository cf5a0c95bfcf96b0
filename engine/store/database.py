"""The durable store: SQLite by default, PostgreSQL when the URL says so, one code path.

One ``Writer`` (``writer``: the connection and the one writer task every write goes through;
on SQLite, plain moves through ``sqlite_moves``; the schema brought up to date by
``migrating``) is built once, and each kind of row has a repository of its own over it:
``tables`` (tables, seats, the move log, deadlines, snapshots), ``people`` (names, settings,
languages, stats), ``records`` (results, ratings, history, leaderboards, groups) and
``chats`` (groups' languages, the bot's records, rematch links). ``finish_rows`` is what a
finished game writes in the transaction that finishes it. ``Store`` holds them together:
the one object the service is given.
"""

from __future__ import annotations

from engine.store.chat_rows import ChatRows
from engine.store.dialects import database_url
from engine.store.migrating import MIGRATION_LOCK
from engine.store.notices import CHANNEL
from engine.store.people_rows import PeopleRows
from engine.store.record_rows import RecordRows
from engine.store.row_writes import StaleRow
from engine.store.table_rows import TableRows
from engine.store.writer import Job, Pending, Writer

__all__ = ["CHANNEL", "MIGRATION_LOCK", "Job", "Pending", "StaleRow", "Store", "Writer", "database_url"]


class Store:
    """The writer, opened and closed here, and the repositories of tables, people, the record and chats over it."""

    def __init__(self, url: str, commit_delay: float = 0.0) -> None:
        self.writer = Writer(url, commit_delay)
        self.tables = TableRows(self.writer)
        self.people = PeopleRows(self.writer)
        self.records = RecordRows(self.writer)
        self.chats = ChatRows(self.writer)

    @property
    def is_shared(self) -> bool:
        """Whether other processes may use this database at the same time (PostgreSQL)."""
        return self.writer.is_shared

    @property
    def dsn(self) -> str:
        """The plain ``postgresql://`` address, for a raw connection that listens and holds leases."""
        return self.writer.dsn

    @property
    def origin(self) -> str:
        """This process's name in change notices ("" until the service shares the database)."""
        return self.writer.origin

    @origin.setter
    def origin(self, name: str) -> None:
        self.writer.origin = name

    async def open(self) -> None:
        """Bring the schema up to date (one process at a time) and start the writer."""
        await self.writer.open()

    async def close(self) -> None:
        """Finish pending writes and release the connections."""
        await self.writer.close()
