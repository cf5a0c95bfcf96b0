"""Backups of the SQLite database while it is in use, and restoring one: SQLite's online backup API.

Copying the database file while the process writes it is no backup: the file and its
write-ahead log change under the copy. ``backup`` reads the database in one read transaction
through SQLite's backup API instead (``sqlite3.Connection.backup``), so the copy is the database
as it stood at one moment, every move acknowledged by then in it, while the process goes on
writing (a reader never holds up a writer in WAL mode). The copy is written beside its path and
renamed into place once whole and checked, so a backup cut short never leaves a half file under
the name.

``restore`` copies a backup to where the process reads its database, with the process stopped.
It refuses to overwrite a database that holds anything (a person or a table) unless told to,
and a backup from an older release is brought up to date by the migrations when the process
next opens it. PostgreSQL has its own tools (``pg_dump``, ``pg_restore``: docs/operations.md).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

SIDE_FILES = ("-wal", "-shm", "-journal")  # what SQLite keeps beside a database file


class BackupError(Exception):
    """A backup or a restore that cannot be done; its message says why."""


@dataclass(frozen=True, slots=True)
class Copied:
    """What a backup or restore copied: where to, its size, and how many tables and moves it holds."""

    path: Path
    size: int
    tables: int
    moves: int


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL (as ``engine.store.dialects.database_url`` makes them); None for another."""
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database)


@contextlib.contextmanager
def _connected(path: Path) -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(path, timeout=30.0)
    try:
        yield connection
    finally:
        connection.close()


def _checked(connection: sqlite3.Connection, path: Path) -> Copied:
    """Check a copied database whole and count what it holds."""
    found = connection.execute("PRAGMA integrity_check").fetchone()
    if found is None or found[0] != "ok":
        raise BackupError(f"{path}: the copy failed its integrity check ({found[0] if found else 'no answer'})")
    names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not {"alembic_version", "tables", "actions"} <= names:
        raise BackupError(f"{path}: not a Cardroom database")
    tables = connection.execute("SELECT count(*) FROM tables").fetchone()[0]
    moves = connection.execute("SELECT count(*) FROM actions").fetchone()[0]
    return Copied(path, path.stat().st_size, tables, moves)


def _copy(source: Path, target: Path) -> Copied:
    """Copy ``source`` to ``target`` in one read transaction, as one self-contained file, checked, then renamed."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with _connected(source) as reader, _connected(partial) as writer:
            reader.backup(writer)  # every page in one step: the database as it stood at one moment
            writer.execute("PRAGMA journal_mode=DELETE")  # one file; the process turns WAL on again when it opens it
            copied = _checked(writer, partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return Copied(target, target.stat().st_size, copied.tables, copied.moves)


def backup(source: Path, target: Path) -> Copied:
    """A consistent copy of the SQLite database ``source`` at ``target``, while the database is in use."""
    if not source.is_file():
        raise BackupError(f"{source}: no database here")
    if target.exists() and target.is_dir():
        target = target / source.name
    target.parent.mkdir(parents=True, exist_ok=True)
    return _copy(source, target)


def holds_anything(path: Path) -> bool:
    """Whether the database at ``path`` exists and holds a person or a table."""
    if not path.is_file() or path.stat().st_size == 0:
        return False
    with _connected(path) as connection:
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return any(connection.execute(f'SELECT 1 FROM "{name}" LIMIT 1').fetchone() is not None
                   for name in ("users", "tables") if name in names)


def restore(source: Path, target: Path, *, force: bool = False) -> Copied:
    """Put the backup ``source`` where the process reads its database (``target``); with the process stopped.

    Refuses when ``target`` holds a person or a table, unless ``force``.
    """
    if not source.is_file():
        raise BackupError(f"{source}: no backup here")
    with _connected(source) as connection:
        _checked(connection, source)
    if holds_anything(target) and not force:
        raise BackupError(f"{target}: the database holds tables or people; restore over it with --force")
    target.parent.mkdir(parents=True, exist_ok=True)
    for suffix in SIDE_FILES:  # a log of the database being replaced must not be replayed into the restored one
        target.with_name(target.name + suffix).unlink(missing_ok=True)
    return _copy(source, target)
