"""Sharing a database with other processes: catching up with their changes, and who drives each table.

A notice from another process (``engine.service.peers``) says a table's new ``seq`` and
row version, and carries a move when that is all that changed; a process that has the
table in memory applies it, or reads what it missed from the log, and publishes each
change to its own sockets in order. A change that meets another process's write of the
row (``StaleRow``) is run again on the fresh row (``fresh_on_conflict``).

Each table lives on one process at a time, its owner (the process holding its lease). A
process that is not the owner and has nobody here following the table (no socket, no
subscriber) does not re-apply another process's moves through the rules: it unloads the
table instead, and loads it from the store when it is next needed. ``unowned_moves``
counts the moves this process applied through the rules at tables it did not own (its
sockets were there: no process address to send them to, see ``webapp.ws``).

A notice may still be missed: this process's listening connection was cut, the notice
came while the table was loading, a process died mid-way. So nothing rests on notices
alone: ``check`` compares every loaded table with the store in one query (the stored row
version and latest ``seq`` of all of them) and catches up those behind; the due work runs
it every ``WATCH_EVERY`` seconds on a shared database, and after a lost connection.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from sqlalchemy import func, select

from engine.core.events import public
from engine.service.kinds import OPEN, TableStatus, UpdateKind, finished_event, update_kind
from engine.service.live import LiveTable
from engine.service.loading import Tables, log
from engine.service.peers import Notice, Peers
from engine.service.schedule import Schedule
from engine.store import schema
from engine.store.database import StaleRow, Store
from engine.store.rows import LoggedAction

UNTOLD_KINDS = {TableStatus.LOBBY: UpdateKind.LOBBY, TableStatus.FINISHED: UpdateKind.FINISHED,
                TableStatus.ABANDONED: UpdateKind.ABANDONED}  # a row change found by looking, not told
CONFLICT_TRIES = 4  # a change that meets another process's write reloads the table and tries again
WATCH_EVERY = 2.0  # seconds between two checks of the loaded tables against the store (a notice may be lost)
NOTICE_GRACE = 0.5  # seconds a table found behind waits for a notice on its way before it is caught up by looking
MARKS_PAGE = 5000  # tables compared with the store in one query (MAX_LOADED: all of them)
P = ParamSpec("P")
Marks = Callable[[Sequence[str]], Awaitable[dict[str, tuple[int, int]]]]
R = TypeVar("R")


async def stored_marks(store: Store, table_ids: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Each table's stored row version and latest ``seq`` (0 before any move), in one query; unknown ids left out."""
    tables, actions = schema.tables, schema.actions
    latest = (select(func.coalesce(func.max(actions.c.seq), 0)).where(actions.c.table_id == tables.c.id)
              .scalar_subquery())
    async with store.writer.engine.connect() as conn:
        rows = await conn.execute(select(tables.c.id, tables.c.version, latest).where(tables.c.id.in_(table_ids)))
        return {table_id: (int(version), int(seq)) for table_id, version, seq in rows}


def is_behind(table: LiveTable, stored: tuple[int, int] | None) -> bool:
    """Whether the store holds a newer row (version) or more moves (seq) of the table than this copy."""
    return stored is not None and (stored[0] > table.row.version or stored[1] > table.seq)


class CatchesUp(Protocol):
    """Whatever changes tables and can bring one up to the store (a part handed ``Sharing.catch_up``)."""

    @property
    def catch_up(self) -> Callable[[str], Awaitable[None]]: ...


S = TypeVar("S", bound=CatchesUp)


