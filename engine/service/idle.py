"""Tables nobody touches: lobbies and untimed games left idle are cancelled, so they stop holding seats."""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.core.events import public
from engine.service.kinds import OPEN, TableStatus, UpdateKind
from engine.service.live import TableInfo
from engine.service.loading import Tables
from engine.service.schedule import Schedule
from engine.store.database import Store


class IdleTables:
    """Cancels the tables left idle too long."""

    def __init__(self, store: Store, tables: Tables, schedule: Schedule, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.tables = tables
        self.schedule = schedule
        self.clock = clock

    async def expire_idle(self, *, lobby_after: float, game_after: float) -> list[TableInfo]:
        """Cancel lobbies untouched for ``lobby_after`` seconds and untimed games with no move for ``game_after``."""
        now = self.clock()
        idle = [t for t in self.tables.all() if t.row.status == TableStatus.LOBBY
                or (t.row.status == TableStatus.PLAYING and t.row.deadline is None)]
        last_moves = await self.store.tables.last_moves([t.id for t in idle if t.row.status == TableStatus.PLAYING])
        expired = []
        for table in idle:
            async with table.lock:
                row = table.row
                touched = max(row.updated_at, row.created_at, last_moves.get(table.id, 0.0))
                limit = lobby_after if row.status == TableStatus.LOBBY else game_after
                if row.status not in OPEN or row.deadline is not None or now - touched < limit:
                    continue
                row.status, row.deadline = TableStatus.ABANDONED, None
                await self.store.tables.save_table(row, with_seats=False)
                self.schedule.arm(table)
                expired.append(await self.tables.publish(table, UpdateKind.ABANDONED, [
                    public({"type": "expired", "idle": now - touched, "seed": row.seed})]))
            self.schedule.forget(table.id)
            self.tables.unload_ended(table.id)
        return expired
