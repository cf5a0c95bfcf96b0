"""AI seats act through the same path as people: one task per table, a short think delay.

``Autoplay`` is a scheduler. When the table service sees an AI (or a person on
autopilot, or a stand-in for a timed-out turn) to act, it calls ``kick(table_id)``;
the table's task waits ``delay`` seconds so people can follow the play, then asks the
service to take one AI turn through ``step(table_id)``, until ``step`` says nobody
automatic is to act. A failing step (a database blip, say) is retried with a growing
back-off instead of stopping the table for good.

``think`` is the AI's choice from one seat's view only; every decision its player says
searches (``engine.ai.is_costly``) is thought in a worker process so the event loop stays free.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.ai import choose, is_costly
from engine.core.errors import Refusal
from engine.store.reach import is_unreachable

log = logging.getLogger(__name__)
RETRY_FIRST, RETRY_MAX = 0.5, 30.0

Step = Callable[[str], Awaitable[bool]]
Claim = Callable[[str], Awaitable[bool]]


async def always(_table_id: str) -> bool:
    """One process alone drives every table."""
    return True


class Autoplay:
    """Runs the AI turns of every table of a service, one task per table."""

    def __init__(
        self, step: Step, *, delay: float = 0.0, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        claim: Claim = always,
    ) -> None:
        self.step = step
        self.claim = claim  # whether this process drives the table (asked once, before its first turn)
        self.delay = delay
        self.sleep = sleep
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._pool: ProcessPoolExecutor | None = None
        self.retries = 0  # steps that failed and were tried again (for checks and benchmarks)
        self.pooled = 0  # decisions thought in the worker process (for checks and benchmarks)

    def kick(self, table_id: str) -> None:
        """Make sure an automatic seat on turn at this table gets to move."""
        if table_id not in self._tasks:
            self._tasks[table_id] = asyncio.create_task(self._run(table_id), name=f"ai-{table_id}")

    def is_running(self, table_id: str) -> bool:
        """Whether the table's AI task is alive."""
        return table_id in self._tasks

    def forget(self, table_id: str) -> None:
        """Stop acting at a table."""
        task = self._tasks.pop(table_id, None)
        if task is not None:
            task.cancel()

    async def close(self) -> None:
        """Stop every AI task and the worker process."""
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

    async def _run(self, table_id: str) -> None:
        failures = 0
        try:
            if not await self.claim(table_id):
                return  # another process drives this table
            while True:
                if self.delay:
                    await self.sleep(self.delay)
                try:
                    more = await self.step(table_id)
                except Refusal as refusal:
                    log.error("AI move refused at table %s: %s", table_id, refusal, extra={"table_id": table_id})
                    return
                except Exception as error:
                    failures += 1
                    self.retries += 1
                    wait = min(RETRY_MAX, RETRY_FIRST * 2 ** (failures - 1))
                    if is_unreachable(error):  # expected while the database is away: a line, not a traceback
                        log.warning("AI turn at table %s: the database is out of reach (%s: %s); retrying in %.1f s",
                                    table_id, type(error).__name__, error, wait, extra={"table_id": table_id})
                    else:
                        log.exception("AI turn failed at table %s; retrying in %.1f s", table_id, wait,
                                      extra={"table_id": table_id})
                    await self.sleep(wait)
                    continue
                failures = 0
                if not more:
                    return
                await asyncio.sleep(0)
        finally:
            if self._tasks.get(table_id) is asyncio.current_task():
                del self._tasks[table_id]

    async def think(
        self, game: str, level: str, view: dict[str, Any], legal: Sequence[Mapping[str, Any]], seed: str
    ) -> dict[str, Any]:
        """The AI's move from one seat's view and its legal actions."""
        if is_costly(game, level, view, legal):
            # A search takes up to a few hundred milliseconds of CPU: keep the event loop free. The player says
            # which decisions search (a give or a discard lists one action yet searches a dozen candidate sets).
            self.pooled += 1
            if self._pool is None:
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            loop = asyncio.get_running_loop()
            return dict(await loop.run_in_executor(self._pool, choose, game, level, view, legal, seed))
        return dict(choose(game, level, view, legal, seed))