def fresh_on_conflict(
    change: Callable[Concatenate[S, str, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[S, str, P], Coroutine[Any, Any, R]]:
    """Run a change of a table again on its fresh row when another process wrote the row first."""

    async def run(owner: S, table_id: str, /, *args: P.args, **kwargs: P.kwargs) -> R:
        for _ in range(CONFLICT_TRIES - 1):
            try:
                return await change(owner, table_id, *args, **kwargs)
            except StaleRow:
                await owner.catch_up(table_id)
        return await change(owner, table_id, *args, **kwargs)

    run.__name__, run.__qualname__, run.__doc__ = change.__name__, change.__qualname__, change.__doc__
    return run


class Sharing:
    """Keeps this process's tables in step with the other processes on the same database."""

    def __init__(self, store: Store, peers: Peers, tables: Tables, schedule: Schedule, *,
                 marks: Marks | None = None) -> None:
        self.store = store
        self.peers = peers
        self.tables = tables
        self.schedule = schedule
        self.marks: Marks = marks or (lambda table_ids: stored_marks(store, table_ids))
        self.behind: set[str] = set()  # tables whose catch-up after a notice failed: the supervisor retries
        self.unowned_moves = 0  # moves applied through the rules here at a table another process (or none) owns

    async def claim(self, table_id: str) -> bool:
        """Drive the table from this process if no other does (its AI, timers and notifications); whether it does."""
        return await self.peers.lease(table_id)

    async def owner_elsewhere(self, table_id: str) -> str | None:
        """Where the table lives if another process owns it and has an address; else None, and this process owns it
        when its lease was free."""
        if await self.claim(table_id):
            return None
        return await self.peers.owner(table_id)

    def drives(self, table_id: str) -> bool:
        """Whether this process drives the table (its AI, timers and, for adapters, its notifications)."""
        return self.peers.holds(table_id)

    async def heard(self, notice: Notice) -> None:
        """Another process changed a table: catch up if this process has it in memory and is behind, and owns it or
        has someone here following it (else the table is unloaded).

        A table being loaded is waited for: the load may have read the store before this change.
        """
        table = self.tables.held(notice.table_id)
        if table is not None and self.unload_unowned(notice.table_id):
            return
        table = table or await self.tables.loaded(notice.table_id)  # just asked for: whoever asked follows it
        if table is None:
            return
        if notice.seq > table.seq or notice.version > table.row.version:
            try:
                await self.catch_up(notice.table_id, notice)
            except Exception:
                log.warning("table %s: catching up with another process failed; the supervisor tries again",
                            notice.table_id, exc_info=True)
                self.behind.add(notice.table_id)

    def unload_unowned(self, table_id: str) -> bool:
        """Unload a table another process owns (or none) that nobody here follows, rather than catch it up; whether
        it was (it loads from the store when next needed)."""
        return not self.drives(table_id) and self.tables.unload_unfollowed(table_id)

    async def catch_up_behind(self) -> None:
        """Try again the catch-ups that failed (each stays behind until one succeeds)."""
        for table_id in sorted(self.behind):
            self.behind.discard(table_id)
            try:
                await self.catch_up(table_id)
            except Exception:
                self.behind.add(table_id)
                raise

    async def catch_up(self, table_id: str, notice: Notice | None = None) -> None:
        """Bring a loaded table up to the store (another process changed it) and publish what changed, in order."""
        table = self.tables.held(table_id)
        if table is None:
            return
        async with table.lock:
            await self._catch_up(table, notice)
        if table.row.status == TableStatus.PLAYING:
            self.schedule.arm(table)
            if self.drives(table_id):  # a move made on another process may leave this one's AI to act
                self.schedule.kick(table)

    async def catch_up_all(self) -> None:
        """Bring every loaded table up to the store (after notices may have been lost); raises if one fails."""
        await self.check(every_table=True)
        await self.catch_up_behind()

    async def check(self, *, every_table: bool = False, grace: float = NOTICE_GRACE) -> list[str]:
        """Catch up the loaded tables the store has moved past unheard (one query for all); the ids that were behind.

        Tables in the lobby or being played are checked (``every_table``: finished ones too).
        A table found behind is given ``grace`` seconds for a notice on its way, which says
        more than a look (a row change's events); a catch-up that fails stays ``behind`` for
        the next check or supervisor round.
        """
        held = [table for table in self.tables.all() if every_table or table.row.status in OPEN]
        stored: dict[str, tuple[int, int]] = {}
        for start in range(0, len(held), MARKS_PAGE):
            stored.update(await self.marks([table.id for table in held[start:start + MARKS_PAGE]]))
        behind = [table for table in held if is_behind(table, stored.get(table.id))]
        if behind and grace:
            await asyncio.sleep(grace)
            behind = [table for table in behind if is_behind(table, stored.get(table.id))]
        for table in behind:
            if self.unload_unowned(table.id):
                self.behind.discard(table.id)
                continue
            try:
                await self.catch_up(table.id)
            except Exception as error:
                log.warning("table %s: catching up with the store failed (%s: %s); trying again later", table.id,
                            type(error).__name__, error)
                self.behind.add(table.id)
            else:
                self.behind.discard(table.id)
        return [table.id for table in behind]

    async def reload(self, table: LiveTable) -> None:
        """Another process moved this table on (a write of ours met its change): catch up, publishing what it did;
        the table's lock is held."""
        await self._catch_up(table, None)
        self.tables.add(table)

    async def _catch_up(self, table: LiveTable, notice: Notice | None) -> None:
        """Catch the table up with the store; the table's lock is held."""
        if notice is not None and notice.seq <= table.seq and notice.version <= table.row.version:
            return  # an earlier catch-up already read this change
        moves_only = notice is not None and notice.kind == UpdateKind.MOVED and notice.version == table.row.version
        row = table.row if moves_only and table.state is not None else await self.store.tables.load_table(table.id)
        if row is None:
            return
        publish = self.tables.publish
        if table.state is None and row.status in (TableStatus.PLAYING, TableStatus.FINISHED):
            fresh = await self.tables.revive(row)
            start = table.game.new_game(fresh.options, row.size, row.seed)
            table.row, table.options, table.state, table.seq = fresh.row, fresh.options, fresh.state, fresh.seq
            events = [public({"type": "started", "seed_hash": row.seed_hash}), *table.game.start_events(start)]
            await publish(table, UpdateKind.STARTED, events if fresh.seq == 0 else [])
            return
        if moves_only and notice is not None and notice.seq == table.seq + 1 and notice.events:
            carried = json.loads(notice.events)  # the notice carries the move: nothing to read
            moves = [LoggedAction(notice.seq, carried["seat"], carried["action"])]
        elif table.state is not None:
            moves = await self.store.tables.load_actions(table.id, after=table.seq)
        else:
            moves = []
        if moves:
            table.row = row
        if moves and not self.drives(table.id):
            self.unowned_moves += len(moves)
        for entry in moves:
            state, events = table.game.apply(table.state, entry.seat, entry.action)
            table.state, table.seq = state, entry.seq
            outcome = table.game.outcome(state)
            if outcome is None:
                await publish(table, UpdateKind.MOVED, events)
            else:
                await publish(table, UpdateKind.FINISHED, [*events, finished_event(outcome, row.seed, row.meta)])
        if moves or row.version == table.row.version:
            table.row = row
            return
        named = row.meta.get("rematch") not in (None, table.row.meta.get("rematch"))
        table.row, table.options = row, table.game.parse_options(row.options)
        if notice is None and named:  # found by looking: the finished table names its rematch
            await publish(table, UpdateKind.REMATCH)
        elif notice is None:  # found by looking, not told: say what the table is now
            await publish(table, UNTOLD_KINDS.get(TableStatus(row.status), UpdateKind.SEAT_CHANGED))
        elif notice.kind not in (UpdateKind.META, UpdateKind.MOVED):  # a move's notice carries it, applied here
            shown = json.loads(notice.events) if notice.events else []
            await publish(table, update_kind(notice.kind), [public(data) for data in shown])
