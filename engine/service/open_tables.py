"""The cap on the open tables one person sits at: checked, under the person's own lock, before each new seat.

A person may sit at no more than ``limit`` tables in the lobby or being played. Whatever
would seat them (opening a table, a rematch or a lesson, joining one) first counts their open
tables and then seats them while holding their lock, so two requests at the limit cannot
both pass. The lock is this process's: the cap is a guard against floods, not a ledger.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from engine.core.errors import Refusal, RefusalCode

MAX_OPEN_TABLES = 20  # the default cap (engine.config: MAX_OPEN_TABLES_PER_USER)

Count = Callable[[int], Awaitable[int]]


class OpenTablesCap:
    """Refuses a new seat to a person who already sits at ``limit`` open tables."""

    def __init__(self, count: Count, limit: int = MAX_OPEN_TABLES) -> None:
        self.count = count  # how many open tables a person sits at (one indexed count in the store)
        self.limit = limit
        self._locks: dict[int, asyncio.Lock] = {}
        self._holders: dict[int, int] = {}  # people whose lock is held or awaited, and by how many

    @asynccontextmanager
    async def room_for(self, user_id: int) -> AsyncIterator[None]:
        """Hold the person's lock while they are seated; raises Refusal("too_many_tables") at the cap."""
        async with self.locked(user_id):
            await self.check(user_id)
            yield

    async def check(self, user_id: int) -> None:
        """Raise Refusal("too_many_tables") if the person sits at ``limit`` open tables (their lock held)."""
        if await self.count(user_id) >= self.limit:
            raise Refusal(RefusalCode.TOO_MANY_TABLES, limit=self.limit)

    @asynccontextmanager
    async def locked(self, user_id: int) -> AsyncIterator[None]:
        """Hold the person's lock (for a change that may seat them: ``check`` before it does)."""
        lock = self._locks.get(user_id)
        if lock is None:
            lock = self._locks[user_id] = asyncio.Lock()
        self._holders[user_id] = self._holders.get(user_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            left = self._holders[user_id] - 1
            if left:
                self._holders[user_id] = left
            else:  # nobody holds or awaits it: the lock goes, so idle people cost nothing
                del self._holders[user_id], self._locks[user_id]

    def locks(self) -> int:
        """How many people's locks exist now (held or awaited)."""
        return len(self._locks)
