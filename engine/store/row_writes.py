"""How a table's row and seats are written: a row only at the version it was read at, or ``StaleRow``.

Every process reads a table's row with its ``version``; a write that finds another version (another
process wrote the row since) changes nothing and raises, and the service reloads and tries again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import TextClause, Update, insert, text, update
from sqlalchemy.engine import Dialect

from engine.core.errors import Refusal, RefusalCode
from engine.store.json_text import json_text
from engine.store.plain_text import plain_text
from engine.store.rows import SeatRow, TableRow
from engine.store.schema import seats, tables


class StaleRow(Refusal):
    """The table's row changed since this copy was read (another process wrote it): reload and try again."""

    def __init__(self, table_id: str) -> None:
        super().__init__(RefusalCode.STALE)
        self.table_id = table_id


async def update_row(conn: Any, row: TableRow) -> None:
    """Write the row if it is still at the version it was read at; raises StaleRow otherwise."""
    done = await conn.execute(row_update(row))
    if done.rowcount != 1:
        raise StaleRow(row.id)


async def write_seats(conn: Any, table_id: str, rows: Sequence[SeatRow]) -> None:
    """Insert a table's seats (the old ones deleted first by the caller)."""
    if rows:
        await conn.execute(insert(seats), [
            {"table_id": table_id, "seat": s.seat, "user_id": s.user_id, "name": plain_text(s.name), "is_ai": s.is_ai,
             "ai_level": s.ai_level, "autopilot": s.autopilot, "missed": s.missed}
            for s in rows
        ])


async def write_table(conn: Any, row: TableRow, *, with_seats: bool, row_written: bool = False) -> None:
    """Write a table's row (unless ``row_written``: already written with its batch) and, ``with_seats``, its seats."""
    if not row_written:
        await update_row(conn, row)
    if with_seats:
        await conn.execute(seats.delete().where(seats.c.table_id == row.id))
        await write_seats(conn, row.id, row.seats)


def row_update(row: TableRow) -> Update:
    """Write the row if it is still at the version it was read at (no row changed: another process wrote it)."""
    return (update(tables).where(tables.c.id == row.id, tables.c.version == row.version)
            .values(**table_values(row), version=row.version + 1))


def table_values(row: TableRow) -> dict[str, Any]:
    """A table's row as the columns of ``tables`` hold it."""
    return {
        "id": row.id, "game": row.game, "options": json_text(row.options), "size": row.size, "status": row.status,
        "host_user_id": row.host_user_id, "chat_id": row.chat_id, "seed": row.seed, "seed_hash": row.seed_hash,
        "timer": row.timer, "deadline": row.deadline, "ai_turn": row.ai_turn, "meta": json_text(row.meta),
        "result": json_text(row.result) if row.result is not None else None,
        "created_at": row.created_at, "updated_at": row.updated_at,
    }



def rows_update(dialect: Dialect) -> TextClause:
    """PostgreSQL: every table row of a batch in one statement, each written only if still at the version it was
    read at; the ids of the rows written come back."""
    kinds = {column.name: f"{column.type.compile(dialect=dialect)}[]" for column in tables.columns}
    names = [name for name in kinds if name not in ("id", "version")]
    return text(
        "UPDATE tables AS t SET " + ", ".join(f"{name} = v.{name}" for name in names)
        + ", version = t.version + 1 FROM unnest("
        + ", ".join(f"CAST(:{name} AS {kind})" for name, kind in kinds.items()) + ") AS v(" + ", ".join(kinds)
        + ") WHERE t.id = v.id AND t.version = v.version RETURNING t.id"
    )
