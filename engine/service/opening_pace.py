"""The pace at which a process opens new tables: one budget for everyone, so a storm of openings never starves play.

Opening a lobby costs a process about what a dozen moves do (a person written, a table and
its seats written, a first publish), and people opening lobbies by the hundred a second
left the loop and the database too little time for the tables in play: in ``bench.storm``
a table's move p99 went from 31 ms to 5 s, and in a second storm it hardly moved at all. So
openings spend a token bucket of ``rate`` a second in bursts of ``burst``, taken before anything
is read or written; one refused (``too_many_new_tables``) changes nothing and says how many
seconds until one would pass.
The budget is this process's: a guard against floods, not a ledger across processes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from engine.core.errors import Refusal, RefusalCode

OPENINGS_RATE = 10.0  # new tables a second a process opens, on average (36,000 an hour)
OPENINGS_BURST = 40  # ... and at once, after a quiet spell


class OpeningPace:
    """A token bucket of new tables: ``take`` spends one or refuses with the wait."""

    def __init__(self, rate: float = OPENINGS_RATE, burst: int = OPENINGS_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.last = clock()

    def take(self) -> None:
        """Spend one opening; raises Refusal("too_many_new_tables") with ``seconds`` to wait when none is left."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            raise Refusal(RefusalCode.TOO_MANY_NEW_TABLES, seconds=self.wait())
        self.tokens -= 1.0

    def wait(self) -> int:
        """Whole seconds until an opening would pass (at least 1)."""
        return max(1, math.ceil((1.0 - self.tokens) / self.rate)) if self.rate > 0 else 60
