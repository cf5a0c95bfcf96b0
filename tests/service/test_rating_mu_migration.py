"""Revision 0016: results kept mu - 3 sigma before and after each game, from which mu cannot be told; the upgrade
empties them and a rebuild fills them with mu again, so no old figure reads on the new scale as a wrong number."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from engine.service import ratings
from engine.store.database import database_url
from tests.postgres import fresh_database
from tests.service.conftest import BACKENDS
from tests.service.helpers import ANN, BOB, service_over
from tests.service.test_migrations import OLD_GAMES, _fill_old


@pytest.mark.parametrize("backend", BACKENDS)
async def test_an_upgrade_empties_the_old_conservative_changes_and_a_rebuild_keeps_mu(
    backend: str, tmp_path: Path
) -> None:
    async def check(url: str) -> None:
        await _fill_old(url, "0015", results=True)  # the revision before
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:  # as the old code kept them: mu - 3 sigma, 0 before a first game
                await conn.execute(sa.text("UPDATE results SET rating_before = 0.0, rating_after = -3.9"
                                           " WHERE user_id IS NOT NULL"))
        finally:
            await engine.dispose()
        finished = OLD_GAMES[0]
        assert finished.result is not None
        async with service_over(url) as service:
            assert await service.record.rating_changes(finished.table_id) == []  # no -3.9 read as mu
            await service.record.rebuild()
            kept = await service.store.records.rating_changes(finished.table_id)
        after = ratings.rate([(ANN, "easy"), (BOB, "easy"), (None, "strong")], finished.result["placements"], {})
        assert [(seat, before) for seat, before, _, _ in kept] == [(0, 25.0), (1, 25.0)]  # newcomers' mu
        assert [mu for _, _, mu, _ in kept] == pytest.approx([after[ANN][0], after[BOB][0]])

    if backend == "sqlite":
        await check(database_url(None, tmp_path))
        return
    async with fresh_database("cardroom_rating_mu") as server_url:
        await check(database_url(server_url, tmp_path))
