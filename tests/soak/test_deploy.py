"""A deploy drops nobody: SIGTERM while 50 tables play, on three processes over PostgreSQL (each stopped in turn and
started again while its people go on at the others, as behind a load balancer) and on one process over SQLite
(stopped and started again, its people waiting for it): every acknowledged move is stored, every socket has each
stored move within 5 s unless it closed first, and each process exits within its bound (``-m soak``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.postgres import SHARED, fresh_database
from tests.soak.cluster import STOP_BOUND, run_cluster
from tests.soak.harness import tracebacks
from tests.soak.kills import run_kills

pytestmark = pytest.mark.soak
TABLES = 50
CATCH_UP = 5.0  # seconds a socket may be without a move stored meanwhile, through a deploy


@pytest.fixture(params=SHARED)
async def shared_database() -> AsyncIterator[str]:
    """A fresh PostgreSQL database for several processes (no test without a PostgreSQL server)."""
    async with fresh_database("cardroom_deploy") as url:
        yield url


async def test_deploying_three_processes_in_turn_while_fifty_tables_play_loses_nothing_and_strands_nobody(
    tmp_path: Path, shared_database: str
) -> None:
    figures, servers = await run_cluster(tmp_path, shared_database, seconds=60, untimed=TABLES, timed=0, every=12.0,
                                         down=1.0, catch_up=CATCH_UP, graceful=True)
    assert figures.problems == [], "\n".join(figures.problems[:20])
    assert len(figures.stops) >= 3 and max(figures.stops) <= STOP_BOUND, figures.stops
    assert figures.lost == figures.twice == 0 and figures.moves_acked > 100, figures
    assert figures.tables >= TABLES and figures.catch_up, figures
    assert [line for server in servers for line in tracebacks(server.log())] == []


async def test_deploying_the_one_sqlite_process_while_fifty_tables_play_loses_no_acknowledged_move(
    tmp_path: Path
) -> None:
    figures, server = await run_kills(tmp_path, kills=3, players=TABLES, max_pause=1.0, graceful=True)
    assert figures.problems == [], "\n".join(figures.problems[:20])
    assert len(figures.stop_seconds) == 3 and max(figures.stop_seconds) <= STOP_BOUND, figures.stop_seconds
    assert figures.moves_acked > 0 and figures.ai_tables_checked > 0, figures
    assert tracebacks(server.log()) == []
