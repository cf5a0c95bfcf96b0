"""Two processes finishing games of the same person at the same moment both count: neither rating update is lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine.service import ratings
from engine.store.database import Store, database_url
from engine.store.finish_rows import write_finish
from engine.store.rows import Finish, SeatResult, TableRow
from tests.postgres import database as database
from tests.service.helpers import ANN, BOB, CAT

pytestmark = pytest.mark.postgres


def finish(table_id: str, placements: tuple[int, int, int], at: float) -> Finish:
    """Ann, Bob and Cat's game, finished in these places."""
    people = ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat"))
    seats = tuple(SeatResult(seat, user, name, placements[seat], 0) for seat, (user, name) in enumerate(people))
    return Finish(table_id, "coins", -1, at, seats, lambda current: ratings.rate(
        [(user, "") for user, _ in people], placements, current))


async def test_two_processes_finishing_one_persons_games_at_once_both_count(database: str, tmp_path: Path) -> None:
    url = database_url(database, tmp_path)
    first, second = Store(url), Store(url)  # two processes' connections to one database
    await first.open()
    await second.open()
    try:
        for table_id in ("t1", "t2", "t3"):
            await first.tables.create_table(TableRow(table_id, "coins", {}, 3, "playing", ANN, -1, table_id, "0" * 64))
        await first.writer.write(lambda conn: write_finish(conn, finish("t1", (1, 2, 3), 1.0)))
        rated = await first.records.ratings_of("coins")

        async with first.writer.engine.begin() as conn:  # one process is finishing t2 and has not committed yet ...
            await write_finish(conn, finish("t2", (2, 1, 3), 2.0))

            async def other() -> None:
                async with second.writer.engine.begin() as other_conn:
                    await write_finish(other_conn, finish("t3", (3, 2, 1), 3.0))

            racing = asyncio.create_task(other())  # ... when the other finishes t3, with the same people
            await asyncio.sleep(0.3)
            assert not racing.done()  # it waits for the first commit rather than read the ratings it replaces
        await asyncio.wait_for(racing, 10)

        stored = await first.records.ratings_of("coins")
        assert {user: stored[user][2] for user in (ANN, BOB, CAT)} == {ANN: 3, BOB: 3, CAT: 3}
        assert (stored[ANN][3], stored[BOB][3], stored[CAT][3]) == (1, 1, 1)
        # the same as one game after the other
        expected = {user: rated[user][:2] for user in rated}
        for placements in ((2, 1, 3), (3, 2, 1)):
            fresh = ratings.rate([(ANN, ""), (BOB, ""), (CAT, "")], placements, expected)
            expected = dict(fresh)
        for user in (ANN, BOB, CAT):
            assert stored[user][:2] == pytest.approx(expected[user])
    finally:
        await first.close()
        await second.close()
