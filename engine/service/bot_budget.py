"""One budget of Bot API calls for the whole bot, whichever process makes them.

Telegram counts a bot's calls together (about 30 a second), so with several processes on
one PostgreSQL database each takes every call's room from one shared budget
(``engine.store.budget_rows``: one row, one statement a call) before its own limiter lets
the call through. With SQLite there is one process and no shared budget: the limiter's own
is the whole bot's. A group's 20 posts a minute are a budget of slots in the same table, taken
with the post's room in its chat's pace, so two processes posting to one group keep to them
together (on the local share, each process keeps its own minute and pace).

The database may be out of reach for a moment (restarting, the connection lost) or slow. A
take that fails or does not answer within ``timeout`` falls back to a conservative share of
this process's own, the budget divided by the number of processes last seen taking from it
(counted every ``COUNT_EVERY`` seconds), for ``retry_after`` seconds; then the shared budget
is tried again. The connection is opened in the background (at start, and again once lost),
so no call waits for a connection to open: until it is, calls go on the local share.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from engine.store.budget_rows import BudgetRows
from engine.store.database import Store

log = logging.getLogger(__name__)
OVERALL = "overall"  # every call takes from it ("chat:<id>": a chat's one post a second, "group:<id>": its minute)
TAKE_TIMEOUT = 0.25  # seconds a take may last before this process falls back to its own share
RETRY_AFTER = 1.0  # seconds on its own share after a failed take, before the shared budget is tried again
SWEEP_EVERY = 60.0  # seconds between two removals of the chats' budgets not used for as long
COUNT_EVERY = 5.0  # seconds between two counts of the processes taking from the budget


class SharedBudget:
    """The whole bot's budget in the database, with a local share of it to fall back on."""

    def __init__(self, rows: BudgetRows, *, timeout: float = TAKE_TIMEOUT, retry_after: float = RETRY_AFTER,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rows = rows
        self.timeout = timeout
        self.retry_after = retry_after
        self.clock = clock
        self.processes = 1  # processes last seen taking from the budget (this one included)
        self.fallbacks = 0  # takes answered from the local share
        self._counted_at = float("-inf")
        self._swept_at = float("-inf")
        self._down_until = float("-inf")
        self._local_next = float("-inf")
        self._connecting: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Open the connection and count the processes now (if the database answers; else in the background)."""
        try:
            await self._connect()
        except Exception:
            self._reconnect()

    async def _connect(self) -> None:
        await self.rows.connect()
        self.processes = max(1, await self.rows.takers())
        self._counted_at = self.clock()

    def _reconnect(self) -> None:
        """Open the connection in the background, trying every ``retry_after`` seconds until it opens."""
        if self._connecting is not None and not self._connecting.done():
            return

        async def connect() -> None:
            while True:
                try:
                    await self._connect()
                    return
                except Exception:
                    self.rows.drop()
                    await asyncio.sleep(self.retry_after)

        self._connecting = asyncio.get_running_loop().create_task(connect(), name="bot-budget-connect")

    async def take(self, interval: float, key: str = OVERALL) -> float:
        """Take one call's room from budget ``key`` (its calls ``interval`` seconds apart): seconds to wait for it."""
        now, fallbacks = self.clock(), self.fallbacks
        wait = await self._shared(lambda: self.rows.take(key, interval), interval, key)
        if key == OVERALL and self.fallbacks == fallbacks:
            self._local_next = now + wait + interval * self.processes  # where the local share would carry on
        return wait

    async def take_post(self, chat: str, interval: float, group: str, window: float, slots: int) -> float:
        """Take one post's room from its chat's pace (``interval`` seconds apart) and its group's minute (``slots``
        posts in any ``window`` seconds), both counted from when it leaves: seconds to wait for it."""
        return await self._shared(lambda: self.rows.take_post(chat, interval, group, window, slots), interval, chat)

    async def _shared(self, take: Callable[[], Awaitable[float]], interval: float, key: str) -> float:
        """What ``take`` answers from the database, or this process's own share while the database is away."""
        now = self.clock()
        if now < self._down_until:
            return self._local(interval, now, key)
        if not self.rows.connected:
            self._reconnect()
            return self._local(interval, now, key)
        try:
            async with asyncio.timeout(self.timeout):
                if now - self._counted_at >= COUNT_EVERY:
                    self.processes = max(1, await self.rows.takers())
                    self._counted_at = now
                if now - self._swept_at >= SWEEP_EVERY:
                    await self.rows.forget_idle(SWEEP_EVERY)
                    self._swept_at = now
                return await take()
        except Exception as error:  # out of reach, too slow, or refused: this process's own share for a while
            self.rows.drop()
            if self.clock() >= self._down_until + self.retry_after:
                log.warning("the shared Bot API budget is out of reach (%s: %s); each process keeps 1/%d of it for now",
                            type(error).__name__, error, self.processes)
            self._down_until = self.clock() + self.retry_after
            return self._local(interval, self.clock(), key)

    def _local(self, interval: float, now: float, key: str) -> float:
        """This process's share: one call every ``interval`` times the processes last seen (a chat's pace is kept by
        the limiter's own)."""
        self.fallbacks += 1
        if key != OVERALL:
            return 0.0
        start = max(self._local_next, now)
        self._local_next = start + interval * self.processes
        return start - now

    async def close(self) -> None:
        """Stop connecting, and close the budget's connection."""
        if self._connecting is not None:
            self._connecting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._connecting
        await self.rows.close()


def budget_for(store: Store) -> SharedBudget | None:
    """The shared budget of a shared database (None for SQLite: one process, its limiter's budget is the bot's)."""
    return SharedBudget(BudgetRows(store.dsn)) if store.is_shared else None
