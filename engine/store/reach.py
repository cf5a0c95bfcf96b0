"""Whether an error means the database cannot be reached just now (down, restarting, the connection lost).

Such an error is not a bug: the same request may work a moment later, once the server is
back and the pool has opened fresh connections. Adapters tell people so in words; the
connection that listens for other processes reconnects.
"""

from __future__ import annotations

from functools import cache

from sqlalchemy.exc import DBAPIError


@cache
def unreachable_errors() -> tuple[type[BaseException], ...]:
    """What the driver raises when the server is away: the socket closed or refused, no answer in time,
    the server shutting down or still starting.

    PostgreSQL's driver is imported here, the first time an error is looked at (or by PostgreSQL's
    peers): a SQLite process never otherwise loads it, and starts that much sooner.
    """
    import asyncpg

    return (OSError, TimeoutError, asyncpg.InterfaceError, asyncpg.PostgresConnectionError,
            asyncpg.exceptions.OperatorInterventionError)


def is_unreachable(error: BaseException) -> bool:
    """Whether ``error`` (or what it wraps) says the database is out of reach, not that a request was wrong."""
    seen: BaseException | None = error
    for _ in range(8):  # the driver's error wrapped by SQLAlchemy's, a few links deep at most
        if seen is None:
            return False
        if isinstance(seen, unreachable_errors()) or (isinstance(seen, DBAPIError) and seen.connection_invalidated):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
