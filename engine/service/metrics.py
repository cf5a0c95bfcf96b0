"""Plain counts of what the process did, kept by the service and read by whoever exposes them (``webapp.metrics``).

Nothing here knows a metrics library: the service and the bot's budget add to plain
counters and histograms as things happen (a dictionary increment and a bisect, no lock, no
I/O), and the web process turns them into Prometheus text when it is scraped. Figures that
are a state rather than a count (tables in memory, calls waiting in the budget) are not
kept here; they are read at scrape time from their owners. Every process keeps its own.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

# seconds: a move's commit (SQLite's group commit waits up to COMMIT_DELAY_MS; PostgreSQL a round trip or two)
COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# seconds a Bot API call waited for its turn in the budget (a chat's pace is a second, a group's minute is 60)
WAIT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)


@dataclass(slots=True)
class Histogram:
    """Observations counted into buckets by upper bound (inclusive, as Prometheus reads ``le``), with their sum."""

    bounds: tuple[float, ...]
    counts: list[int] = field(default_factory=list)  # per bound, then one more for the values above them all
    total: float = 0.0

    def __post_init__(self) -> None:
        if not self.counts:
            self.counts = [0] * (len(self.bounds) + 1)

    def observe(self, value: float) -> None:
        """Count one observation."""
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value

    @property
    def count(self) -> int:
        """How many observations there were."""
        return sum(self.counts)

    def cumulative(self) -> list[tuple[float, int]]:
        """(upper bound, observations at or below it) per bound, the last bound infinite: Prometheus' buckets."""
        out, running = [], 0
        for bound, counted in zip((*self.bounds, float("inf")), self.counts, strict=True):
            running += counted
            out.append((bound, running))
        return out


@dataclass(slots=True)
class ServiceMetrics:
    """The process's counts: moves and their commits, refusals, redirects, Bot API calls and their waits."""

    moves: Counter[str] = field(default_factory=Counter)  # by mover: "person" or "auto" (AI, stand-ins, autopilot)
    commit: Histogram = field(default_factory=lambda: Histogram(COMMIT_BUCKETS))
    refusals: Counter[str] = field(default_factory=Counter)  # by refusal code
    redirects: int = 0  # sockets sent to the process that owns their table
    bot_calls: Counter[tuple[str, str]] = field(default_factory=Counter)  # by (method, result)
    budget_wait: dict[str, Histogram] = field(default_factory=dict)  # by lane
    # the bot's calls waiting in its budget now, by lane (set by the bot when it runs in this process)
    bot_waiting: Callable[[], Mapping[str, int]] | None = None

    def moved(self, auto: bool, seconds: float) -> None:
        """A move was stored; its commit took ``seconds``."""
        self.moves["auto" if auto else "person"] += 1
        self.commit.observe(seconds)

    def refused(self, code: str) -> None:
        """An intent or a connection was refused with ``code``."""
        self.refusals[code] += 1

    def redirected(self) -> None:
        """A socket was sent to its table's owner."""
        self.redirects += 1

    def bot_called(self, method: str, result: str) -> None:
        """A Bot API call was answered: ``result`` is "ok", "429" or "error"."""
        self.bot_calls[method, result] += 1

    def waited(self, lane: str, seconds: float) -> None:
        """A Bot API call of ``lane`` waited ``seconds`` for its turn in the budget."""
        found = self.budget_wait.get(lane)
        if found is None:
            found = self.budget_wait[lane] = Histogram(WAIT_BUCKETS)
        found.observe(seconds)
