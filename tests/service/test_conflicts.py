"""Work after another process wrote the table: expiries, reminders, AI turns and finishing a game found over on
load decide again on the stored row.

The other process here writes without telling (its notice is lost, or never sent, as a
plain store of SQLite's or a process whose change notice went missing), so this
process's copy of the table is stale when its own write comes due.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from engine.service.bus import Subscription, Update
from engine.service.tables import TableService
from engine.store.database import Store
from engine.store.rows import LoggedAction
from tests.clock import ManualClock
from tests.service.conftest import StoreFactory
from tests.service.helpers import ANN, BOB, CAT, human_move, play_out


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def timed(store_factory: StoreFactory, clock: ManualClock) -> AsyncIterator[TableService]:
    svc = TableService(await store_factory(), clock=clock, run_timers=False, heal_every=None)
    await svc.start()
    yield svc
    await svc.close()


async def live_table(service: TableService) -> str:
    info = await service.create_table("coins", ANN, "Ann", {"timer": "live"})
    await service.join(info.id, BOB, "Bob")
    await service.join(info.id, CAT, "Cat")
    await service.start_game(info.id, ANN)
    return info.id


async def write_meta_elsewhere(other: Store, table_id: str) -> None:
    """Another process changes the table's row (a new version) and this process is not told."""
    row = await other.tables.load_table(table_id)
    assert row is not None
    row.meta = {**row.meta, "seen": 1}
    await other.tables.save_table(row, with_seats=False)


def timer_failures(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_an_expiry_after_another_process_wrote_the_row_stands_in_once_at_the_deadline(
    timed: TableService, store_factory: StoreFactory, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    table_id = await live_table(timed)
    info = await timed.info(table_id)
    seat, deadline = info.to_act[0], info.deadline
    assert deadline is not None
    other = await store_factory()
    await write_meta_elsewhere(other, table_id)
    clock.now = deadline + 1
    await timed.tick_timers()  # the reminder and the expiry both meet the other write: each reloads and decides
    await timed.autoplay.idle()
    log = await other.tables.load_actions(table_id)
    assert [(a.seat, a.auto) for a in log] == [(seat, True)]  # the stand-in moved a second after the deadline
    stored = await other.tables.load_table(table_id)
    assert stored is not None and stored.meta.get("seen") == 1  # the other process's write stands
    for _ in range(5):  # nothing is left to retry: no second stand-in, no failure coming back
        clock.now += 10
        await timed.tick_timers()
        await timed.autoplay.idle()
    assert len(await other.tables.load_actions(table_id)) == 1
    assert timer_failures(caplog) == []


async def test_an_expiry_whose_turn_another_process_took_stands_in_for_nobody_and_arms_the_new_deadline(
    timed: TableService, store_factory: StoreFactory, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    table_id = await live_table(timed)
    deadline = (await timed.info(table_id)).deadline
    assert deadline is not None
    other = TableService(await store_factory(), clock=clock, run_timers=False, heal_every=None)
    await other.start()
    try:
        other.store.origin = ""  # its change notices are lost on the way
        heard = timed.subscribe(table_id)
        clock.now += 30
        user, action, seq = await human_move(other, table_id)
        await other.act(table_id, user, action, seq)  # the person moved on the other process: a new deadline
        moved_deadline = clock.now + 60
        clock.now = deadline + 1
        await timed.tick_timers()  # the reminder meets the move's write: the table catches up, nobody stands in
        await timed.autoplay.idle()
        log = await other.store.tables.load_actions(table_id)
        assert [(a.seq, a.auto) for a in log] == [(1, False)]
        info = await timed.info(table_id)
        assert info.seq == 1 and info.deadline == moved_deadline
        assert [u.seq for u in drain(heard) if u.kind == "moved"] == [1]  # this process's sockets saw the move
        nxt = info.to_act[0]
        clock.now = moved_deadline + 1
        await timed.tick_timers()
        await timed.autoplay.idle()
        log = await other.store.tables.load_actions(table_id)
        assert [(a.seat, a.auto) for a in log[1:]] == [(nxt, True)]  # the moved deadline's stand-in, once
        assert timer_failures(caplog) == []
    finally:
        await other.close()


async def test_an_ai_turn_after_another_process_wrote_the_row_is_played_from_the_stored_row(
    store_factory: StoreFactory, caplog: pytest.LogCaptureFixture
) -> None:
    service = TableService(await store_factory(), heal_every=None)
    await service.start()
    gate = asyncio.Event()

    async def held(_: float) -> None:
        await gate.wait()

    try:
        info = await service.create_table("coins", ANN, "Ann", {"first_dealer": "seat:2"})
        await service.start_game(info.id, ANN)  # Ann leads; the two AI seats follow, the second hands back to Ann
        service.autoplay.sleep, service.autoplay.delay = held, 1.0
        user, action, seq = await human_move(service, info.id)
        await service.act(info.id, user, action, seq)
        other = await store_factory()
        await write_meta_elsewhere(other, info.id)
        gate.set()
        await service.autoplay.idle()
        log = await other.tables.load_actions(info.id)
        # the AI played on until Ann's turn: the move that handed back to her met the other write and was decided again
        assert [a.auto for a in log[:3]] == [False, True, True] and all(a.auto for a in log[1:])
        assert (await service.info(info.id)).to_act == (0,) and not service.autoplay.is_running(info.id)
        assert timer_failures(caplog) == []
    finally:
        await service.close()


def drain(sub: Subscription) -> list[Update]:
    return [sub.queue.get_nowait() for _ in range(sub.queue.qsize())]


async def test_a_game_found_over_on_load_is_finished_on_the_stored_row_after_another_process_wrote_it(
    store_factory: StoreFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = TableService(await store_factory(), heal_every=None)
    await first.start()
    info = await first.create_table("coins", ANN, "Ann", {"target_score": 1})
    await first.join(info.id, BOB, "Bob")
    await first.join(info.id, CAT, "Cat")
    await first.start_game(info.id, ANN)
    await play_out(first, info.id)
    await first.close()
    other = await store_factory()
    row = await other.tables.load_table(info.id)
    assert row is not None
    row.status, row.result = "playing", None  # what an older crash could leave: the whole log, the table playing
    await other.tables.save_table(row, with_seats=False)
    again = TableService(await store_factory(), heal_every=None)
    await again.start()
    read_log = again.store.tables.load_actions

    async def written_meanwhile(table_id: str, after: int = 0) -> list[LoggedAction]:
        found = await read_log(table_id, after)
        await write_meta_elsewhere(other, table_id)  # another process writes the row while this one replays
        return found

    monkeypatch.setattr(again.store.tables, "load_actions", written_meanwhile)
    try:
        fresh = await again.info(info.id)
    finally:
        await again.close()
    assert fresh.status == "finished" and fresh.result is not None and fresh.result["winners"]
    stored = await other.tables.load_table(info.id)
    assert stored is not None and stored.status == "finished" and stored.meta.get("seen") == 1
