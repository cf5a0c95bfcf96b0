"""Passes asked for later: retries with a growing back-off, the grace after someone leaves, a plan's wake-up.

Each is named, and one per name is armed at a time. ``pending`` counts what a test waits
for (retries and graces); wake-ups, which may lie far ahead by the table's clock, are not.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

RETRY_FIRST, RETRY_MAX = 0.5, 60.0


class Later:
    """Named timers on the running loop, each calling ``then`` once."""

    def __init__(self) -> None:
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._wakes: dict[str, tuple[float, asyncio.TimerHandle]] = {}  # name -> (when, by its own clock)
        self._failures: dict[str, int] = {}

    @property
    def pending(self) -> bool:
        """Whether a retry or a grace is armed."""
        return bool(self._timers)

    def once(self, name: str, seconds: float, then: Callable[[], None], *, again: bool = False) -> None:
        """Call ``then`` in ``seconds`` (``again``: instead of the one armed under ``name``; else that one stands)."""
        if name in self._timers:
            if not again:
                return
            self._timers.pop(name).cancel()

        def fire() -> None:
            self._timers.pop(name, None)
            then()

        self._timers[name] = asyncio.get_running_loop().call_later(seconds, fire)

    def backoff(self, name: str, error: Exception) -> float:
        """Seconds to wait before trying ``name`` again after another failure."""
        failures = self._failures[name] = self._failures.get(name, 0) + 1
        delay = min(RETRY_MAX, RETRY_FIRST * 2.0 ** (failures - 1))
        log.info("%s: Telegram did not answer (%s); trying again in %.1f s", name, error, delay)
        return delay

    def succeeded(self, name: str) -> None:
        """``name`` went through: its next failure waits the shortest time again."""
        self._failures.pop(name, None)

    def wake(self, name: str, at: float | None, seconds: float, then: Callable[[], None]) -> None:
        """Call ``then`` in ``seconds``, for the moment ``at`` (None: never); one already armed for ``at`` stands."""
        armed = self._wakes.get(name)
        if armed is not None and armed[0] == at:
            return
        if armed is not None:
            armed[1].cancel()
            del self._wakes[name]
        if at is None:
            return

        def fire() -> None:
            self._wakes.pop(name, None)
            then()

        self._wakes[name] = (at, asyncio.get_running_loop().call_later(max(0.0, seconds), fire))

    def close(self) -> None:
        """Cancel everything armed."""
        for timer in [*self._timers.values(), *(handle for _, handle in self._wakes.values())]:
            timer.cancel()
        self._timers.clear()
        self._wakes.clear()
