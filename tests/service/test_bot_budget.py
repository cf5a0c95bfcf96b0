"""The whole bot's budget: taken from the database, and a conservative share of its own while the database is away."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.service.bot_budget import OVERALL, SharedBudget, budget_for
from engine.store.database import Store, database_url
from tests.clock import ManualClock


class Rows:
    """The budget's rows, answering as told: a wait, or an error while ``down``."""

    def __init__(self) -> None:
        self.down = False
        self.connected = True
        self.taken: list[tuple[str, float]] = []
        self.dropped = 0

    async def connect(self) -> None:
        if self.down:
            raise OSError("refused")
        self.connected = True

    async def takers(self) -> int:
        if self.down:
            raise OSError("refused")
        return 3

    async def forget_idle(self, seconds: float) -> None:
        if self.down:
            raise OSError("refused")

    async def take(self, key: str, interval: float) -> float:
        if self.down:
            raise OSError("refused")
        self.taken.append((key, interval))
        return 0.0

    def drop(self) -> None:
        self.dropped += 1

    async def close(self) -> None:
        self.connected = False


async def test_while_the_database_is_away_each_process_keeps_its_share_and_then_takes_from_the_budget_again() -> None:
    rows, clock = Rows(), ManualClock(100.0)
    budget = SharedBudget(rows, retry_after=1.0, clock=clock)  # type: ignore[arg-type]
    await budget.start()
    assert budget.processes == 3
    assert await budget.take(0.01) == 0.0 and rows.taken == [(OVERALL, 0.01)]

    rows.down = True
    waits = [await budget.take(0.01) for _ in range(4)]
    assert waits == pytest.approx([0.03, 0.06, 0.09, 0.12]), "a third of the budget: one call every 30 ms"
    assert await budget.take(1.1, "chat:7") == 0.0, "a chat's pace is kept by the limiter's own meanwhile"
    assert budget.fallbacks == 5 and rows.dropped == 1, "tried once, then not again for a second"

    rows.down = False
    clock.now += 1.0
    assert await budget.take(0.01) == 0.0 and rows.taken[-1] == (OVERALL, 0.01), "back on the shared budget"
    await budget.close()


async def test_a_single_process_database_has_no_shared_budget(tmp_path: Path) -> None:
    store = Store(database_url(None, tmp_path))
    assert budget_for(store) is None
