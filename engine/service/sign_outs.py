"""Signing out everywhere: a person ends every sign-in of theirs at once, on every process.

A sign-in is as old as the Telegram data that vouched for it (``signed_at``: the ``auth_date``
Telegram signed, which a session token carries on). ``end_everywhere`` writes the moment to the
person's row; from then on a sign-in from before it is over. Whether one is still good is read
from the row, kept ``KEEP_FOR`` seconds per person in this process, so a burst of requests costs
one read and another process sees a sign-out within that long.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.core.names import clean_name
from engine.store.database import Store

KEEP_FOR = 2.0  # seconds a person's sign-out moment is kept before it is read again
KEPT = 4096  # people kept at most; past it the oldest reads are dropped together


class SignOuts:
    """When each person last signed out everywhere, and whether a sign-in is from before it."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._clock = clock
        self._monotonic = monotonic
        self._kept: dict[int, tuple[float, float | None]] = {}  # person -> (read at, sessions_from)

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
            kept = self._kept[user_id] = (now, await self._store.people.sessions_from(user_id))
        return kept[1] is None or signed_at >= kept[1]
