"""Which database a URL names, and how each is set up: the SQLAlchemy URL, and SQLite's connection pragmas."""

from __future__ import annotations

from pathlib import Path
from typing import Any

WAL_LIMIT = 16 * 1024 * 1024  # bytes: a WAL that grew past this (checkpoints held back) is cut back when it starts over


def database_url(url: str | None, data_dir: Path) -> str:
    """The async SQLAlchemy URL for ``url`` (DATABASE_URL), or a SQLite file in ``data_dir``."""
    if not url:
        data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{data_dir / 'cardroom.db'}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix):]
    if url.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + url[len("sqlite:///"):]
    return url


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Set up a new SQLite connection: WAL, full sync, a bounded WAL, foreign keys, a busy timeout."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")  # durable on power loss, not only on a crash
    cursor.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")  # the WAL shrinks back when it starts over
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
