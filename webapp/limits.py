"""Limits on what one client may take: token buckets for frame and request rates, and counts of open table sockets."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from engine.config import Settings
from engine.core.errors import Refusal, RefusalCode

# a flooding socket is closed once it has had this many bursts' worth of frames refused,
# a budget that refills at this share of the frame rate, so bursty but moderate clients never reach it
STRIKES_PER_BURST = 2.5
STRIKE_RATE = 0.5
KEPT_BUDGETS = 1024  # people's request budgets kept before the full ones (idle people) are dropped


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


class Budgets:
    """A request budget (a token bucket) for each person, kept only while it is not full again.

    A person idle for ``burst / rate`` seconds has a full budget, the same as a newcomer's, so
    theirs is dropped once more than ``KEPT_BUDGETS`` are kept: memory follows the people
    making requests now, not everyone who ever did.
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: dict[int, TokenBucket] = {}
        self._prune_at = KEPT_BUDGETS

    def take(self, person: int) -> bool:
        """Spend one of ``person``'s requests if they have one left."""
        bucket = self._buckets.get(person)
        if bucket is None:
            bucket = self._buckets[person] = TokenBucket(self.rate, self.burst, self.clock)
            if len(self._buckets) > self._prune_at:
                self._prune()
        return bucket.take()

    def __len__(self) -> int:
        return len(self._buckets)

    def _prune(self) -> None:
        now = self.clock()
        self._buckets = {person: bucket for person, bucket in self._buckets.items()
                         if bucket.tokens + (now - bucket.last) * self.rate < self.burst}
        self._prune_at = max(KEPT_BUDGETS, 2 * len(self._buckets))  # pruning stays rare while many are busy


class Gate:
    """Counts the table sockets of the process to enforce the limits on them."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pending: Counter[str] = Counter()  # sockets still to say hello, by remote address
        self.pending_total = 0
        self.users: Counter[int] = Counter()  # signed-in sockets by user

    @contextmanager
    def unauthenticated(self, remote: str) -> Iterator[Refusal | None]:
        """Hold a place for a socket still to say hello; yields the refusal (too_many_pending) if there is none."""
        if self.pending_total >= self.settings.max_unauthenticated_sockets:
            yield Refusal(RefusalCode.TOO_MANY_PENDING)
            return
        if self.pending[remote] >= self.settings.max_unauthenticated_per_address:
            yield Refusal(RefusalCode.TOO_MANY_PENDING_HERE)
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
