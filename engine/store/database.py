"""The durable store: SQLite by default, PostgreSQL when the URL says so, one code path.

Every write goes through one writer task: whatever is waiting at the same time (moves,
table rows, users) is committed in one transaction, so SQLite never sees two writers
at once ("database is locked" cannot happen) and PostgreSQL gets batched inserts.

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
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, case, event, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from engine.core.errors import Refusal, RefusalCode
from engine.store.rows import Finish, LoggedAction, SeatRow, TableRow
from engine.store.schema import (
    actions,
    bot_messages,
    chat_languages,
    ratings,
    rematches,
    results,
    seats,
    snapshots,
    tables,
    users,
)

MIGRATIONS = Path(__file__).parent / "migrations"
CHANNEL = "cardroom_tables"  # PostgreSQL NOTIFY channel: which table changed, sent with the change's commit
MIGRATION_LOCK = 72_170_001  # advisory lock key: one process migrates at a time


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


class StaleRow(Refusal):
    """The table's row changed since this copy was read (another process wrote it): reload and try again."""

    def __init__(self, table_id: str) -> None:
        super().__init__(RefusalCode.STALE)
        self.table_id = table_id


@dataclass(slots=True)
class Pending:
    """A move waiting for the next group commit, with its table's new row when the move changes it."""

    action: dict[str, Any]
    table: TableRow | None
    with_seats: bool
    future: asyncio.Future[None]
    finish: Finish | None = None
    version: int = 0  # the table row's stored version before this move (for the other processes' notice)


@dataclass(slots=True)
class Job:
    """Any other write waiting for the next group commit; ``done`` runs once it is committed."""

    work: Callable[[Any], Awaitable[None]]
    future: asyncio.Future[None]
    done: Callable[[], None] | None = None


Write = Pending | Job


