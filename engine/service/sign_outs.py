"""Signing out everywhere: a person ends every sign-in of theirs at once, on every process.

A sign-in is as old as the Telegram data that vouched for it (``signed_at``: the ``auth_date``
Telegram signed, which a session token carries on). ``end_everywhere`` writes the moment to the
person's row; from then on a sign-in from before it is over. Whether one is still good is read
from the row, kept ``KEEP_FOR`` seconds per person in this process, so a burst of requests costs
one read and another process sees a sign-out within that long. Once a kept answer is due again, its
read is waited for ``FRESH_WITHIN`` seconds at most: a store that does not answer (a partition: a
pooled connection's ping, then a new connection, wait out their timeouts) keeps the answer it had
while the read goes on alone, so no frame or request waits on it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from engine.core.names import clean_name
from engine.store.database import Store

KEEP_FOR = 2.0  # seconds a person's sign-out moment is kept before it is read again
KEPT = 4096  # people kept at most; past it the oldest reads are dropped together
FRESH_WITHIN = 0.5  # seconds a due read is waited for when an answer is kept; past it the kept one stands


class SignOuts:
    """When each person last signed out everywhere, and whether a sign-in is from before it."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._clock = clock
        self._monotonic = monotonic
        self._kept: dict[int, tuple[float, float | None]] = {}  # person -> (read at, sessions_from)
        self._reading: dict[int, asyncio.Task[float | None]] = {}  # person -> the read under way

    async def end_everywhere(self, user_id: int, name: str) -> float:
        """End every sign-in of the person's made until now; the moment (seconds since the epoch)."""
        at = self._clock()
        await self._store.people.end_sessions(user_id, clean_name(name, fallback=str(user_id)), at)
        self._kept[user_id] = (self._monotonic(), at)
        return at

    async def still_signed_in(self, user_id: int, signed_at: float) -> bool:
        """Whether a sign-in vouched for by Telegram data signed at ``signed_at`` is still good."""
        now = self._monotonic()
        kept = self._kept.get(user_id)
        if kept is None or now - kept[0] > KEEP_FOR:
            if len(self._kept) >= KEPT:
                self._kept = {k: v for k, v in self._kept.items() if now - v[0] <= KEEP_FOR}
            try:  # with nothing kept to answer from, the read is waited for, and its failure is the caller's
                found = await asyncio.wait_for(asyncio.shield(self._read(user_id, now)),
                                               None if kept is None else FRESH_WITHIN)
            except TimeoutError:
                if kept is None:
                    raise
                found = kept[1]
            kept = self._kept.get(user_id, (now, found))  # as read, or a sign-out made here meanwhile
        return kept[1] is None or signed_at >= kept[1]

    def _read(self, user_id: int, now: float) -> asyncio.Task[float | None]:
        """The read of the person's row under way, else a new one; its answer is kept when it comes."""
        reading = self._reading.get(user_id)
        if reading is None:
            reading = self._reading[user_id] = asyncio.ensure_future(self._store.people.sessions_from(user_id))
            reading.add_done_callback(lambda done: self._read_done(user_id, now, done))
        return reading

    def _read_done(self, user_id: int, at: float, done: asyncio.Task[float | None]) -> None:
        self._reading.pop(user_id, None)
        if done.cancelled() or done.exception() is not None:  # told to whoever waited; the next call reads again
            return
        if self._kept.get(user_id, (at, None))[0] <= at:  # a sign-out made here meanwhile is newer: it stays
            self._kept[user_id] = (at, done.result())
