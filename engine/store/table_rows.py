"""Tables, seats, the move log, deadlines and game snapshots as the table service reads and writes them."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.store.finish_rows import write_finish
from engine.store.json_text import json_text
from engine.store.row_writes import table_values, update_row, write_seats
from engine.store.rows import Finish, LoggedAction, SeatRow, TableRow
from engine.store.schema import (
    actions,
    seats,
    snapshots,
    tables,
)
from engine.store.writer import Writer


class TableRows:
    """The rows of live play: tables with their seats, the move log, deadlines, snapshots."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer

    async def append(
        self, table_id: str, entry: LoggedAction, table: TableRow | None = None, *, with_seats: bool = False,
        finish: Finish | None = None, version: int = 0,
    ) -> None:
        """Store one move durably, with its table's new row in the same transaction; raises Refusal("stale")."""
        await self._writer.append(table_id, entry, table, with_seats=with_seats, finish=finish, version=version)

    async def create_table(self, row: TableRow) -> None:
        """Insert a new table with its seats."""

        async def work(conn: Any) -> None:
            await conn.execute(insert(tables).values(**table_values(row)))
            await write_seats(conn, row.id, row.seats)

        await self._writer.write(work)

    async def save_table(
        self, row: TableRow, *, with_seats: bool = True, notice: tuple[int, str, str] | None = None,
        finish: Finish | None = None,
    ) -> None:
        """Store a table's changed fields (and its seats); ``notice`` (seq, kind, events) tells the other processes."""
        row.updated_at = time.time()

        async def work(conn: Any) -> None:
            if notice is not None:
                seq, kind, events = notice
                await self._writer.notice(conn, row.id, seq, kind, row.version + 1, events)
            await update_row(conn, row)
            if with_seats:
                await conn.execute(seats.delete().where(seats.c.table_id == row.id))
                await write_seats(conn, row.id, row.seats)
            if finish is not None:
                await write_finish(conn, finish)

        def stored() -> None:
            row.version += 1

        await self._writer.write(work, stored)

    async def load_table(self, table_id: str) -> TableRow | None:
        """One table with its seats, or None."""
        found = await load_tables(self._writer.engine, tables.c.id == table_id)
        return found[0] if found else None

    async def unfinished_tables(self) -> list[TableRow]:
        """Every table in the lobby or being played (for tools and checks; the service loads tables lazily)."""
        return await load_tables(self._writer.engine, tables.c.status.in_(("lobby", "playing")))

    async def ai_turn_tables(self, after: str = "", limit: int = 500) -> list[str]:
        """Ids of games where an AI is to act, in id order after ``after`` (page through them)."""
        async with self._writer.engine.connect() as conn:
            rows = await conn.execute(
                select(tables.c.id)
                .where(tables.c.ai_turn.is_(True), tables.c.status == "playing", tables.c.id > after)
                .order_by(tables.c.id).limit(limit)
            )
            return [r.id for r in rows]

    async def person_turn_tables(self, after: str = "", limit: int = 500) -> list[str]:
        """Ids of games where a person (no AI, autopilot or stand-in) is to act, in id order after ``after``."""
        async with self._writer.engine.connect() as conn:
            rows = await conn.execute(
                select(tables.c.id)
                .where(tables.c.ai_turn.is_(False), tables.c.status == "playing", tables.c.id > after)
                .order_by(tables.c.id).limit(limit)
            )
            return [r.id for r in rows]

    async def deadlines_before(self, until: float, limit: int = 1000) -> list[tuple[str, str, float, Any]]:
        """``(id, timer, deadline, reminded)`` of games whose deadline comes before ``until``, soonest first."""
        async with self._writer.engine.connect() as conn:
            rows = await conn.execute(
                select(tables.c.id, tables.c.timer, tables.c.deadline, tables.c.meta)
                .where(tables.c.deadline.is_not(None), tables.c.deadline <= until, tables.c.status == "playing")
                .order_by(tables.c.deadline).limit(limit)
            )
            return [(r.id, r.timer, float(r.deadline), json.loads(r.meta).get("reminded")) for r in rows]

    async def table_ids_in_chat(self, chat_id: int, statuses: Sequence[str], limit: int = 50) -> list[str]:
        """Ids of a chat's tables with these statuses, newest first."""
        async with self._writer.engine.connect() as conn:
            rows = await conn.execute(
                select(tables.c.id)
                .where(tables.c.chat_id == chat_id, tables.c.status.in_(tuple(statuses)))
                .order_by(tables.c.created_at.desc()).limit(limit)
            )
            return [r.id for r in rows]

    async def table_ids_of_user(
        self, user_id: int, statuses: Sequence[str], limit: int = 100, before: str | None = None
    ) -> list[str]:
        """Ids of the tables where a user has a seat, with these statuses, newest first (after ``before``'s page)."""
        query = (
            select(tables.c.id)
            .join(seats, seats.c.table_id == tables.c.id)
            .where(seats.c.user_id == user_id, tables.c.status.in_(tuple(statuses)))
        )
        async with self._writer.engine.connect() as conn:
            if before is not None:
                created = (await conn.execute(select(tables.c.created_at).where(tables.c.id == before))).scalar()
                if created is None:
                    return []
                query = query.where(
                    (tables.c.created_at < created) | ((tables.c.created_at == created) & (tables.c.id < before)))
            rows = await conn.execute(query.order_by(tables.c.created_at.desc(), tables.c.id.desc()).limit(limit))
            return [r.id for r in rows]

    async def count_tables_of_user(self, user_id: int, statuses: Sequence[str]) -> int:
        """How many tables with these statuses a user has a seat at."""
        async with self._writer.engine.connect() as conn:
            found = await conn.execute(
                select(func.count()).select_from(tables.join(seats, seats.c.table_id == tables.c.id))
                .where(seats.c.user_id == user_id, tables.c.status.in_(tuple(statuses)))
            )
            return int(found.scalar_one())

    async def load_actions(self, table_id: str, after: int = 0) -> list[LoggedAction]:
        """The move log of a table, in order (only the moves after seq ``after`` when given)."""
        async with self._writer.engine.connect() as conn:
            rows = await conn.execute(
                select(actions.c.seq, actions.c.seat, actions.c.action, actions.c.auto)
                .where(actions.c.table_id == table_id, actions.c.seq > after)
                .order_by(actions.c.seq)
            )
            return [LoggedAction(r.seq, r.seat, json.loads(r.action), bool(r.auto)) for r in rows]

    async def last_moves(self, table_ids: Sequence[str]) -> dict[str, float]:
        """When each table's latest move was stored (tables with no move are left out)."""
        if not table_ids:
            return {}
        async with self._writer.engine.connect() as conn:
            rows = await conn.execute(
                select(actions.c.table_id, func.max(actions.c.created_at))
                .where(actions.c.table_id.in_(list(table_ids)))
                .group_by(actions.c.table_id)
            )
            return {table_id: float(when) for table_id, when in rows}

    async def count_actions(self) -> int:
        """How many moves the log holds (for benchmarks and checks)."""
        async with self._writer.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(actions))).scalar_one())

    async def save_snapshot(self, table_id: str, seq: int, data: dict[str, Any]) -> None:
        """Keep the state at ``seq`` as the table's snapshot (replacing an older one)."""

        async def work(conn: Any) -> None:
            await conn.execute(snapshots.delete().where(snapshots.c.table_id == table_id))
            await conn.execute(insert(snapshots).values(table_id=table_id, seq=seq, data=json_text(data)))

        await self._writer.write(work)

    async def load_snapshot(self, table_id: str) -> tuple[int, dict[str, Any]] | None:
        """The table's latest snapshot as (seq, data), or None."""
        async with self._writer.engine.connect() as conn:
            row = (await conn.execute(
                select(snapshots.c.seq, snapshots.c.data).where(snapshots.c.table_id == table_id))).first()
        return None if row is None else (int(row.seq), json.loads(row.data))


