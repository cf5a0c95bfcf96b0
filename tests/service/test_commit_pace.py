"""When many tables move, a commit on the loop waits a few milliseconds so that one sync carries several moves;
when few do, it waits for nothing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.config import Settings
from engine.service.tables import TableService
from engine.store.commit_pace import SHARED, SUGGESTED_DELAY, WINDOW, CommitPace
from engine.store.database import database_url
from tests.service.helpers import human_move, service_over, started_coins

START = 1_000.0  # the loop's clock at the first commit (any value: the pace only compares times)


def paced(tables: int, max_delay: float = SUGGESTED_DELAY, ended: float = START + WINDOW, moves: int = 1) -> CommitPace:
    """A pace that saw ``moves`` of each of ``tables`` tables committed, one at a time, over the whole window
    that ended at ``ended``."""
    pace = CommitPace(max_delay)
    pace.committed([], ended - WINDOW)
    for i in range(tables * moves):
        pace.committed([f"table{i % tables}"], ended - WINDOW + WINDOW * i / (tables * moves))
    return pace


def test_a_fresh_store_waits_for_nothing() -> None:
    assert CommitPace(SUGGESTED_DELAY).delay(START) == 0.0


def test_at_a_thousand_tables_pace_a_commit_waits_the_most_and_flat_out_far_less() -> None:
    assert paced(500).delay(START + WINDOW) == SUGGESTED_DELAY  # 2 more moves take 4 ms at 500 a second
    assert paced(5_000).delay(START + WINDOW) == pytest.approx(SHARED / 5_000)  # 0.4 ms gathers as many


def test_moves_slower_than_one_per_delay_are_committed_at_once() -> None:
    assert paced(200).delay(START + WINDOW) == 0.0  # 0.8 moves expected in 4 ms: a wait would only add latency
    assert paced(500, max_delay=0).delay(START + WINDOW) == 0.0  # waiting turned off


def test_one_table_moving_flat_out_never_waits() -> None:
    """Its next move waits for this one's answer: no move of another table would share the commit."""
    assert paced(1, moves=2_000).delay(START + WINDOW) == 0.0
    assert paced(100, moves=20).delay(START + WINDOW) == 0.0  # 2,000 moves a second, but of only 100 tables


def test_the_pace_is_forgotten_after_a_whole_window_without_a_commit() -> None:
    pace = paced(500)
    assert pace.delay(START + 1.9 * WINDOW) == SUGGESTED_DELAY
    assert pace.delay(START + 2.1 * WINDOW) == 0.0  # the window that just ended held no commit


@given(tables=st.integers(0, 3_000), later=st.floats(0, 10), max_delay=st.floats(0, 0.05))
def test_a_wait_is_never_longer_than_the_most_allowed(tables: int, later: float, max_delay: float) -> None:
    delay = paced(tables, max_delay).delay(START + WINDOW + later)
    assert 0.0 <= delay <= max_delay
    assert delay == 0.0 or tables / WINDOW * max_delay >= 1  # it waits only when another table's move is expected


@pytest.fixture
async def sqlite_service(settings: Settings) -> AsyncIterator[TableService]:
    async with service_over(database_url(None, settings.data_dir)) as service:
        yield service


async def test_when_moves_come_fast_the_next_move_rides_in_the_waiting_commit(sqlite_service: TableService) -> None:
    service = sqlite_service
    first, second = await started_coins(service), await started_coins(service)
    moves = [await human_move(service, first), await human_move(service, second)]
    # 4 tables moved in the window that just ended: a commit waits up to half a second, for 2 more moves
    service.store.writer.pace = paced(4, max_delay=0.5, ended=asyncio.get_running_loop().time())
    before = service.store.writer.commits
    user, action, seq = moves[0]
    moving = asyncio.create_task(service.act(first, user, action, seq))
    await asyncio.sleep(0.05)
    assert not moving.done()  # its commit waits for company
    user, action, seq = moves[1]
    await service.act(second, user, action, seq)
    await moving
    assert service.store.writer.commits - before == 1  # one commit, one sync, for both moves
    for table_id, (_, _, seq) in zip((first, second), moves, strict=True):
        assert (await service.info(table_id)).seq == seq + 1


async def test_a_lone_move_at_a_slow_pace_is_committed_at_once(sqlite_service: TableService) -> None:
    service = sqlite_service
    table_id = await started_coins(service)
    service.store.writer.pace = CommitPace(max_delay=0.5)  # it could wait half a second, but no other move is coming
    user, action, seq = await human_move(service, table_id)
    before = service.store.writer.commits
    await asyncio.wait_for(service.act(table_id, user, action, seq), timeout=0.4)
    assert service.store.writer.commits - before == 1


def test_the_most_a_commit_waits_is_read_in_milliseconds_from_the_environment() -> None:
    assert Settings.from_env({}).commit_delay == 0.0  # no move waits unless the operator asks
    assert Settings.from_env({"COMMIT_DELAY_MS": "2.5"}).commit_delay == pytest.approx(0.0025)
    assert Settings.from_env({"COMMIT_DELAY_MS": "0"}).commit_delay == 0.0  # never wait
