"""Moves: a person's move checked, stored with everything it implies in one transaction, then published.

A move carries the ``seq`` it was made against; an old or repeated one is refused with
``stale`` and never applied twice (the store's unique ``(table_id, seq)`` guards across
processes too). A move that ends the game stores the result and the ratings with it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.core.errors import MalformedAction, Refusal, RefusalCode
from engine.core.events import Event
from engine.service.kinds import TableStatus, UpdateKind, finished_event
from engine.service.live import LiveTable
from engine.service.loading import SNAPSHOT_EVERY, Tables, finish_record, with_standins
from engine.service.metrics import ServiceMetrics
from engine.service.schedule import Schedule
from engine.service.sharing import CONFLICT_TRIES, Sharing
from engine.service.table_settings import check_action_shape
from engine.store.database import Store
from engine.store.rows import LoggedAction

__all__ = ["SNAPSHOT_EVERY", "ActResult", "Moves"]

log = logging.getLogger(__name__)
# seconds: on PostgreSQL, a move the store has not answered by then is answered ``unavailable`` and goes on alone
# (a process cut off from the server waits up to its command timeout and a new connection's); if it is stored
# after all, the page sees it in the table's next update, and a move sent again at its seq is refused as stale
ANSWER_WITHIN = 4.0


@dataclass(frozen=True, slots=True)
class ActResult:
    """An accepted move: the seq it led to (the mover sees its events in the update the move published)."""

    seq: int


class Moves:
    """Applies moves, from people and from the AI, one at a time per table."""

    def __init__(self, store: Store, tables: Tables, sharing: Sharing, schedule: Schedule, *,
                 clock: Callable[[], float] = time.time, metrics: ServiceMetrics | None = None) -> None:
        self.store = store
        self.metrics = metrics or ServiceMetrics()
        self.tables = tables
        self.sharing = sharing
        self.schedule = schedule
        self.clock = clock

    async def act(self, table_id: str, user_id: int, action: Mapping[str, Any], seq: int,
                  cause: object | None = None) -> ActResult:
        """A person's move, made against ``seq``; raises Refusal and changes nothing when refused.

        ``cause`` rides on the move's update, so whoever asked can find its own update there.
        """
        table = await self.tables.get(table_id)
        seat = table.require_seat(user_id)
        check_action_shape(action)
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise MalformedAction(RefusalCode.MOVE_WITHOUT_SEQ)
        if not self.store.is_shared:  # a file on this machine: nothing to wait out, and no task's extra turns
            return await self._act(table, seat, action, seq, cause)
        storing = asyncio.ensure_future(self._act(table, seat, action, seq, cause))
        try:
            return await asyncio.wait_for(asyncio.shield(storing), ANSWER_WITHIN)
        except TimeoutError:
            storing.add_done_callback(_heard)
            raise Refusal(RefusalCode.UNAVAILABLE) from None

    async def _act(self, table: LiveTable, seat: int, action: Mapping[str, Any], seq: int,
                   cause: object | None) -> ActResult:
        """The move at its table: caught up if another process moved it, then applied and stored under its lock."""
        table_id = table.row.id
        if seq > table.seq and self.store.is_shared:  # another process moved it and its notice is on the way
            await self.sharing.catch_up(table_id)
        async with table.lock:
            for attempt in range(1, CONFLICT_TRIES + 1):
                table.require_status(TableStatus.PLAYING)
                if seq != table.seq:
                    raise Refusal(RefusalCode.STALE)
                try:
                    await self.commit(table, seat, action, auto=False, cause=cause)
                    break
                except Refusal as refusal:
                    # the table was caught up: if its seq is still the move's, only its row had changed (another
                    # process's write), and the move stands against the fresh row
                    if refusal.code != RefusalCode.STALE or attempt == CONFLICT_TRIES:
                        raise
        self.schedule.kick(table)
        return ActResult(table.seq)

    async def commit(self, table: LiveTable, seat: int, action: Mapping[str, Any], *, auto: bool,
                     cause: object | None = None) -> list[Event]:
        """Apply one move, store it with everything it implies in one transaction, then publish; lock held.

        Nothing in memory changes until the store has the move: the table's new row
        (finished status and result, the next deadline, a seat back from autopilot)
        is built aside and swapped in after the commit.
        """
        state, events = table.game.apply(table.state, seat, action)
        entry = LoggedAction(table.seq + 1, seat, dict(action), auto)
        standins = table.standins
        if seat in standins and (not auto or self._turn_over(table, seat, state)):
            meta = with_standins(table.row.meta, standins - {seat})  # a stand-in plays only the turn that timed out
        else:
            meta = table.row.meta
        seat_row = table.seat_row(seat)
        back = not auto and (seat_row.autopilot or seat_row.missed > 0)
        seats = [replace(s, autopilot=False, missed=0) if s.seat == seat else s for s in table.row.seats] if back \
            else table.row.seats
        outcome = table.game.outcome(state)
        if outcome is not None:
            row = replace(table.row, status=TableStatus.FINISHED, deadline=None, ai_turn=False,
                          result=outcome.as_dict(), seats=seats, meta=with_standins(meta, ()))
        else:
            same = meta is table.row.meta and not back
            probe = table.row if same else replace(table.row, seats=seats, meta=meta)
            deadline, ai_turn = self.schedule.due(LiveTable(probe, table.game, table.options, state, entry.seq,
                                                            table.lock))
            if same and deadline == probe.deadline and ai_turn == probe.ai_turn:
                row = probe  # most moves change nothing of the row: it is neither copied nor written
            else:
                row = replace(probe) if same else probe  # a copy: the live row changes only once the move is stored
                row.deadline, row.ai_turn = deadline, ai_turn
                if row.deadline != table.row.deadline:
                    row.meta = {k: v for k, v in row.meta.items() if k != "reminded"}
        changed = (row.status != table.row.status or row.deadline != table.row.deadline
                   or row.ai_turn != table.row.ai_turn or row.meta != table.row.meta or back)
        finish = finish_record(row, outcome, self.clock()) if outcome is not None else None
        started = time.perf_counter()
        try:
            await self.store.tables.append(table.id, entry, row if changed else None, with_seats=back, finish=finish,
                                           version=table.row.version)
        except Refusal:
            await self.sharing.reload(table)
            raise
        self.metrics.moved(auto, time.perf_counter() - started)
        table.row, table.state, table.seq = row, state, entry.seq
        if outcome is None and entry.seq % SNAPSHOT_EVERY == 0:
            await self.store.tables.save_snapshot(table.id, entry.seq, table.game.snapshot(state))
        self.schedule.arm(table)
        if outcome is None:
            await self.tables.publish(table, UpdateKind.MOVED, events, cause)
            return events
        events = [*events, finished_event(outcome, table.row.seed, table.row.meta)]
        await self.tables.publish(table, UpdateKind.FINISHED, events, cause)
        return events

    @staticmethod
    def _turn_over(table: LiveTable, seat: int, state: Any) -> bool:
        """Whether the seat's turn ended with this move (games of many-move turns: when it leaves to_act)."""
        if table.game.multi_action_turns:
            return seat not in table.game.to_act(state)
        return True


def _heard(storing: asyncio.Future[ActResult]) -> None:
    """A move answered ``unavailable`` before it ended: stored after all (published as any move), or refused, or
    failed (logged here: nobody waits for its answer any more)."""
    if storing.cancelled():
        return
    error = storing.exception()
    if error is not None and not isinstance(error, Refusal):
        log.warning("a move answered unavailable after %.0f s then failed: %r", ANSWER_WITHIN, error)
