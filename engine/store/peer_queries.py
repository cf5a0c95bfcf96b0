"""The SQL of the processes sharing a PostgreSQL database (``engine.service.pg_peers``): each one's row and heartbeat,
and the leases that say which process drives each table.

Every statement runs on a process's own listening connection, named ``APPLICATION`` and its
origin (``pg_stat_activity.application_name``): a process is alive while that connection is
open and its heartbeat (``processes.seen_at``) is recent.
"""

from __future__ import annotations

REGISTER = (  # this process's address under its origin; the rows of processes whose connection is gone are dropped
    "WITH gone AS (DELETE FROM processes WHERE origin <> $1 AND origin NOT IN (SELECT substr(application_name, $3) "
    "FROM pg_stat_activity WHERE application_name LIKE $4 AND datname = current_database())) "
    "INSERT INTO processes (origin, url, seen_at) VALUES ($1, $2, extract(epoch FROM now())) "
    "ON CONFLICT (origin) DO UPDATE SET url = excluded.url, seen_at = excluded.seen_at")
HEARTBEAT = (  # this process is alive: its row's seen_at now (the row written again if another process dropped it)
    "INSERT INTO processes (origin, url, seen_at) VALUES ($1, $2, extract(epoch FROM now())) "
    "ON CONFLICT (origin) DO UPDATE SET seen_at = excluded.seen_at")
# end the listening sessions of the other processes silent too long: they reconnect afresh. A session younger than
# that is not silent, whatever its row says: a process back in touch opens it before its first statement there
# writes its heartbeat again, and ending it then would cost it another reconnection.
END_SILENT = (
    "SELECT count(pg_terminate_backend(a.pid)) FROM pg_stat_activity a "
    "JOIN processes p ON p.origin = substr(a.application_name, $2) "
    "WHERE a.application_name LIKE $3 AND a.datname = current_database() AND p.origin <> $1 "
    "AND p.seen_at < extract(epoch FROM now()) - $4 AND extract(epoch FROM a.backend_start) < "
    "extract(epoch FROM now()) - $4")


def _alive(application: str, stale_after: str) -> str:
    """SQL: whether the process named ``l.origin`` is alive (its heartbeat recent, its listening connection open),
    given the parameters that hold ``APPLICATION`` and ``STALE_AFTER``."""
    return (f"EXISTS (SELECT 1 FROM processes p JOIN pg_stat_activity a ON a.application_name = {application} || "
            "p.origin WHERE p.origin = l.origin AND a.datname = current_database() "
            f"AND p.seen_at >= extract(epoch FROM now()) - {stale_after})")


TAKE = (  # a table's lease, if free, already this process's, or its holder's no longer alive: the fence, or None
    "INSERT INTO leases AS l (table_id, origin) VALUES ($1, $2) ON CONFLICT (table_id) DO UPDATE "
    "SET origin = excluded.origin, fence = l.fence + CASE WHEN l.origin = excluded.origin THEN 0 ELSE 1 END "
    f"WHERE l.origin = excluded.origin OR NOT {_alive('$3', '$4')} RETURNING fence")
OWNER = (  # the address of the live process holding a table's lease
    "SELECT p.url FROM leases l JOIN processes p ON p.origin = l.origin "
    f"WHERE l.table_id = $1 AND {_alive('$2', '$3')}")
STILL_MINE = "SELECT coalesce(array_agg(table_id), '{}') FROM leases WHERE origin = $1"
FORGET_GONE = "DELETE FROM leases l WHERE NOT EXISTS (SELECT 1 FROM processes p WHERE p.origin = l.origin)"
