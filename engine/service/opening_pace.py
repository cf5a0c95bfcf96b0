"""The pace at which a process opens new tables: one budget for everyone and one for each person, so a storm of
openings never starves play and nobody takes everyone's openings for themselves.

Opening a lobby costs a process about what a dozen moves do (a person written, a table and
its seats written, a first publish), and people opening lobbies by the hundred a second
left the loop and the database too little time for the tables in play: in ``bench.storm``
a table's move p99 went from 31 ms to 5 s, and in a second storm it hardly moved at all. So
openings spend a token bucket of ``rate`` a second in bursts of ``burst``, taken before anything
is read or written; one refused (``too_many_new_tables``) changes nothing and says how many
seconds until one would pass. Each person also has a bucket of their own (``PERSON_RATE``,
``PERSON_BURST``: a lesson, a game and a rematch in a row pass; a script opening and cancelling
lobbies is refused with ``too_many_new_tables_yours``), so two accounts cannot spend the
process's openings while everyone else is refused. ``check`` is the door's cheap look: it
refuses while the process has nothing left, before the request is read or anyone signed in.
A refusal of the process's own says to wait the time until an opening comes back plus up to
``SPREAD`` seconds at random: a crowd refused at one moment does not come back at one moment.
The budgets are this process's: a guard against floods, not a ledger across processes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from engine.core.errors import Refusal, RefusalCode

OPENINGS_RATE = 10.0  # new tables a second a process opens, on average (36,000 an hour)
OPENINGS_BURST = 40  # ... and at once, after a quiet spell
PERSON_RATE = 0.2  # new tables a second one person opens, on average (one every 5 s)
PERSON_BURST = 6  # ... and at once
SPREAD = 2  # seconds at most added at random to the wait a refusal of the process's openings names
KEPT_PEOPLE = 1024  # people's buckets kept before the full ones (people not opening now) are dropped


class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst``."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.last = now

    def fill(self, now: float) -> float:
        """The tokens at ``now``."""
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        return self.tokens

    def wait(self) -> int:
        """Whole seconds until a token is there (at least 1)."""
        return max(1, math.ceil((1.0 - self.tokens) / self.rate)) if self.rate > 0 else 60


class OpeningPace:
    """The process's bucket of new tables and each person's: ``take`` spends one of both or refuses with the wait."""

    def __init__(self, rate: float = OPENINGS_RATE, burst: int = OPENINGS_BURST,
                 clock: Callable[[], float] = time.monotonic, *,
                 person_rate: float = PERSON_RATE, person_burst: int = PERSON_BURST, spread: int = SPREAD,
                 rng: random.Random | None = None) -> None:
        self.clock = clock
        self.spread = spread
        self.rng = rng or random.Random()
        self.rate = rate
        self.burst = burst
        self.person_rate = person_rate
        self.person_burst = person_burst
        self.everyone = Bucket(rate, burst, clock())
        self.people: dict[int, Bucket] = {}
        self._prune_at = KEPT_PEOPLE

    def check(self) -> None:
        """Refuse (``too_many_new_tables``) while the process has no opening left; spends nothing."""
        if self.everyone.fill(self.clock()) < 1.0:
            extra = self.rng.randint(0, self.spread) if self.spread else 0
            raise Refusal(RefusalCode.TOO_MANY_NEW_TABLES, seconds=self.everyone.wait() + extra)

    def take(self, person: int) -> None:
        """Spend one of ``person``'s openings and one of the process's, or neither: refused with ``seconds`` to wait
        (``too_many_new_tables_yours`` when it is the person's own that is spent)."""
        now = self.clock()
        mine = self.people.get(person)
        if mine is None:
            mine = self.people[person] = Bucket(self.person_rate, self.person_burst, now)
            if len(self.people) > self._prune_at:
                self._prune(now)
        if mine.fill(now) < 1.0:
            raise Refusal(RefusalCode.TOO_MANY_NEW_TABLES_YOURS, seconds=mine.wait())
        self.check()
        mine.tokens -= 1.0
        self.everyone.tokens -= 1.0

    def _prune(self, now: float) -> None:
        self.people = {person: bucket for person, bucket in self.people.items() if bucket.fill(now) < bucket.burst}
        self._prune_at = max(KEPT_PEOPLE, 2 * len(self.people))
