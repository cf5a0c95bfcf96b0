"""Nothing stuck: a final move is stored with the game's end, and AI seats and timers heal after faults."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from engine.core.rng import seed_hash
from engine.service.tables import TableService
from tests.clock import ManualClock
from tests.service.conftest import StoreFactory
from tests.service.helpers import ANN, BOB, CAT, human_move, play_out


def fail_next(rows: object, method: str, times: int) -> list[int]:
    """Make a repository's ``method`` raise a database error ``times`` times; returns the failure count seen."""
    real = getattr(rows, method)
    seen = [0]

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        if seen[0] < times:
            seen[0] += 1
            raise OperationalError("INSERT", {}, Exception("database is locked"))
        return await real(*args, **kwargs)

    setattr(rows, method, flaky)
    return seen


async def no_wait(_: float) -> None:
    await asyncio.sleep(0)


@pytest.fixture
async def quick(store_factory: StoreFactory) -> AsyncIterator[TableService]:
    """A service whose AI retries without real waiting and whose supervisor is driven by the test."""
    svc = TableService(await store_factory(), heal_every=None)
    svc.autoplay.sleep = no_wait
    await svc.start()
    yield svc
    await svc.close()


async def test_final_move_stores_the_finished_game_in_the_same_commit(
    store_factory: StoreFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = TableService(await store_factory(), heal_every=None)
    await service.start()
    info = await service.create_table("coins", ANN, "Ann", {"target_score": 1})
    await service.join(info.id, BOB, "Bob")
    await service.join(info.id, CAT, "Cat")
    await service.start_game(info.id, ANN)
    commits: list[int] = []
    real_append = service.store.tables.append

    async def watch(*args: Any, **kwargs: Any) -> None:
        await real_append(*args, **kwargs)
        commits.append(service.store.writer.commits)

    monkeypatch.setattr(service.store.tables, "append", watch)
    real_save = service.store.tables.save_table
    saves_after_end: list[str] = []

    async def watch_save(row: Any, **kwargs: Any) -> None:
        if row.status == "finished":
            saves_after_end.append(row.id)
        await real_save(row, **kwargs)

    monkeypatch.setattr(service.store.tables, "save_table", watch_save)
    await play_out(service, info.id)
    await service.close()
    assert saves_after_end == []  # the finished status rode along with the last move, not in a second write
    stored = await (await store_factory()).tables.load_table(info.id)
    assert stored is not None and stored.status == "finished" and stored.result is not None
    assert stored.result["winners"] and stored.deadline is None


async def test_revival_finishes_a_game_whose_log_is_already_over(store_factory: StoreFactory) -> None:
    service = TableService(await store_factory(), heal_every=None)
    await service.start()
    info = await service.create_table("coins", ANN, "Ann", {"target_score": 1})
    await service.join(info.id, BOB, "Bob")
    await service.join(info.id, CAT, "Cat")
    await service.start_game(info.id, ANN)
    await play_out(service, info.id)
    await service.close()
    # What a crash before this fix could leave: the whole log stored, the table still "playing".
    store = await store_factory()
    row = await store.tables.load_table(info.id)
    assert row is not None
    row.status, row.result = "playing", None
    await store.tables.save_table(row, with_seats=False)

    again = TableService(await store_factory(), heal_every=None)
    await again.start()
    fresh = await again.info(info.id)
    await again.close()
    assert fresh.status == "finished" and fresh.result is not None and fresh.result["winners"]
    assert fresh.seed is not None and seed_hash(fresh.seed) == fresh.seed_hash
    assert info.id not in [t.id for t in await again.tables_of(ANN)]


async def test_ai_keeps_playing_after_the_database_fails_for_a_while(quick: TableService) -> None:
    info = await quick.create_table("coins", ANN, "Ann", {"target_score": 1, "first_dealer": "seat:0"})
    failures = fail_next(quick.store.tables, "append", 3)  # Ann deals, so the AI on her left leads
    await quick.start_game(info.id, ANN)
    await quick.autoplay.idle()
    after = await quick.info(info.id)
    assert failures == [3] and quick.autoplay.retries == 3
    assert after.status == "playing" and after.to_act == (0,)  # both AI seats moved: it is Ann's turn again
    assert after.seq == len(await quick.store.tables.load_actions(info.id)) >= 2


async def test_supervisor_restarts_a_table_whose_ai_task_died(quick: TableService) -> None:
    gate = asyncio.Event()

    async def held(_: float) -> None:
        await gate.wait()

    info = await quick.create_table("coins", ANN, "Ann", {"target_score": 1, "first_dealer": "seat:2"})
    await quick.start_game(info.id, ANN)  # Ann sits left of the dealer: she leads, then the AI on her left plays
    quick.autoplay.sleep, quick.autoplay.delay = held, 1.0  # the next AI turn waits at the gate
    user, action, seq = await human_move(quick, info.id)
    await quick.act(info.id, user, action, seq)
    assert quick.autoplay.is_running(info.id)
    quick.autoplay.forget(info.id)  # the task dies as if an unexpected error had ended it
    await asyncio.sleep(0)
    assert not quick.autoplay.is_running(info.id) and quick.live(info.id) is not None
    assert await quick.heal() == 1
    gate.set()
    await quick.autoplay.idle()
    table = quick.live(info.id)
    assert table is not None and table.seq > seq + 1 and not table.automatic_to_act()
    assert await quick.heal() == 0  # nothing left to heal


async def test_expiry_is_retried_after_a_database_error(store_factory: StoreFactory) -> None:
    clock = ManualClock()
    service = TableService(await store_factory(), clock=clock, run_timers=False, heal_every=None)
    await service.start()
    try:
        info = await service.create_table("coins", ANN, "Ann", {"timer": "live"})
        await service.join(info.id, BOB, "Bob")
        await service.join(info.id, CAT, "Cat")
        await service.start_game(info.id, ANN)
        seat = (await service.info(info.id)).to_act[0]
        failures = fail_next(service.store.tables, "save_table", 1)
        clock.now += 61
        await service.tick_timers()
        assert failures == [1] and (await service.info(info.id)).seq == 0  # the expiry failed: nothing changed
        clock.now += 1  # the retry comes after a short back-off
        await service.tick_timers()
        await service.autoplay.idle()
        log = await service.store.tables.load_actions(info.id)
        assert [(a.seat, a.auto) for a in log] == [(seat, True)]
    finally:
        await service.close()


@pytest.mark.parametrize(("error", "level", "traceback"), [
    (OSError("connection refused"), "WARNING", False),  # the database away: said in a line, tried again next round
    (ValueError("a bug"), "ERROR", True),  # anything else is a fault, with its traceback
])
async def test_supervisor_round_that_cannot_reach_the_database_warns_without_a_traceback(
    store_factory: StoreFactory, caplog: pytest.LogCaptureFixture, error: Exception, level: str, traceback: bool
) -> None:
    service = TableService(await store_factory(), heal_every=None)

    async def failing(after: str = "", limit: int = 500) -> list[str]:
        raise error

    service.store.tables.ai_turn_tables = failing  # type: ignore[method-assign]
    caplog.set_level("WARNING", logger="engine")
    await service.start()
    await service.idle()  # the first round has run (and failed)
    await service.close()
    said = [r for r in caplog.records if "supervisor" in r.getMessage()]
    assert [r.levelname for r in said] == [level]
    assert (said[0].exc_info is not None) is traceback
