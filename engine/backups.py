"""``cardroom backup PATH`` and ``cardroom restore PATH``: the database of the settings (DATA_DIR or DATABASE_URL)."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.config import Settings
from engine.store.backup import BackupError, Copied, backup, restore, sqlite_file
from engine.store.database import database_url

POSTGRES_NOTE = ("DATABASE_URL is PostgreSQL: back it up with pg_dump and restore it with pg_restore "
                 "(docs/operations.md#backups)")


def _database(settings: Settings) -> Path | None:
    return sqlite_file(database_url(settings.database_url, settings.data_dir))


def _said(copied: Copied, what: str) -> None:
    print(f"{what} {copied.path}: {copied.tables} tables, {copied.moves} moves, {copied.size / 1e6:.1f} MB")


def backup_command(target: Path, settings: Settings) -> int:
    """Copy the live SQLite database to ``target``; 0 when done."""
    if not settings.database_url and not settings.data_dir.is_dir():  # nothing to copy (and no folder to make)
        print(f"cardroom: {settings.data_dir}: no database here (DATA_DIR)", file=sys.stderr)
        return 1
    source = _database(settings)
    if source is None:
        print(f"cardroom: {POSTGRES_NOTE}", file=sys.stderr)
        return 2
    try:
        _said(backup(source, target), "backed up to")
    except BackupError as error:
        print(f"cardroom: {error}", file=sys.stderr)
        return 1
    return 0


def restore_command(source: Path, settings: Settings, *, force: bool) -> int:
    """Put the backup ``source`` in place of the SQLite database (the process stopped); 0 when done."""
    target = _database(settings)
    if target is None:
        print(f"cardroom: {POSTGRES_NOTE}", file=sys.stderr)
        return 2
    try:
        _said(restore(source, target, force=force), "restored to")
    except BackupError as error:
        print(f"cardroom: {error}", file=sys.stderr)
        return 1
    return 0