class Store:
    """Reads and writes tables, seats, users and the move log."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine = create_async_engine(url, pool_pre_ping=not url.startswith("sqlite"))
        if url.startswith("sqlite"):
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self._pending: list[Write] = []  # every write goes through the one writer task: no "database is locked"
        self.origin = ""  # this process's name in change notices (set by the service when it shares the database)
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0

    @property
    def is_shared(self) -> bool:
        """Whether other processes may use this database at the same time (PostgreSQL)."""
        return self.url.startswith("postgresql")

    @property
    def dsn(self) -> str:
        """The plain ``postgresql://`` address, for a raw connection that listens and holds leases."""
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    async def open(self) -> None:
        """Bring the schema up to date (one process at a time) and start the log writer."""
        async with self.engine.begin() as conn:
            if self.is_shared:  # processes starting together on a fresh database must not race the migration
                await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
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
        self, table_id: str, entry: LoggedAction, table: TableRow | None = None, *, with_seats: bool = False,
        finish: Finish | None = None, version: int = 0,
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
        self._pending.append(Pending(row, table, with_seats, future, finish, version))
        self._wake.set()
        await future

    async def _write(self, work: Callable[[Any], Awaitable[None]], done: Callable[[], None] | None = None) -> None:
        """Run ``work(connection)`` in the writer's next group commit and wait until it is durable."""
        if self._writer is None:
            raise RuntimeError("the store is not open")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(Job(work, future, done))
        self._wake.set()
        await future

    async def _write_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            if batch:
                await self._write_batch(batch)

    async def _write_batch(self, batch: list[Write]) -> None:
        try:
            async with self.engine.begin() as conn:
                moves = [item.action for item in batch if isinstance(item, Pending)]
                if moves:
                    await conn.execute(insert(actions), moves)
                for item in batch:
                    await self._write_rest(conn, item)
            self.commits += 1
        except Exception:
            for item in batch:  # one bad write must not sink the others: each alone, with its own answer
                await self._write_one(item)
            return
        for item in batch:
            self._settle(item)

    async def _write_one(self, item: Write) -> None:
        try:
            async with self.engine.begin() as conn:
                if isinstance(item, Pending):
                    await conn.execute(insert(actions), [item.action])
                await self._write_rest(conn, item)
            self.commits += 1
        except (IntegrityError, StaleRow) as exc:
            if not item.future.done():
                item.future.set_exception(Refusal(RefusalCode.STALE) if isinstance(item, Pending) else exc)
            return
        except Exception as exc:
            if not item.future.done():
                item.future.set_exception(exc)
            return
        self._settle(item)

    async def _write_rest(self, conn: Any, item: Write) -> None:
        """Everything of one write but a move's log row (inserted for the whole batch at once)."""
        if isinstance(item, Job):
            await item.work(conn)
            return
        await self._write_table(conn, item)
        if item.finish is not None:
            await self._write_finish(conn, item.finish)
        version = item.table.version + 1 if item.table is not None else item.version
        move = f'{{"seat":{item.action["seat"]},"action":{item.action["action"]}}}'  # the move itself rides along
        await self._notice(conn, item.action["table_id"], item.action["seq"], "moved", version, move)

    @staticmethod
    async def _write_finish(conn: Any, finish: Finish) -> None:
        """Record a finished game's results and its people's new ratings (in the finishing transaction)."""
        recorded = await conn.execute(select(results.c.seat).where(results.c.table_id == finish.table_id).limit(1))
        if recorded.first() is not None:
            return  # already on record (and rated): finishing a table again must not count it twice
        await conn.execute(insert(results), [
            {"table_id": finish.table_id, "seat": s.seat, "user_id": s.user_id, "name": s.name, "game": finish.game,
             "chat_id": finish.chat_id, "placement": s.placement, "score": s.score, "finished_at": finish.finished_at}
            for s in finish.seats
        ])
        people = [s.user_id for s in finish.seats if s.user_id is not None]
        if not people:
            return
        found = (await conn.execute(
            select(ratings).where(ratings.c.game == finish.game, ratings.c.user_id.in_(people))
        )).mappings().all()
        known = {r["user_id"]: r for r in found}
        fresh = finish.rate({uid: (r["mu"], r["sigma"]) for uid, r in known.items()})
        for s in finish.seats:
            if s.user_id is None or s.user_id not in fresh:
                continue
            mu, sigma = fresh[s.user_id]
            won = 1 if s.placement == 1 else 0
            if s.user_id in known:
                old = known[s.user_id]
                await conn.execute(update(ratings).where(ratings.c.user_id == s.user_id, ratings.c.game == finish.game)
                                   .values(mu=mu, sigma=sigma, games=old["games"] + 1, wins=old["wins"] + won,
                                           updated_at=finish.finished_at))
            else:
                await conn.execute(insert(ratings).values(user_id=s.user_id, game=finish.game, mu=mu, sigma=sigma,
                                                          games=1, wins=won, updated_at=finish.finished_at))

    @staticmethod
    def _settle(item: Write) -> None:
        """A write is durable: bring the caller's row copy up to the stored version and answer."""
        if isinstance(item, Pending) and item.table is not None:
            item.table.version += 1
        elif isinstance(item, Job) and item.done is not None:
            item.done()
        if not item.future.done():
            item.future.set_result(None)

    async def _write_table(self, conn: Any, pending: Pending) -> None:
        row = pending.table
        if row is None:
            return
        await self._update_row(conn, row)
        if pending.with_seats:
            await conn.execute(seats.delete().where(seats.c.table_id == row.id))
            await self._write_seats(conn, row.id, row.seats)

    async def load_actions(self, table_id: str, after: int = 0) -> list[LoggedAction]:
        """The move log of a table, in order (only the moves after seq ``after`` when given)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(actions.c.seq, actions.c.seat, actions.c.action, actions.c.auto)
                .where(actions.c.table_id == table_id, actions.c.seq > after)
                .order_by(actions.c.seq)
            )
            return [LoggedAction(r.seq, r.seat, json.loads(r.action), bool(r.auto)) for r in rows]

    # tables and seats ---------------------------------------------------------

    async def _notice(self, conn: Any, table_id: str, seq: int, kind: str, version: int, events: str = "") -> None:
        """Tell the other processes, with this commit, that a table changed (PostgreSQL NOTIFY).

        The notice says the table's new ``seq`` and row ``version``, so a process that is
        already there reads nothing, and one that only misses moves reads only the log.
        """
        if self.is_shared and self.origin:
            payload = f"{self.origin}|{table_id}|{seq}|{kind}|{version}|{events}"
            if len(payload.encode()) >= 7900:  # NOTIFY payloads stop at 8000 bytes: the receiver reloads instead
                payload = f"{self.origin}|{table_id}|{seq}|{kind}|{version}|"
            await conn.execute(select(func.pg_notify(CHANNEL, payload)))

    async def create_table(self, row: TableRow) -> None:
        """Insert a new table with its seats."""

        async def work(conn: Any) -> None:
            await conn.execute(insert(tables).values(**_table_values(row)))
            await self._write_seats(conn, row.id, row.seats)

        await self._write(work)

    async def save_table(
        self, row: TableRow, *, with_seats: bool = True, notice: tuple[int, str, str] | None = None,
        finish: Finish | None = None,
    ) -> None:
        """Store a table's changed fields (and its seats); ``notice`` (seq, kind, events) tells the other processes."""
        row.updated_at = time.time()

        async def work(conn: Any) -> None:
            if notice is not None:
                seq, kind, events = notice
                await self._notice(conn, row.id, seq, kind, row.version + 1, events)
            await self._update_row(conn, row)
            if with_seats:
                await conn.execute(seats.delete().where(seats.c.table_id == row.id))
                await self._write_seats(conn, row.id, row.seats)
            if finish is not None:
                await self._write_finish(conn, finish)

        def stored() -> None:
            row.version += 1

        await self._write(work, stored)

    @staticmethod
    async def _update_row(conn: Any, row: TableRow) -> None:
        """Write the row if it is still at the version it was read at; raises StaleRow otherwise."""
        done = await conn.execute(
            update(tables).where(tables.c.id == row.id, tables.c.version == row.version)
            .values(**_table_values(row), version=row.version + 1)
        )
        if done.rowcount != 1:
            raise StaleRow(row.id)

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
        """Every table in the lobby or being played (for tools and checks; the service loads tables lazily)."""
        return await self._load_tables(tables.c.status.in_(("lobby", "playing")))

    async def ai_turn_tables(self, after: str = "", limit: int = 500) -> list[str]:
        """Ids of games where an AI is to act, in id order after ``after`` (page through them)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(tables.c.id)
                .where(tables.c.ai_turn.is_(True), tables.c.status == "playing", tables.c.id > after)
                .order_by(tables.c.id).limit(limit)
            )
            return [r.id for r in rows]

    async def deadlines_before(self, until: float, limit: int = 1000) -> list[tuple[str, str, float, Any]]:
        """``(id, timer, deadline, reminded)`` of games whose deadline comes before ``until``, soonest first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(tables.c.id, tables.c.timer, tables.c.deadline, tables.c.meta)
                .where(tables.c.deadline.is_not(None), tables.c.deadline <= until, tables.c.status == "playing")
                .order_by(tables.c.deadline).limit(limit)
            )
            return [(r.id, r.timer, float(r.deadline), json.loads(r.meta).get("reminded")) for r in rows]

    async def table_ids_in_chat(self, chat_id: int, statuses: Sequence[str], limit: int = 50) -> list[str]:
        """Ids of a chat's tables with these statuses, newest first."""
        async with self.engine.connect() as conn:
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
        async with self.engine.connect() as conn:
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
        async with self.engine.connect() as conn:
            found = await conn.execute(
                select(func.count()).select_from(tables.join(seats, seats.c.table_id == tables.c.id))
                .where(seats.c.user_id == user_id, tables.c.status.in_(tuple(statuses)))
            )
            return int(found.scalar_one())

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
                timer=r["timer"], deadline=r["deadline"], ai_turn=bool(r["ai_turn"]), meta=json.loads(r["meta"]),
                result=json.loads(r["result"]) if r["result"] else None, created_at=r["created_at"],
                updated_at=r["updated_at"], seats=by_table.get(r["id"], []), version=r["version"],
            )
            for r in rows
        ]

    # users --------------------------------------------------------------------

    async def upsert_user(self, user_id: int, name: str) -> None:
        """Remember a user and their current display name."""

        async def work(conn: Any) -> None:
            done = await conn.execute(update(users).where(users.c.id == user_id).values(name=name))
            if done.rowcount == 0:
                try:
                    async with conn.begin_nested():
                        await conn.execute(insert(users).values(
                            id=user_id, name=name, notify=True, can_message=False, created_at=time.time()))
                except IntegrityError:  # another process added them a moment ago
                    await conn.execute(update(users).where(users.c.id == user_id).values(name=name))

        await self._write(work)

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
            async def work(conn: Any) -> None:
                await conn.execute(update(users).where(users.c.id == user_id).values(**allowed))

            await self._write(work)

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

    # snapshots ----------------------------------------------------------------

    async def save_snapshot(self, table_id: str, seq: int, data: dict[str, Any]) -> None:
        """Keep the state at ``seq`` as the table's snapshot (replacing an older one)."""

        async def work(conn: Any) -> None:
            await conn.execute(snapshots.delete().where(snapshots.c.table_id == table_id))
            await conn.execute(insert(snapshots).values(table_id=table_id, seq=seq, data=json.dumps(data)))

        await self._write(work)

    async def load_snapshot(self, table_id: str) -> tuple[int, dict[str, Any]] | None:
        """The table's latest snapshot as (seq, data), or None."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                select(snapshots.c.seq, snapshots.c.data).where(snapshots.c.table_id == table_id))).first()
        return None if row is None else (int(row.seq), json.loads(row.data))

    # languages ----------------------------------------------------------------

    async def user_language(self, user_id: int) -> str | None:
        """The language a person chose with /language, or None."""
        async with self.engine.connect() as conn:
            return (await conn.execute(select(users.c.language).where(users.c.id == user_id))).scalar()

    async def set_user_language(self, user_id: int, name: str, language: str | None) -> None:
        """Remember (or with None forget) the language a person chose."""
        await self.upsert_user(user_id, name)

        async def work(conn: Any) -> None:
            await conn.execute(update(users).where(users.c.id == user_id).values(language=language))

        await self._write(work)

    async def chat_language(self, chat_id: int) -> str | None:
        """A group's language, if one was set or settled."""
        async with self.engine.connect() as conn:
            return (await conn.execute(
                select(chat_languages.c.language).where(chat_languages.c.chat_id == chat_id))).scalar()

    async def set_chat_language(self, chat_id: int, language: str, *, by: int | None, keep: bool = False) -> str:
        """Set a group's language (``keep``: only if it has none yet); returns the group's language now."""

        async def work(conn: Any) -> None:
            found = (await conn.execute(
                select(chat_languages.c.language).where(chat_languages.c.chat_id == chat_id))).scalar()
            if found is None:
                await conn.execute(insert(chat_languages).values(chat_id=chat_id, language=language, set_by=by,
                                                                 updated_at=time.time()))
            elif not keep:
                await conn.execute(update(chat_languages).where(chat_languages.c.chat_id == chat_id)
                                   .values(language=language, set_by=by, updated_at=time.time()))

        await self._write(work)
        return await self.chat_language(chat_id) or language

    # the record ---------------------------------------------------------------

    async def history(self, user_id: int, limit: int = 20, before: float | None = None) -> list[dict[str, Any]]:
        """A user's finished games, newest first: each with every seat's name, placement and score."""
        async with self.engine.connect() as conn:
            query = select(results.c.table_id, results.c.finished_at).where(results.c.user_id == user_id)
            if before is not None:
                query = query.where(results.c.finished_at < before)
            mine = (await conn.execute(query.order_by(results.c.finished_at.desc()).limit(limit))).all()
            if not mine:
                return []
            ids = [r.table_id for r in mine]
            rows = (await conn.execute(
                select(results, tables.c.options).join(tables, tables.c.id == results.c.table_id)
                .where(results.c.table_id.in_(ids)).order_by(results.c.seat)
            )).mappings().all()
        games: dict[str, dict[str, Any]] = {}
        for r in rows:
            game = games.setdefault(r["table_id"], {
                "table_id": r["table_id"], "game": r["game"], "options": json.loads(r["options"]),
                "chat_id": r["chat_id"], "finished_at": r["finished_at"], "seats": []})
            game["seats"].append({"seat": r["seat"], "name": r["name"], "placement": r["placement"],
                                  "score": r["score"], "you": r["user_id"] == user_id})
        return [games[table_id] for table_id in ids]

    async def leaderboard(self, chat_id: int, game: str, limit: int = 20) -> list[dict[str, Any]]:
        """The people who played ``game`` in a chat: their rating and their games there, best first."""
        async with self.engine.connect() as conn:
            played = (
                select(results.c.user_id, func.count().label("games"),
                       func.sum(case((results.c.placement == 1, 1), else_=0)).label("wins"))
                .where(results.c.chat_id == chat_id, results.c.game == game, results.c.user_id.is_not(None))
                .group_by(results.c.user_id).subquery()
            )
            rows = (await conn.execute(
                select(played.c.user_id, played.c.games, played.c.wins, ratings.c.mu, ratings.c.sigma, users.c.name)
                .join(ratings, (ratings.c.user_id == played.c.user_id) & (ratings.c.game == game))
                .join(users, users.c.id == played.c.user_id)
                .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc()).limit(limit)
            )).mappings().all()
        return [dict(r) for r in rows]

    async def groups(self, user_id: int) -> list[dict[str, Any]]:
        """The group chats (negative ids) where a user finished games, oldest first.

        Each with its games there by game name, its first and last finish, and the other
        people the user played with there, most games together first.
        """
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(results.c.chat_id, results.c.game, func.count().label("games"),
                       func.min(results.c.finished_at).label("first"), func.max(results.c.finished_at).label("last"))
                .where(results.c.user_id == user_id, results.c.chat_id < 0)
                .group_by(results.c.chat_id, results.c.game)
            )).all()
            mine = select(results.c.table_id).where(results.c.user_id == user_id, results.c.chat_id < 0)
            together = (await conn.execute(
                select(results.c.chat_id, func.max(results.c.name).label("name"), func.count().label("games"))
                .where(results.c.table_id.in_(mine), results.c.user_id.is_not(None), results.c.user_id != user_id)
                .group_by(results.c.chat_id, results.c.user_id)
                .order_by(func.count().desc(), func.max(results.c.name))
            )).all()
        chats: dict[int, dict[str, Any]] = {}
        for r in rows:
            chat = chats.setdefault(r.chat_id, {"chat_id": r.chat_id, "games": {}, "first": r.first, "last": r.last,
                                                "people": []})
            chat["games"][r.game] = r.games
            chat["first"], chat["last"] = min(chat["first"], r.first), max(chat["last"], r.last)
        for r in together:
            if r.chat_id in chats:
                chats[r.chat_id]["people"].append(r.name)
        return sorted(chats.values(), key=lambda c: (c["first"], c["chat_id"]))

    async def played_in_chat(self, user_id: int, chat_id: int) -> bool:
        """Whether a user has finished a game started from a chat (who may see that chat's leaderboard)."""
        async with self.engine.connect() as conn:
            found = await conn.execute(
                select(results.c.table_id).where(results.c.user_id == user_id, results.c.chat_id == chat_id).limit(1))
            return found.first() is not None

    async def finished_tables(self, offset: int = 0, limit: int = 500) -> list[TableRow]:
        """Finished tables in the order they finished (for rebuilding ratings), a page from ``offset``."""
        async with self.engine.connect() as conn:
            ids = [r.table_id for r in await conn.execute(
                select(results.c.table_id, func.max(results.c.finished_at).label("at"))
                .group_by(results.c.table_id).order_by("at", results.c.table_id).offset(offset).limit(limit))]
        found = {row.id: row for row in await self._load_tables(tables.c.id.in_(ids))} if ids else {}
        return [found[i] for i in ids if i in found]

    async def ratings_of(self, game: str) -> dict[int, tuple[float, float, int, int]]:
        """Every rating of a game: user -> (mu, sigma, games, wins)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(ratings).where(ratings.c.game == game))
            return {r.user_id: (r.mu, r.sigma, r.games, r.wins) for r in rows}

    async def replace_ratings(self, game: str, fresh: dict[int, tuple[float, float, int, int]], at: float) -> None:
        """Put a game's ratings in place of the stored ones (after a rebuild)."""

        async def work(conn: Any) -> None:
            await conn.execute(ratings.delete().where(ratings.c.game == game))
            if fresh:
                await conn.execute(insert(ratings), [
                    {"user_id": uid, "game": game, "mu": mu, "sigma": sigma, "games": games, "wins": wins,
                     "updated_at": at} for uid, (mu, sigma, games, wins) in fresh.items()])

        await self._write(work)
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
        "timer": row.timer, "deadline": row.deadline, "ai_turn": row.ai_turn, "meta": json.dumps(row.meta),
        "result": json.dumps(row.result) if row.result is not None else None,
        "created_at": row.created_at, "updated_at": row.updated_at,
    }