async def load_tables(engine: AsyncEngine, where: Any) -> list[TableRow]:
    """The tables that match ``where``, each with its seats."""
    async with engine.connect() as conn:
        rows = (await conn.execute(select(tables).where(where))).mappings().all()
        if not rows:
            return []
        ids = [r["id"] for r in rows]
        seat_rows = (await conn.execute(
            select(seats).where(seats.c.table_id.in_(ids)).order_by(seats.c.seat)
        )).mappings().all()
    by_table: dict[str, list[SeatRow]] = {}
    for s in seat_rows:
        by_table.setdefault(s["table_id"], []).append(SeatRow(
            seat=s["seat"], name=s["name"], user_id=s["user_id"], is_ai=bool(s["is_ai"]),
            ai_level=s["ai_level"], autopilot=bool(s["autopilot"]), missed=s["missed"],
        ))
    return [
        TableRow(
            id=r["id"], game=r["game"], options=json.loads(r["options"]), size=r["size"], status=r["status"],
            host_user_id=r["host_user_id"], chat_id=r["chat_id"], seed=r["seed"], seed_hash=r["seed_hash"],
            timer=r["timer"], deadline=r["deadline"], ai_turn=bool(r["ai_turn"]), meta=json.loads(r["meta"]),
            result=json.loads(r["result"]) if r["result"] else None, created_at=r["created_at"],
            updated_at=r["updated_at"], seats=by_table.get(r["id"], []), version=r["version"],
        )
        for r in rows
    ]
