"""Turn timers with an injected clock: reminder, expiry, autopilot, return, re-arming after a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine.service.tables import TableService
from engine.service.timers import AUTOPILOT_AFTER
from tests.clock import ManualClock
from tests.service.conftest import StoreFactory
from tests.service.helpers import ANN, BOB, CAT, human_move


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def timed(store_factory: StoreFactory, clock: ManualClock) -> AsyncIterator[TableService]:
    svc = TableService(await store_factory(), clock=clock, run_timers=False)
    await svc.start()
    yield svc
    await svc.close()


async def live_table(service: TableService) -> str:
    info = await service.create_table("coins", ANN, "Ann", {"timer": "live"})
    await service.join(info.id, BOB, "Bob")
    await service.join(info.id, CAT, "Cat")
    await service.start_game(info.id, ANN)
    return info.id


async def test_deadline_is_armed_when_a_person_is_to_act(timed: TableService, clock: ManualClock) -> None:
    table_id = await live_table(timed)
    info = await timed.info(table_id)
    assert info.timer == "live" and info.deadline == clock.now + 60
    user, action, seq = await human_move(timed, table_id)
    clock.now += 10
    await timed.act(table_id, user, action, seq)
    assert (await timed.info(table_id)).deadline == clock.now + 60


async def test_reminder_comes_once_before_expiry(timed: TableService, clock: ManualClock) -> None:
    table_id = await live_table(timed)
    sub = timed.subscribe(table_id)
    clock.now += 47
    await timed.tick_timers()
    assert sub.queue.empty()
    clock.now += 2  # 11 s left: within the last fifth
    await timed.tick_timers()
    await timed.tick_timers()
    updates = [sub.queue.get_nowait() for _ in range(sub.queue.qsize())]
    assert [u.kind for u in updates] == ["reminder"]
    seat = (await timed.info(table_id)).to_act[0]
    assert updates[0].events[0].data == {"type": "reminder", "seat": seat, "deadline": clock.now + 11}


async def test_expiry_lets_an_ai_move_and_says_so(timed: TableService, clock: ManualClock) -> None:
    table_id = await live_table(timed)
    seat = (await timed.info(table_id)).to_act[0]
    sub = timed.subscribe(table_id)
    clock.now += 61
    await timed.tick_timers()
    await timed.autoplay.idle()
    info = await timed.info(table_id)
    assert info.seq == 1 and info.to_act == ((seat + 1) % 3,)
    assert info.deadline == clock.now + 60  # the next person's clock starts
    log = await timed.store.tables.load_actions(table_id)
    assert log[0].seat == seat and log[0].auto
    kinds = [sub.queue.get_nowait() for _ in range(sub.queue.qsize())]
    timed_out = next(u for u in kinds if u.kind == "timed_out")
    assert timed_out.events[0].data["type"] == "timed_out" and timed_out.events[0].data["seat"] == seat
    assert not info.seats[seat].autopilot


async def test_repeated_expiry_puts_the_seat_on_autopilot_until_its_owner_returns(
    timed: TableService, clock: ManualClock
) -> None:
    table_id = await live_table(timed)
    absent = (await timed.info(table_id)).to_act[0]
    absent_user = (await timed.info(table_id)).seats[absent].user_id
    assert absent_user is not None
    for _ in range(AUTOPILOT_AFTER):
        while (await timed.info(table_id)).to_act[0] != absent:
            user, action, seq = await human_move(timed, table_id)
            await timed.act(table_id, user, action, seq)
        clock.now += 61
        await timed.tick_timers()
        await timed.autoplay.idle()
    info = await timed.info(table_id)
    assert info.seats[absent].autopilot
    # on autopilot the seat no longer waits: when its turn comes the AI plays at once
    while (await timed.info(table_id)).to_act[0] != absent:
        user, action, seq = await human_move(timed, table_id)
        await timed.act(table_id, user, action, seq)
    await timed.autoplay.idle()
    assert (await timed.info(table_id)).to_act[0] != absent
    info = await timed.back(table_id, absent_user)
    assert not info.seats[absent].autopilot
    while (await timed.info(table_id)).to_act[0] != absent:
        user, action, seq = await human_move(timed, table_id)
        await timed.act(table_id, user, action, seq)
    info = await timed.info(table_id)
    assert info.to_act == (absent,) and info.deadline == clock.now + 60


async def test_deadlines_survive_a_restart(store_factory: StoreFactory, clock: ManualClock) -> None:
    first = TableService(await store_factory(), clock=clock, run_timers=False)
    await first.start()
    table_id = await live_table(first)
    deadline = (await first.info(table_id)).deadline
    await first.close()
    clock.now += 30
    second = TableService(await store_factory(), clock=clock, run_timers=False)
    await second.start()
    assert (await second.info(table_id)).deadline == deadline  # not extended by the restart
    clock.now += 31
    await second.tick_timers()
    await second.autoplay.idle()
    assert (await second.info(table_id)).seq == 1
    await second.close()


async def test_tables_without_a_timer_have_no_deadline(timed: TableService) -> None:
    info = await timed.create_table("coins", ANN, "Ann")
    info = await timed.start_game(info.id, ANN)
    assert info.timer == "none" and info.deadline is None


async def test_a_stand_in_plays_only_the_turn_that_timed_out_even_when_the_seat_leads_again(
    timed: TableService, clock: ManualClock
) -> None:
    # Let the last player of a trick time out, again and again, until the stand-in's card wins the trick:
    # the seat then leads the next trick, which is a new turn the person gets to play.
    table_id = await live_table(timed)
    table = timed.live(table_id)
    assert table is not None
    seen_lead_again = False
    for _ in range(60):
        while len(table.state.trick) != 2:
            user, action, seq = await human_move(timed, table_id)
            await timed.act(table_id, user, action, seq)
        seat, before = table.state.turn, table.seq
        table.seat_row(seat).missed = 0  # keep the seat off autopilot: this test is about single turns
        clock.now += 61
        await timed.tick_timers()
        await timed.autoplay.idle()
        assert table.seq == before + 1, "exactly one move is played for the absent player"
        assert table.standins == set()
        if table.row.status != "playing":
            break
        if table.state.turn == seat:
            seen_lead_again = True
            assert table.row.deadline == clock.now + 60  # they won the trick and are waited for to lead
            break
    assert seen_lead_again
