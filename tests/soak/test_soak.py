"""The soak in its bounded form: the real process killed at random moments, then hostile clients; and three
processes on PostgreSQL killed and cut off from the database in turn while people on every process play, some
at tables with a live turn timer (``tests.soak.cluster``) (``-m soak``).

``bench/soak.py`` runs the long form and prints the figures.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.postgres import SHARED, fresh_database
from tests.soak.cluster import run_cluster
from tests.soak.harness import Server, tracebacks
from tests.soak.hostile import run_fuzz
from tests.soak.kills import run_kills

POSTGRES = os.environ.get("CARDROOM_TEST_POSTGRES", "")
BACKENDS = ["sqlite", "postgres"] if POSTGRES else ["sqlite"]
pytestmark = pytest.mark.soak
LATE = 10.0  # seconds after its deadline a timed turn may be taken: a process killed then is back in about two
TIMED = 4  # tables with a live timer (a minute a turn), one person at each never moving
# seconds a socket may take to reach a move stored while it was open: a cut of its process's database connections
# lasts up to 2 s, and a connection tried as the database comes back may take its 5 s timeout before the next
CATCH_UP = 10.0


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest) -> AsyncIterator[str | None]:
    """None for SQLite in the data dir, or the URL of a fresh PostgreSQL database dropped afterwards."""
    if request.param == "sqlite":
        yield None
        return
    async with fresh_database("cardroom_soak") as url:
        yield url


@pytest.fixture(params=SHARED)
async def shared_database() -> AsyncIterator[str]:
    """A fresh PostgreSQL database for several processes (no test without a PostgreSQL server)."""
    async with fresh_database("cardroom_cluster") as url:
        yield url


async def test_soak_kills_lose_no_acknowledged_move_and_every_table_moves_on(
    tmp_path: Path, database: str | None
) -> None:
    figures, server = await run_kills(tmp_path, kills=4, players=4, database=database, max_pause=0.8)
    assert figures.problems == []
    assert figures.kills == 4 and figures.moves_acked > 0 and figures.ai_tables_checked > 0
    assert tracebacks(server.log()) == []


async def test_soak_hostile_clients_get_errors_never_500s_while_a_healthy_client_stays_fast(
    tmp_path: Path, database: str | None
) -> None:
    server = Server(tmp_path, database, BODY_TIMEOUT="1")
    await server.start()
    try:
        figures = await run_fuzz(server, frames=600)
    finally:
        server.stop()
    assert figures.problems == []
    assert figures.answered == figures.frames and not any(status >= 500 for status in figures.statuses)
    assert figures.loaded_p99_ms <= 10 * figures.quiet_p99_ms, figures


async def test_soak_on_three_processes_loses_nothing_misses_no_deadline_and_leaves_no_socket_behind(
    tmp_path: Path, shared_database: str
) -> None:
    figures, _servers = await run_cluster(tmp_path, shared_database, seconds=105, timed=TIMED, late=LATE,
                                          catch_up=CATCH_UP)
    assert figures.problems == [], "\n".join(figures.problems[:20])
    assert figures.kills >= 3 and figures.cuts >= 1 and figures.moves_acked > 100, figures
    assert figures.timed_turns >= TIMED and figures.catch_up, figures  # every timed table's first deadline
