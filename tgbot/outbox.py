"""Lanes of work where the last state wins: one worker per lane (a table), never two passes of a lane at once.

Work is named by a key and queued once however often it is asked for, so a burst of
changes becomes one pass that renders the state as it is when the pass runs. A lane is
one table within one outbox: the notifier keeps two outboxes, one for each table's
message in its chat and one for its people's turn messages, so a table's two kinds of
message are kept by two workers that may run side by side, each writing only its own
records; two passes of one kind for one table never overlap.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable, Hashable

log = logging.getLogger(__name__)

Work = Callable[[Hashable, Hashable], Awaitable[None]]


class Outbox:
    """Runs ``work(lane, key)`` for submitted keys, one at a time per lane, in submission order."""

    def __init__(self, work: Work) -> None:
        self._work = work
        self._pending: dict[Hashable, dict[Hashable, None]] = {}
        self._workers: dict[Hashable, asyncio.Task[None]] = {}
        self._closed = False

    def submit(self, lane: Hashable, key: Hashable = "sync") -> None:
        """Ask for ``key`` to be brought up to date in ``lane`` (merged with a pending request)."""
        if self._closed:
            return
        self._pending.setdefault(lane, {})[key] = None
        if lane not in self._workers:
            # a context of its own: nothing the submitter had set (a handler's reader languages) leaks into the lane
            self._workers[lane] = asyncio.create_task(self._drain(lane), name=f"outbox-{lane}",
                                                      context=contextvars.Context())

    @property
    def busy(self) -> bool:
        """Whether any work is queued or running."""
        return bool(self._workers)

    def queued(self, lane: Hashable) -> bool:
        """Whether work of ``lane`` is queued (asked for and not yet begun)."""
        return bool(self._pending.get(lane))

    async def _drain(self, lane: Hashable) -> None:
        try:
            while True:
                pending = self._pending.get(lane)
                if not pending:
                    return
                key = next(iter(pending))
                del pending[key]
                try:
                    await self._work(lane, key)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("bot work %r of %s failed", key, lane)
        finally:
            if not self._pending.get(lane):
                self._pending.pop(lane, None)
            if self._workers.get(lane) is asyncio.current_task():
                del self._workers[lane]

    async def idle(self) -> None:
        """Wait until every lane is empty."""
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

    async def close(self) -> None:
        """Drop queued work and stop the workers."""
        self._closed = True
        self._pending.clear()
        workers = list(self._workers.values())
        self._workers.clear()
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
