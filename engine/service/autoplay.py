"""AI seats act through the same path as people: one task per table, a short think delay.

When a table's seat to act belongs to an AI (or to a person on autopilot), a task
waits ``delay`` seconds so people can follow the play, asks the AI for a move from
that seat's view only, and applies it under the table's lock like any other move.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from engine.ai import choose
from engine.core.errors import Refusal

if TYPE_CHECKING:
    from engine.service.live import LiveTable
    from engine.service.tables import TableService

log = logging.getLogger(__name__)


class Autoplay:
    """Runs the AI seats of every table of a service."""

    def __init__(self, service: TableService, *, delay: float = 0.0) -> None:
        self.service = service
        self.delay = delay
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._pool: ProcessPoolExecutor | None = None  # searching AI players think in another process

    def kick(self, table: LiveTable) -> None:
        """Make sure an AI seat on turn at this table gets to move."""
        if table.id in self._tasks or not self._ai_to_act(table):
            return
        self._tasks[table.id] = asyncio.create_task(self._run(table), name=f"ai-{table.id}")

    def forget(self, table_id: str) -> None:
        """Stop acting at a table."""
        task = self._tasks.pop(table_id, None)
        if task is not None:
            task.cancel()

    async def close(self) -> None:
        """Stop every AI task."""
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def idle(self) -> None:
        """Wait until no AI seat anywhere is about to move (for tests and tools)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    @staticmethod
    def _ai_to_act(table: LiveTable) -> list[int]:
        seats = table.row.seats
        return [s for s in sorted(table.to_act()) if seats[s].is_ai or seats[s].autopilot or s in table.standins]

    @staticmethod
    def _turn_over(table: LiveTable, seat: int) -> bool:
        """Whether the seat's turn ended: after one move, or for games of many-move turns when it leaves to_act."""
        if getattr(table.game, "multi_action_turns", False):
            return seat not in table.to_act()
        return True

    async def _run(self, table: LiveTable) -> None:
        try:
            while True:
                if self.delay:
                    await asyncio.sleep(self.delay)
                async with table.lock:
                    waiting = self._ai_to_act(table)
                    if not waiting:
                        return
                    seat = waiting[0]
                    action = await self.decide(table, seat)
                    await self.service.apply_locked(table, seat, action, auto=True)
                    if seat in table.standins and self._turn_over(table, seat):
                        table.standins.discard(seat)  # a stand-in plays only the turn that timed out
                        await self.service.timers.arm(table)
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Refusal as refusal:
            log.error("AI move refused at table %s: %s", table.id, refusal)
        except Exception:
            log.exception("AI failed at table %s", table.id)
        finally:
            if self._tasks.get(table.id) is asyncio.current_task():
                del self._tasks[table.id]

    async def decide(self, table: LiveTable, seat: int) -> dict[str, Any]:
        """The AI's move for a seat, chosen from that seat's view only."""
        game, state = table.game, table.state
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        row = table.seat_row(seat)
        level = row.ai_level if row.is_ai else "easy"
        seed = f"{table.row.seed}:{table.seq}:{seat}"
        if level == "strong" and len(legal) > 1:
            # A search takes up to a few hundred milliseconds of CPU: keep the event loop free.
            if self._pool is None:
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            loop = asyncio.get_running_loop()
            return dict(await loop.run_in_executor(self._pool, choose, game.name, level, view, legal, seed))
        return dict(choose(game.name, level, view, legal, seed))
