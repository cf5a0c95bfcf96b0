"""The durable store: SQLite by default, PostgreSQL when the URL says so, one code path.

Tables, seats and users are rows; moves are an append-only log with a unique
``(table_id, seq)``. Appends are group-committed: every move waiting at the same time
goes into one transaction, and each caller is answered only after that commit, so a
move is acknowledged only once it is durable and the log never holds a move twice. A
move that changes its table (the game's end, the next deadline) carries the table's new
row into the same transaction, so a crash can never keep the one without the other.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from engine.core.errors import Refusal
from engine.store.rows import LoggedAction, SeatRow, TableRow
from engine.store.schema import actions, bot_messages, rematches, seats, tables, users

MIGRATIONS = Path(__file__).parent / "migrations"


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


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")  # durable on power loss, not only on a crash
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _migrate(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


@dataclass(slots=True)
class Pending:
    """A move waiting for the next group commit, with its table's new row when the move changes it."""

    action: dict[str, Any]
    table: TableRow | None
    with_seats: bool
    future: asyncio.Future[None]


class Store:
    """Reads and writes tables, seats, users and the move log."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine = create_async_engine(url, pool_pre_ping=not url.startswith("sqlite"))
        if url.startswith("sqlite"):
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self._pending: list[Pending] = []
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0

    async def open(self) -> None:
        """Bring the schema up to date and start the log writer."""
        async with self.engine.begin() as conn:
            await conn.run_sync(_migrate)
        self._writer = asyncio.create_task(self._write_loop(), name="store-writer")

    async def close(self) -> None:
        """Finish pending writes and release the connections."""
        if self._writer is not None:
            while self._pending:
                await asyncio.sleep(0)
                self._wake.set()
                await asyncio.sleep(0.001)
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        await self.engine.dispose()

    # the log ------------------------------------------------------------------

    async def append(
        self, table_id: str, entry: LoggedAction, table: TableRow | None = None, *, with_seats: bool = False
    ) -> None:
        """Store one move durably, with its table's new row in the same transaction; raises Refusal("stale")."""
        if self._writer is None:
            raise RuntimeError("the store is not open")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        row = {
            "table_id": table_id, "seq": entry.seq, "seat": entry.seat, "action": json.dumps(entry.action),
            "auto": entry.auto, "created_at": time.time(),
        }
        if table is not None:
            table.updated_at = time.time()
        self._pending.append(Pending(row, table, with_seats, future))
        self._wake.set()
        await future

    async def _write_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            if batch:
                await self._write_batch(batch)

    async def _write_batch(self, batch: list[Pending]) -> None:
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(actions), [p.action for p in batch])
                for pending in batch:
                    await self._write_table(conn, pending)
            self.commits += 1
        except IntegrityError:
            for pending in batch:  # one bad row must not sink the others: retry one by one
                await self._write_one(pending)
            return
        except Exception as exc:
            for pending in batch:
                if not pending.future.done():
                    pending.future.set_exception(exc)
            return
        for pending in batch:
            if not pending.future.done():
                pending.future.set_result(None)

    async def _write_one(self, pending: Pending) -> None:
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(actions), [pending.action])
                await self._write_table(conn, pending)
            self.commits += 1
        except IntegrityError:
            if not pending.future.done():
                pending.future.set_exception(
                    Refusal("stale", "That move was made against an old position; not applied."))
            return
        except Exception as exc:
            if not pending.future.done():
                pending.future.set_exception(exc)
            return
        if not pending.future.done():
            pending.future.set_result(None)

    async def _write_table(self, conn: Any, pending: Pending) -> None:
        row = pending.table
        if row is None:
            return
        await conn.execute(update(tables).where(tables.c.id == row.id).values(**_table_values(row)))
        if pending.with_seats:
            await conn.execute(seats.delete().where(seats.c.table_id == row.id))
            await self._write_seats(conn, row.id, row.seats)

    async def load_actions(self, table_id: str) -> list[LoggedAction]:
        """The move log of a table, in order."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(actions.c.seq, actions.c.seat, actions.c.action, actions.c.auto)
                .where(actions.c.table_id == table_id)
                .order_by(actions.c.seq)
            )
            return [LoggedAction(r.seq, r.seat, json.loads(r.action), bool(r.auto)) for r in rows]

    # tables and seats ---------------------------------------------------------

    async def create_table(self, row: TableRow) -> None:
        """Insert a new table with its seats."""
        async with self.engine.begin() as conn:
            await conn.execute(insert(tables).values(**_table_values(row)))
            await self._write_seats(conn, row.id, row.seats)

    async def save_table(self, row: TableRow, *, with_seats: bool = True) -> None:
        """Store a table's changed fields (and its seats)."""
        row.updated_at = time.time()
        async with self.engine.begin() as conn:
            await conn.execute(update(tables).where(tables.c.id == row.id).values(**_table_values(row)))
            if with_seats:
                await conn.execute(seats.delete().where(seats.c.table_id == row.id))
                await self._write_seats(conn, row.id, row.seats)

    @staticmethod
    async def _write_seats(conn: Any, table_id: str, rows: Sequence[SeatRow]) -> None:
        if rows:
            await conn.execute(insert(seats), [
                {"table_id": table_id, "seat": s.seat, "user_id": s.user_id, "name": s.name, "is_ai": s.is_ai,
                 "ai_level": s.ai_level, "autopilot": s.autopilot, "missed": s.missed}
                for s in rows
            ])

    async def load_table(self, table_id: str) -> TableRow | None:
        """One table with its seats, or None."""
        found = await self._load_tables(tables.c.id == table_id)
        return found[0] if found else None

    async def unfinished_tables(self) -> list[TableRow]:
        """Every table in the lobby or being played."""
        return await self._load_tables(tables.c.status.in_(("lobby", "playing")))

    async def _load_tables(self, where: Any) -> list[TableRow]:
        async with self.engine.connect() as conn:
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
                timer=r["timer"], deadline=r["deadline"], meta=json.loads(r["meta"]),
                result=json.loads(r["result"]) if r["result"] else None, created_at=r["created_at"],
                updated_at=r["updated_at"], seats=by_table.get(r["id"], []),
            )
            for r in rows
        ]

    # users --------------------------------------------------------------------

    async def upsert_user(self, user_id: int, name: str) -> None:
        """Remember a user and their current display name."""
        async with self.engine.begin() as conn:
            done = await conn.execute(update(users).where(users.c.id == user_id).values(name=name))
            if done.rowcount == 0:
                try:
                    async with conn.begin_nested():
                        await conn.execute(insert(users).values(
                            id=user_id, name=name, notify=True, can_message=False, created_at=time.time()))
                except IntegrityError:
                    await conn.execute(update(users).where(users.c.id == user_id).values(name=name))

    async def user_settings(self, user_id: int) -> dict[str, Any] | None:
        """A user's name and settings, or None if unknown."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(users).where(users.c.id == user_id))).mappings().first()
        if row is None:
            return None
        return {"id": row["id"], "name": row["name"], "notify": bool(row["notify"]),
                "can_message": bool(row["can_message"])}

    async def set_user_flags(self, user_id: int, **flags: bool) -> None:
        """Change ``notify`` or ``can_message`` for a known user."""
        allowed = {k: v for k, v in flags.items() if k in ("notify", "can_message")}
        if allowed:
            async with self.engine.begin() as conn:
                await conn.execute(update(users).where(users.c.id == user_id).values(**allowed))

    async def stats(self, user_id: int) -> dict[str, dict[str, int]]:
        """Finished games played and won by a user, per game."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(tables.c.game, tables.c.result, seats.c.seat)
                .join(seats, seats.c.table_id == tables.c.id)
                .where(seats.c.user_id == user_id, tables.c.status == "finished")
            )
            out: dict[str, dict[str, int]] = {}
            for game, result, seat in rows:
                entry = out.setdefault(game, {"played": 0, "won": 0})
                entry["played"] += 1
                if result and seat in json.loads(result).get("winners", []):
                    entry["won"] += 1
        return out

    async def last_moves(self, table_ids: Sequence[str]) -> dict[str, float]:
        """When each table's latest move was stored (tables with no move are left out)."""
        if not table_ids:
            return {}
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(actions.c.table_id, func.max(actions.c.created_at))
                .where(actions.c.table_id.in_(list(table_ids)))
                .group_by(actions.c.table_id)
            )
            return {table_id: float(when) for table_id, when in rows}

    # rematches ----------------------------------------------------------------

    async def rematch_of(self, table_id: str) -> str | None:
        """The table a finished table's rematch was opened as, if any."""
        async with self.engine.connect() as conn:
            found = await conn.execute(select(rematches.c.rematch_id).where(rematches.c.table_id == table_id))
            return found.scalar_one_or_none()

    async def link_rematch(self, table_id: str, rematch_id: str) -> str:
        """Record ``rematch_id`` as the rematch of ``table_id``; the one already recorded wins."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(rematches).values(table_id=table_id, rematch_id=rematch_id,
                                                            created_at=time.time()))
        except IntegrityError:
            existing = await self.rematch_of(table_id)
            if existing is None:
                raise
            return existing
        return rematch_id

    # the bot's message records --------------------------------------------------

    async def bot_messages(self, table_id: str) -> list[dict[str, Any]]:
        """Every record the bot keeps for a table."""
        return await self._bot_messages(bot_messages.c.table_id == table_id)

    async def bot_messages_in_chat(self, chat_id: int) -> list[dict[str, Any]]:
        """Every record the bot keeps in a chat."""
        return await self._bot_messages(bot_messages.c.chat_id == chat_id)

    async def _bot_messages(self, where: Any) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(bot_messages).where(where))).mappings().all()
        return [{**row, "data": json.loads(row["data"])} for row in rows]

    async def put_bot_message(self, table_id: str, purpose: str, *, chat_id: int, thread_id: int | None,
                              message_id: int | None, state: str, data: dict[str, Any] | None = None) -> None:
        """Create or replace one of the bot's records."""
        values = {"chat_id": chat_id, "thread_id": thread_id, "message_id": message_id, "state": state,
                  "data": json.dumps(data or {}), "updated_at": time.time()}
        where = (bot_messages.c.table_id == table_id) & (bot_messages.c.purpose == purpose)
        async with self.engine.begin() as conn:
            done = await conn.execute(update(bot_messages).where(where).values(**values))
            if done.rowcount == 0:
                await conn.execute(insert(bot_messages).values(table_id=table_id, purpose=purpose, **values))

    async def drop_bot_message(self, table_id: str, purpose: str) -> None:
        """Forget one of the bot's records."""
        async with self.engine.begin() as conn:
            await conn.execute(bot_messages.delete().where(
                (bot_messages.c.table_id == table_id) & (bot_messages.c.purpose == purpose)))

    async def count_actions(self) -> int:
        """How many moves the log holds (for benchmarks and checks)."""
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(actions))).scalar_one())


def _table_values(row: TableRow) -> dict[str, Any]:
    return {
        "id": row.id, "game": row.game, "options": json.dumps(row.options), "size": row.size, "status": row.status,
        "host_user_id": row.host_user_id, "chat_id": row.chat_id, "seed": row.seed, "seed_hash": row.seed_hash,
        "timer": row.timer, "deadline": row.deadline, "meta": json.dumps(row.meta),
        "result": json.dumps(row.result) if row.result is not None else None,
        "created_at": row.created_at, "updated_at": row.updated_at,
    }
