"""The store's connection and its one writer: every write of any kind is group-committed here.

Every write goes through one writer task: whatever is waiting at the same time (moves,
table rows, users) is committed in one transaction, so SQLite never sees two writers
at once ("database is locked" cannot happen). On PostgreSQL a batch of moves takes the same
few statements whatever its size: one for the table rows (each still at its version), one for
the log rows and one for the change notices, joined into as few NOTIFY payloads as fit. On
SQLite, plain moves (a log row and at most their table's row) take a shorter way: they are
group-committed on the event loop (``engine.store.sqlite_moves``), only ever between the
writer task's own transactions: in the loop's next turn, or, when the operator allows it, a
few milliseconds later when other tables' moves will share the commit's sync
(``engine.store.commit_pace``).

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
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import event, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from engine.core.errors import Refusal, RefusalCode
from engine.store.commit_pace import CommitPace
from engine.store.dialects import engine_options, sqlite_pragmas
from engine.store.finish_rows import write_finish
from engine.store.json_text import json_text
from engine.store.migrating import bring_up_to_date
from engine.store.notices import CHANNEL, NOTIFY_ALL, join_notices, notice_payload
from engine.store.reach import is_unreachable
from engine.store.row_writes import StaleRow, rows_update, table_values, write_table
from engine.store.rows import Finish, LoggedAction, TableRow
from engine.store.schema import actions
from engine.store.sqlite_moves import SqliteMoves, row_change

log = logging.getLogger(__name__)
# SQLite: the moves the loop commits between two checkpoints on a thread (about 1,000 WAL pages); counted in moves,
# not commits, so a checkpoint copies about as much whether commits carry one move or several
CHECKPOINT_EVERY = 320
ROWS_A_STATEMENT = 1000  # PostgreSQL: table rows written by one statement (a few arrays, far below any limit)
# a transaction of the writer task commits what it has once it has run this long and others wait behind it (moves
# on the loop, later writes): forty lobbies opened at once must not hold a table's move for half a second
WRITE_SLICE = 0.02


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


class Writer:
    """The engine, the migrations and the writer task that every write goes through (built once per store)."""

    def __init__(self, url: str, commit_delay: float = 0.0) -> None:
        self.url = url
        self.engine: AsyncEngine = create_async_engine(url, **engine_options(url))  # reads; bounded in time
        # the writer task's own connection: a burst of reads holding every pooled one never keeps it waiting
        self.writes: AsyncEngine = create_async_engine(url, **engine_options(url), pool_size=1, max_overflow=0)
        # SQLite: plain moves are group-committed on the loop, between the writer's transactions
        self._moves: SqliteMoves | None = None
        if url.startswith("sqlite"):
            event.listen(self.engine.sync_engine, "connect", sqlite_pragmas)
            event.listen(self.writes.sync_engine, "connect", sqlite_pragmas)
            self._moves = SqliteMoves(self.engine.url.database or "", sqlite_pragmas)
        self._pending: list[Write] = []  # every write goes through the one writer task: no "database is locked"
        self._moves_waiting: list[Pending] = []  # plain moves for the next commit on the loop
        self._flush: asyncio.Handle | None = None
        self.pace = CommitPace(commit_delay)  # how long a commit on the loop waits for more moves to share it
        self._writing = False  # the writer task is inside a transaction: the loop's commits wait for it
        self._checkpoint: asyncio.Task[None] | None = None
        self._since_checkpoint = 0
        self.origin = ""  # this process's name in change notices (set by the service when it shares the database)
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0
        self._notes: list[str] | None = None  # the notices of the writer task's transaction, sent before its commit
        self._rows_update = rows_update(self.engine.dialect) if self.is_shared else None

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
        if self.is_shared:  # a migration may wait for another process's and run long: no statement timeout
            migrating = create_async_engine(self.url, **engine_options(self.url, timeouts=False))
            try:
                await bring_up_to_date(migrating, shared=True)
            finally:
                await migrating.dispose()
        else:
            await bring_up_to_date(self.engine, shared=False)
        self._writer = asyncio.create_task(self._write_loop(), name="store-writer")

    async def close(self) -> None:
        """Finish pending writes and release the connections."""
        if self._writer is not None:
            while self._pending or self._moves_waiting or self._writing:
                await asyncio.sleep(0)
                self._wake.set()
                self._commit_moves()
                await asyncio.sleep(0.001)
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        await self.writes.dispose()
        await self.engine.dispose()
        if self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint
            self._checkpoint = None
        moves, self._moves = self._moves, None  # closing twice is closing once
        if moves is not None:
            moves.close()

    async def append(
        self, table_id: str, entry: LoggedAction, table: TableRow | None = None, *, with_seats: bool = False,
        finish: Finish | None = None, version: int = 0,
    ) -> None:
        """Store one move durably, with its table's new row in the same transaction; raises Refusal("stale")."""
        if self._writer is None:
            raise RuntimeError("the store is not open")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        row = {
            "table_id": table_id, "seq": entry.seq, "seat": entry.seat, "action": json_text(entry.action),
            "auto": entry.auto, "created_at": time.time(),
        }
        if table is not None:
            table.updated_at = time.time()
        pending = Pending(row, table, with_seats, future, finish, version)
        if self._moves is not None and _plain_move(pending):
            self._moves_waiting.append(pending)
            self._flush_soon()
        else:
            self._pending.append(pending)
            self._wake.set()
        await future

    async def write(self, work: Callable[[Any], Awaitable[None]], done: Callable[[], None] | None = None) -> None:
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
            if not batch:
                continue
            self._writing = True
            try:
                later = await self._write_batch(batch)
            finally:
                self._writing = False
                self._flush_soon(wait=False)  # the moves that waited for the writer have waited enough
            if later:  # the rest of a long batch goes next, after the moves that waited for it (as within a batch)
                waiting = self._pending
                self._pending = [w for w in waiting if isinstance(w, Pending)] + later + \
                    [w for w in waiting if not isinstance(w, Pending)]
                self._wake.set()
            if self._flush is not None:  # the moves that waited commit before the next transaction, not after it
                await asyncio.sleep(0)

    def _flush_soon(self, *, wait: bool = True) -> None:
        """Commit the waiting plain moves in the loop's next turn, or once others may share the commit when moves
        come fast (unless the writer task is inside a transaction: it calls this again when it is done)."""
        if self._flush is None and self._moves_waiting and not self._writing:
            loop = asyncio.get_running_loop()
            delay = self.pace.delay(loop.time()) if wait and self.pace.waits else 0.0
            self._flush = loop.call_later(delay, self._commit_moves) if delay else loop.call_soon(self._commit_moves)

    def _commit_moves(self) -> None:
        """SQLite, the waiting plain moves: one durable transaction on the loop, then every mover is answered.

        The parameters are read here, so a commit stores each row as it is at this moment. A batch
        refused for any reason (a stale row, a busy file) goes to the writer task, which tries it
        again and then each move alone, with its own answer.
        """
        if self._flush is not None:
            self._flush.cancel()  # when called before its time (closing the store)
            self._flush = None
        if self._writing or not self._moves_waiting or self._moves is None:
            return
        batch, self._moves_waiting = self._moves_waiting, []
        rows = [item.action for item in batch]
        changes = [row_change(table_values(item.table), item.table.version) for item in batch
                   if item.table is not None]
        try:
            self._moves.commit(rows, changes)
        except Exception:
            self._pending.extend(batch)
            self._wake.set()
            return
        self.commits += 1
        if self.pace.waits:
            self.pace.committed([item.action["table_id"] for item in batch], asyncio.get_running_loop().time())
        for item in batch:
            self._settle(item)
        self._since_checkpoint += len(batch)
        if self._since_checkpoint >= CHECKPOINT_EVERY and self._checkpoint is None:
            self._since_checkpoint = 0
            self._checkpoint = asyncio.get_running_loop().create_task(self._checkpoint_wal(self._moves))

    async def _checkpoint_wal(self, moves: SqliteMoves) -> None:
        """Checkpoint the WAL on a thread; a failed checkpoint is only tried again later."""
        try:
            await asyncio.to_thread(moves.checkpoint)
        except Exception:
            log.warning("a WAL checkpoint failed; the next one will try again", exc_info=True)
        finally:
            self._checkpoint = None

    async def _write_batch(self, batch: list[Write]) -> list[Write]:
        """One transaction for the batch; on PostgreSQL its moves take a constant number of statements. Returns
        the writes left for the next transaction: those after ``WRITE_SLICE`` while others wait (never a move).

        The moves' table rows are written by one statement that reports the rows still at their
        version; a move whose row another process wrote meanwhile is refused alone, and its log
        row is never inserted. Any other failure sends every write of the batch alone.
        """
        written: dict[int, bool] = {}
        later: list[Write] = []
        begun = time.monotonic()
        last_move = max((i for i, item in enumerate(batch) if isinstance(item, Pending)), default=-1)
        try:
            async with self.writes.begin() as conn:
                self._notes = []
                moving = [item for item in batch if isinstance(item, Pending)]
                if self.is_shared:
                    written = await _update_rows(conn, self._rows_update, moving)
                moves = [item.action for item in moving if written.get(id(item), True)]
                if moves:
                    await conn.execute(insert(actions), moves)
                for i, item in enumerate(batch):
                    if i > max(last_move, 0) and time.monotonic() - begun > WRITE_SLICE and self._others_wait():
                        batch, later = batch[:i], batch[i:]
                        break
                    if written.get(id(item), True):
                        await self._write_rest(conn, item, row_written=id(item) in written)
                await self._send_notes(conn)
            self.commits += 1
        except Exception as error:
            self._notes = None
            if is_unreachable(error):  # the server is out of reach: each alone would only wait as long again
                for item in batch:
                    if not item.future.done():
                        item.future.set_exception(error)
                return later
            for item in batch:  # one bad write must not sink the others: each alone, with its own answer
                await self._write_one(item)
            return later
        for item in batch:
            if written.get(id(item), True):
                self._settle(item)
            elif not item.future.done():  # its row moved on in another process: this move alone is refused
                item.future.set_exception(Refusal(RefusalCode.STALE))
        return later

    def _others_wait(self) -> bool:
        """Whether any write waits for the writer task's transaction to end (a move on the loop, or any other)."""
        return bool(self._moves_waiting or self._pending)

    async def _write_one(self, item: Write) -> None:
        try:
            async with self.writes.begin() as conn:
                self._notes = []
                if isinstance(item, Pending):
                    await conn.execute(insert(actions), [item.action])
                await self._write_rest(conn, item)
                await self._send_notes(conn)
            self.commits += 1
        except (IntegrityError, StaleRow) as exc:
            self._notes = None
            if not item.future.done():
                item.future.set_exception(Refusal(RefusalCode.STALE) if isinstance(item, Pending) else exc)
            return
        except Exception as exc:
            self._notes = None
            if not item.future.done():
                item.future.set_exception(exc)
            return
        self._settle(item)

    async def _write_rest(self, conn: Any, item: Write, *, row_written: bool = False) -> None:
        """Everything of one write but a move's log row (inserted for the whole batch at once) and, when
        ``row_written``, its table's row (written for the whole batch at once)."""
        if isinstance(item, Job):
            await item.work(conn)
            return
        if item.table is not None:
            await write_table(conn, item.table, with_seats=item.with_seats, row_written=row_written)
        if item.finish is not None:
            await write_finish(conn, item.finish)
        version = item.table.version + 1 if item.table is not None else item.version
        move = f'{{"seat":{item.action["seat"]},"action":{item.action["action"]}}}'  # the move itself rides along
        await self.notice(conn, item.action["table_id"], item.action["seq"], "moved", version, move)

    @staticmethod
    def _settle(item: Write) -> None:
        """A write is durable: bring the caller's row copy up to the stored version and answer."""
        if isinstance(item, Pending) and item.table is not None:
            item.table.version += 1
        elif isinstance(item, Job) and item.done is not None:
            item.done()
        if not item.future.done():
            item.future.set_result(None)

    async def notice(self, conn: Any, table_id: str, seq: int, kind: str, version: int, events: str = "") -> None:
        """Tell the other processes, with this commit, that a table changed (PostgreSQL NOTIFY).

        The notice says the table's new ``seq`` and row ``version``, so a process that is
        already there reads nothing, and one that only misses moves reads only the log.
        """
        if self.is_shared and self.origin:
            payload = notice_payload(self.origin, table_id, seq, kind, version, events)
            if self._notes is not None:
                self._notes.append(payload)  # sent with the others of the transaction, before its commit
            else:
                await conn.execute(select(func.pg_notify(CHANNEL, payload)))

    async def _send_notes(self, conn: Any) -> None:
        """The transaction's notices in one statement: joined by newlines, a notice per 8000 bytes at most."""
        notes, self._notes = self._notes, None
        if notes:
            await conn.execute(NOTIFY_ALL, {"channel": CHANNEL, "payloads": join_notices(notes)})


