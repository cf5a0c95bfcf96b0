"""The soak in its bounded form: the real process killed at random moments, then hostile clients (``-m soak``).

``bench/soak.py`` runs the long form and prints the figures.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.postgres import fresh_database
from tests.soak.harness import Server, run_fuzz, run_kills, tracebacks

POSTGRES = os.environ.get("CARDROOM_TEST_POSTGRES", "")
BACKENDS = ["sqlite", "postgres"] if POSTGRES else ["sqlite"]
pytestmark = pytest.mark.soak


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest) -> AsyncIterator[str | None]:
    """None for SQLite in the data dir, or the URL of a fresh PostgreSQL database dropped afterwards."""
    if request.param == "sqlite":
        yield None
        return
    async with fresh_database("cardroom_soak") as url:
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
