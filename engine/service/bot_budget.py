"""One budget of Bot API calls for the whole bot, whichever process makes them.

Telegram counts a bot's calls together (about 30 a second), so with several processes on
one PostgreSQL database each takes every call's room from one shared budget
(``engine.store.budget_rows``: one row, one statement a call) before its own limiter lets
the call through. With SQLite there is one process and no shared budget: the limiter's own
is the whole bot's. A group's 20 posts a minute are a budget of slots in the same table, taken
with the post's room in its chat's pace, so two processes posting to one group keep to them
together (on the local share, each process keeps its own minute and pace).

The database may be out of reach of one process for a moment (its connection cut, a lock held)
or of all of them. A take that fails or does not answer within ``timeout`` puts this process on
a share of its own, the whole budget's ``1/known`` (``known``: the processes marked on the
budget within ``KNOWN_FOR`` seconds, this one included), for ``retry_after`` seconds; then the
shared budget is tried again. The processes still on the shared budget leave that share to it:
each marks itself on the budget every ``MARK_EVERY`` seconds while it takes from it, and each
spaces its calls on the shared row by ``known / on_budget`` times the interval (``on_budget``:
those marked within ``ON_BUDGET_FOR`` seconds), so together they take ``on_budget / known`` of
the budget and the whole bot keeps Telegram's limit. A process that falls off the shared budget
starts on its own share only after ``NOTICE`` seconds, the time the others take to see it gone
(before that its calls would come on top of theirs). The connection is opened in the
background (at start, and again once lost), so no call waits for a connection to open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable

from engine.store.budget_rows import BudgetRows
from engine.store.database import Store

log = logging.getLogger(__name__)
OVERALL = "overall"  # every call takes from it ("chat:<id>": a chat's one post a second, "group:<id>": its minute)
TAKE_TIMEOUT = 0.25  # seconds a take may last before this process falls back to its own share
RETRY_AFTER = 1.0  # seconds on its own share after a failed take, before the shared budget is tried again
SWEEP_EVERY = 60.0  # seconds between two removals of the chats' budgets not used for as long
MARK_EVERY = 0.25  # seconds between two marks of a process on the shared budget
COUNT_EVERY = 0.5  # seconds between two counts of the processes taking from it
ON_BUDGET_FOR = 1.0  # seconds a mark says a process takes from the shared budget
KNOWN_FOR = 10.0  # seconds a mark says a process is one of the bot's (a stopped one unmarks itself at once)
NOTICE = ON_BUDGET_FOR + COUNT_EVERY + MARK_EVERY  # seconds before the others see a process left the shared budget


class SharedBudget:
    """The whole bot's budget in the database, with a local share of it to fall back on."""

    def __init__(self, rows: BudgetRows, *, timeout: float = TAKE_TIMEOUT, retry_after: float = RETRY_AFTER,
                 clock: Callable[[], float] = time.monotonic, name: str | None = None) -> None:
        self.rows = rows
        self.timeout = timeout
        self.retry_after = retry_after
        self.clock = clock
        self.name = name or secrets.token_hex(6)  # this process's mark on the budget
        self.known = 1  # processes of the bot lately seen (this one included)
        self.on_budget = 1  # ... of which on the shared budget
        self.fallbacks = 0  # takes answered from the local share
        self._counted_at = float("-inf")
        self._marked_at = float("-inf")
        self._swept_at = float("-inf")
        self._down_until = float("-inf")  # on the local share until then
        self._on_shared = False  # marked on the shared budget since last off it
        self._local_next = float("-inf")  # the local share's next room
        self._connecting: asyncio.Task[None] | None = None
        self._beating: asyncio.Task[None] | None = None

    @property
    def processes(self) -> int:
        """The processes sharing the bot's budget (this one included)."""
        return self.known

    @property
    def spread(self) -> float:
        """How far apart, in the budget's intervals, this process spaces the calls it takes from the shared row."""
        return self.known / max(1, min(self.on_budget, self.known))

    async def start(self) -> None:
        """Open the connection, mark this process and count the others (now if the database answers; else in the
        background); keep the mark fresh while no call is made."""
        try:
            await self._connect()
        except Exception:
            self._reconnect()
        self._beating = asyncio.get_running_loop().create_task(self._beat(), name="bot-budget-mark")

    async def _connect(self) -> None:
        await self.rows.connect()
        await self._mark_and_count(self.clock(), force=True)

    async def _mark_and_count(self, now: float, force: bool = False) -> None:
        if force or now - self._marked_at >= MARK_EVERY:
            await self.rows.mark(self.name)
            self._marked_at = now
            self._on_shared = True
        if force or now - self._counted_at >= COUNT_EVERY:
            on_budget, known = await self.rows.takers(ON_BUDGET_FOR, KNOWN_FOR)
            self.known, self.on_budget = max(1, known), max(1, on_budget)
            self._counted_at = now

    async def _beat(self) -> None:
        """Mark this process on the budget while it could take from it and makes no call."""
        while True:
            await asyncio.sleep(MARK_EVERY)
            now = self.clock()
            if now < self._down_until or not self.rows.connected or now - self._marked_at < MARK_EVERY:
                continue
            try:
                async with asyncio.timeout(self.timeout):
                    await self._mark_and_count(now)
            except Exception as error:
                self._fall(error)

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
        spaced = interval * self.spread if key == OVERALL else interval
        wait = await self._shared(lambda: self.rows.take(key, spaced), interval, key)
        if key == OVERALL and self.fallbacks == fallbacks:
            self._local_next = now + wait + interval * self.known  # where the local share would carry on
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
            self._fall(None)
            return self._local(interval, self.clock(), key)
        try:
            async with asyncio.timeout(self.timeout):
                await self._mark_and_count(now)
                if now - self._swept_at >= SWEEP_EVERY:
                    await self.rows.forget_idle(SWEEP_EVERY)
                    self._swept_at = now
                return await take()
        except Exception as error:  # out of reach, too slow, or refused: this process's own share for a while
            self._fall(error)
            return self._local(interval, self.clock(), key)

    def _fall(self, error: Exception | None) -> None:
        """Go on this process's own share for ``retry_after`` seconds; coming off the shared budget, it starts only
        once the others can have seen it gone (``NOTICE``)."""
        now = self.clock()
        if self._on_shared:  # the others count it on the shared budget until they see its mark grow old
            self._on_shared = False
            self._local_next = max(self._local_next, now + NOTICE)
            if error is not None:
                log.warning("the shared Bot API budget is out of reach (%s: %s); this process keeps 1/%d of it for now",
                            type(error).__name__, error, self.known)
        if error is not None:
            self.rows.drop()
        self._down_until = now + self.retry_after

    def _local(self, interval: float, now: float, key: str) -> float:
        """This process's share: one call every ``interval`` times the processes lately seen (a chat's pace is kept
        by the limiter's own)."""
        self.fallbacks += 1
        if key != OVERALL:
            return 0.0
        start = max(self._local_next, now)
        self._local_next = start + interval * self.known
        return start - now

    async def close(self) -> None:
        """Stop marking and connecting, take this process's mark off the budget, and close the connection."""
        for task in (self._beating, self._connecting):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.rows.connected:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(self.timeout):
                    await self.rows.unmark(self.name)
        await self.rows.close()


def budget_for(store: Store) -> SharedBudget | None:
    """The shared budget of a shared database (None for SQLite: one process, its limiter's budget is the bot's)."""
    return SharedBudget(BudgetRows(store.dsn)) if store.is_shared else None