def _plain_move(item: Pending) -> bool:
    """A move that writes its log row and at most its table's row: nothing a commit on the loop cannot do."""
    return isinstance(item, Pending) and item.finish is None and not item.with_seats


async def _update_rows(conn: Any, statement: Any, moving: list[Pending]) -> dict[int, bool]:
    """PostgreSQL: the table rows of a batch's moves in one statement, each only if still at its version.

    Returns, by ``id()`` of each move whose row it tried, whether the row was written. A
    table with two moves in the batch (never under one process's table lock) is left to the
    moves' own statements.
    """
    counts: dict[str, int] = {}
    for item in moving:
        if item.table is not None:
            counts[item.table.id] = counts.get(item.table.id, 0) + 1
    rows = [item.table for item in moving if item.table is not None and counts[item.table.id] == 1]
    done: set[str] = set()
    for start in range(0, len(rows), ROWS_A_STATEMENT):
        part = rows[start:start + ROWS_A_STATEMENT]
        values = [table_values(row) for row in part]
        params: dict[str, Any] = {name: [v[name] for v in values] for name in values[0]}
        params["version"] = [row.version for row in part]
        done.update(r[0] for r in await conn.execute(statement, params))
    return {id(item): item.table.id in done for item in moving
            if item.table is not None and counts[item.table.id] == 1}
