"""Which database a URL names, and how each is set up: the SQLAlchemy URL, SQLite's connection pragmas, and
PostgreSQL's connections bounded in time."""

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


# PostgreSQL: nothing waits on a server that stopped answering. A statement is cancelled by the server after
# STATEMENT_TIMEOUT_MS; the driver gives up on an answer after COMMAND_TIMEOUT (a partition: the server never
# answers at all) and on a connect after CONNECT_TIMEOUT; a transaction left idle is ended by the server; and the
# server's keepalives and user timeout notice a client that vanished in seconds, not the kernel's two hours.
STATEMENT_TIMEOUT_MS = 3000
COMMAND_TIMEOUT = 3.5  # seconds: a little over the statement timeout, so the server's own cancel comes first
# a partition: a pinged connection that does not answer, then a new one, in 6.5 s (1.5 s failed a cold connect on
# a loaded machine: the TLS probe alone waited on a busy event loop)
CONNECT_TIMEOUT = 3.0
# a transaction whose client said nothing for this long is ended with its locks: a process stopped or cut off in the
# middle of one would otherwise block, until then, the very rows the process taking its tables over must write (no
# transaction of ours waits on anything but the server between its statements). Under HOLD_FOR (4 s) plus a
# heartbeat's spacing, so the rows are free before another process may take the tables
IDLE_IN_TRANSACTION_MS = 4000
KEEPALIVE_IDLE, KEEPALIVE_INTERVAL, KEEPALIVE_COUNT = 5, 2, 3  # seconds, seconds, probes: a dead peer in ~11 s
TCP_USER_TIMEOUT_MS = 10000  # data sent and not acknowledged for this long: the connection is dead


def connection_settings(*, timeouts: bool = True) -> dict[str, str]:
    """PostgreSQL's per-connection settings (asyncpg's ``server_settings``); ``timeouts=False`` for a migration,
    which may wait for another process's and run long."""
    found = {"tcp_keepalives_idle": str(KEEPALIVE_IDLE), "tcp_keepalives_interval": str(KEEPALIVE_INTERVAL),
             "tcp_keepalives_count": str(KEEPALIVE_COUNT), "tcp_user_timeout": str(TCP_USER_TIMEOUT_MS)}
    if timeouts:
        found |= {"statement_timeout": str(STATEMENT_TIMEOUT_MS),
                  "idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS)}
    return found


def engine_options(url: str, *, timeouts: bool = True) -> dict[str, Any]:
    """``create_async_engine``'s keyword arguments for ``url``: PostgreSQL's pool bounded in time (see above)."""
    if url.startswith("sqlite"):
        return {}
    return {"pool_pre_ping": True, "pool_timeout": CONNECT_TIMEOUT + COMMAND_TIMEOUT,
            "connect_args": {"timeout": CONNECT_TIMEOUT, "command_timeout": COMMAND_TIMEOUT if timeouts else None,
                             "server_settings": connection_settings(timeouts=timeouts)}}
