"""A clock a test moves by hand, for everything that takes one (timers, flood budgets, the fake Bot API)."""

from __future__ import annotations


class ManualClock:
    """Returns ``now``, which only the test moves."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
