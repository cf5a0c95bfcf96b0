"""How long a move waits for others to share its commit: a few milliseconds when moves come fast, else none.

Each commit syncs the log to disk, and a sync costs about the same CPU however many moves it
carries (here 100–200 µs, as much as sending the move to its three seats). When other tables'
moves come faster than one per ``max_delay``, the first move of a commit waits until about
``SHARED`` more are expected (at most ``max_delay``), so one sync carries them all. When they
come slower, a wait would only add latency and save nothing: the move is committed at once.

Only another table's move can share the wait: a table's next move waits for this one's
answer. So the pace counts tables, not moves: the tables that had a move committed in the
last whole window of ``WINDOW`` seconds. One table of AI players moving flat out is a pace of
one, and its moves never wait. Nothing here reads a clock: the caller passes the loop's time,
so the rule is tested exactly.

Off by default (``COMMIT_DELAY_MS``, 0): at 1000 tables here, a wait of at most 4 ms saved
about 45 µs of CPU a move (commits of 3.3 moves, not 1.3), but it costs the players more than
it saves: with it the median move took 7.7–7.8 ms to reach all three seats, against 2.6–3.9 ms
without, and p99 was 24–29 ms, over the 20 ms aimed at. Runs with it also had more commits that
took hundreds of milliseconds (such commits were seen without it too, but less often). A wait of
at most 2 ms, in runs alternating with none: commits of 1.5-1.6 moves (against 1.3), 164-167 µs of
commit CPU a move (against 190-206), p50 2.9-3.2 ms (against 2.5-2.6), p99 10-16 ms (against
16.5-16.8), and CPU a move 2.53/2.62 times bare aiohttp's (against 2.60/2.48): a saving the
machine's drift hides. So no move waits unless the operator asks for it.
"""

from __future__ import annotations

from collections.abc import Iterable

SUGGESTED_DELAY = 0.004  # s: a person never feels it; a card already takes 50–200 ms to reach Telegram's app
SHARED = 2.0  # moves a waiting commit expects to gather besides its first
WINDOW = 1.0  # s: the pace is counted over whole windows this long


class CommitPace:
    """Counts the tables whose moves are committed and says how long the next commit should wait for more."""

    def __init__(self, max_delay: float) -> None:
        self.max_delay = max_delay
        self._start = float("-inf")  # when the current window began
        self._current: set[str] = set()  # the tables with a move committed in the current window
        self._last = 0  # how many tables had a move committed in the last whole window

    @property
    def waits(self) -> bool:
        """Whether a commit may wait at all (when not, nothing need be counted)."""
        return self.max_delay > 0

    def committed(self, table_ids: Iterable[str], now: float) -> None:
        """Moves of ``table_ids`` were committed at ``now``."""
        self._roll(now)
        self._current.update(table_ids)

    def rate(self, now: float) -> float:
        """Tables moving a second, over the last whole window (0 when that window is long gone)."""
        self._roll(now)
        return self._last / WINDOW

    def delay(self, now: float) -> float:
        """Seconds the commit of a move that arrives at ``now`` should wait for others: 0 when none are expected."""
        rate = self.rate(now)
        if not self.waits or rate * self.max_delay < 1:  # not one other table's move is expected in time
            return 0.0
        return min(self.max_delay, SHARED / rate)

    def _roll(self, now: float) -> None:
        elapsed = now - self._start
        if elapsed < WINDOW:
            return
        self._last = len(self._current) if elapsed < 2 * WINDOW else 0  # a window with no commit counts none
        self._current = set()
        self._start = now - elapsed % WINDOW if elapsed < 2 * WINDOW else now
