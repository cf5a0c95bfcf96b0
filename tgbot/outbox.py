"""Per-chat work queues where the last state wins.

Each chat gets at most one worker task; work is named by a key (a table's message, a
player's turn message) and queued once however often it is asked for, so a burst of
changes becomes one call that renders the state as it is when the call is made.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable

log = logging.getLogger(__name__)

Work = Callable[[int, Hashable], Awaitable[None]]


class Outbox:
    """Runs ``work(chat_id, key)`` for submitted keys, one at a time per chat, in submission order."""

    def __init__(self, work: Work) -> None:
        self._work = work
        self._pending: dict[int, dict[Hashable, None]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._closed = False

    def submit(self, chat_id: int, key: Hashable) -> None:
        """Ask for ``key`` to be brought up to date in ``chat_id`` (merged with a pending request)."""
        if self._closed:
            return
        self._pending.setdefault(chat_id, {})[key] = None
        if chat_id not in self._workers:
            self._workers[chat_id] = asyncio.create_task(self._drain(chat_id), name=f"outbox-{chat_id}")

    @property
    def busy(self) -> bool:
        """Whether any work is queued or running."""
        return bool(self._workers)

    async def _drain(self, chat_id: int) -> None:
        try:
            while True:
                pending = self._pending.get(chat_id)
                if not pending:
                    return
                key = next(iter(pending))
                del pending[key]
                try:
                    await self._work(chat_id, key)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("bot work %r in chat %s failed", key, chat_id)
        finally:
            if not self._pending.get(chat_id):
                self._pending.pop(chat_id, None)
            if self._workers.get(chat_id) is asyncio.current_task():
                del self._workers[chat_id]

    async def idle(self) -> None:
        """Wait until every queue is empty."""
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
