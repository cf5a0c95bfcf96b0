"""Limits on what one client may take: a token bucket for frame rates, and the counts of open table sockets."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from engine.config import Settings

# a flooding socket is closed once it has had this many bursts' worth of frames refused,
# a budget that refills at this share of the frame rate, so bursty but moderate clients never reach it
STRIKES_PER_BURST = 2.5
STRIKE_RATE = 0.5


class TokenBucket:
    """At most ``rate`` tokens a second on average, in bursts of up to ``burst``; it refills as time passes."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.last = clock()

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Gate:
    """Counts the table sockets of the process to enforce the limits on them."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pending: Counter[str] = Counter()  # sockets still to say hello, by remote address
        self.pending_total = 0
        self.users: Counter[int] = Counter()  # signed-in sockets by user

    @contextmanager
    def unauthenticated(self, remote: str) -> Iterator[str | None]:
        """Hold a place for a socket still to say hello; yields the refusal reason when there is none."""
        if self.pending_total >= self.settings.max_unauthenticated_sockets:
            yield "too_many_pending: the server has too many sockets waiting to sign in"
            return
        if self.pending[remote] >= self.settings.max_unauthenticated_per_address:
            yield "too_many_pending: too many sockets from your address are waiting to sign in"
            return
        self.pending[remote] += 1
        self.pending_total += 1
        try:
            yield None
        finally:
            self.pending_total -= 1
            self.pending[remote] -= 1
            if self.pending[remote] <= 0:
                del self.pending[remote]

    @contextmanager
    def signed_in(self, user_id: int) -> Iterator[bool]:
        """Hold a place for a user's socket; yields False when they already have as many as allowed."""
        if self.users[user_id] >= self.settings.max_sockets_per_user:
            yield False
            return
        self.users[user_id] += 1
        try:
            yield True
        finally:
            self.users[user_id] -= 1
            if self.users[user_id] <= 0:
                del self.users[user_id]
