"""Tables load when used: a restart serves at once, resumes AI turns and deadlines, and memory stays bounded."""

from __future__ import annotations

import asyncio

import pytest

from engine.games.sergeant_major import GAME as SERGEANT_MAJOR
from engine.service.tables import TableService
from engine.store.rows import LoggedAction
from tests.clock import ManualClock
from tests.service.conftest import StoreFactory
from tests.service.helpers import ANN, BOB, CAT, play_out, started_coins


async def test_a_restart_loads_nothing_until_a_table_is_used_and_then_the_exact_state(
    store_factory: StoreFactory,
) -> None:
    first = TableService(await store_factory(), heal_every=None)
    await first.start()
    table_id = await started_coins(first)
    await play_out(first, table_id, moves=7)
    before = {user: await first.view(table_id, user) for user in (ANN, BOB, CAT, None)}
    await first.close()

    second = TableService(await store_factory(), heal_every=None)
    await second.start()
    await second.idle()
    assert second.tables() == []  # three people are to act, nothing is due: nothing was loaded
    after = {user: await second.view(table_id, user) for user in (ANN, BOB, CAT, None)}
    assert after == before and [t.id for t in second.tables()] == [table_id]
    await second.close()


async def test_an_ai_turn_left_by_a_restart_is_resumed_without_anyone_opening_the_table(
    store_factory: StoreFactory,
) -> None:
    first = TableService(await store_factory(), heal_every=None)
    await first.start()
    info = await first.create_table("coins", ANN, "Ann", {"first_dealer": "seat:2"})
    gate = asyncio.Event()

    async def held(_: float) -> None:
        await gate.wait()

    first.autoplay.sleep, first.autoplay.delay = held, 1.0  # the AI never gets to move before the restart
    await first.start_game(info.id, ANN)
    view = await first.view(info.id, ANN)
    await first.act(info.id, ANN, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
    stored = await first.store.tables.load_table(info.id)
    assert stored is not None and stored.ai_turn  # the store knows an AI is to act
    await first.close()

    second = TableService(await store_factory(), heal_every=None)
    await second.start()
    await second.idle()
    log = await second.store.tables.load_actions(info.id)
    assert len(log) >= 3 and [a.auto for a in log[1:3]] == [True, True]
    stored = await second.store.tables.load_table(info.id)
    assert stored is not None and not stored.ai_turn and stored.seats[0].user_id == ANN
    await second.close()


async def test_the_deadline_of_a_table_nobody_loaded_still_expires_on_time(store_factory: StoreFactory) -> None:
    clock = ManualClock()
    first = TableService(await store_factory(), clock=clock, run_timers=False, heal_every=None)
    await first.start()
    info = await first.create_table("coins", ANN, "Ann", {"timer": "live"})
    await first.join(info.id, BOB, "Bob")
    await first.join(info.id, CAT, "Cat")
    await first.start_game(info.id, ANN)
    seat = (await first.info(info.id)).to_act[0]
    await first.close()

    second = TableService(await store_factory(), clock=clock, run_timers=False, heal_every=None)
    await second.start()
    await second.idle()
    assert second.tables() == []
    clock.now += 59
    await second.tick_timers()
    assert await second.store.tables.load_actions(info.id) == []  # a second early: nothing happens
    clock.now += 1
    await second.tick_timers()
    await second.idle()
    log = await second.store.tables.load_actions(info.id)
    assert [(a.seat, a.auto) for a in log] == [(seat, True)]
    await second.close()


async def test_memory_stays_bounded_when_many_tables_are_touched_once_each(store_factory: StoreFactory) -> None:
    service = TableService(await store_factory(), heal_every=None, max_loaded=20)
    await service.start()
    ids = [(await service.create_table("coins", 1000 + i, f"P{i}")).id for i in range(120)]
    assert len(service.tables()) <= 20
    for table_id in ids:  # touching each again loads it, and the oldest idle ones make room
        assert (await service.info(table_id)).id == table_id
        assert len(service.tables()) <= 20
    await service.close()


async def test_a_long_game_revives_from_its_snapshot_and_the_moves_after_it(
    store_factory: StoreFactory, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("engine.service.moves.SNAPSHOT_EVERY", 5)
    first = TableService(await store_factory(), heal_every=None)
    await first.start()
    table_id = await started_coins(first)
    await play_out(first, table_id, moves=12)
    before = {user: await first.view(table_id, user) for user in (ANN, BOB, CAT, None)}
    await first.close()

    store = await store_factory()
    found = await store.tables.load_snapshot(table_id)
    assert found is not None and found[0] == 10  # the latest snapshot, two moves before the end of the log
    replayed: list[int] = []
    real_load = store.tables.load_actions

    async def watch(table: str, after: int = 0) -> list[LoggedAction]:
        replayed.append(after)
        return await real_load(table, after)

    monkeypatch.setattr(store.tables, "load_actions", watch)
    second = TableService(store, heal_every=None)
    await second.start()
    after = {user: await second.view(table_id, user) for user in (ANN, BOB, CAT, None)}
    assert after == before and replayed == [10]  # only the two moves after the snapshot were read
    await second.close()


async def test_a_snapshot_of_an_older_state_shape_is_set_aside_and_the_whole_log_replayed(
    store_factory: StoreFactory, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("engine.service.moves.SNAPSHOT_EVERY", 5)
    first = TableService(await store_factory(), heal_every=None)
    await first.start()
    info = await first.create_table("sergeant_major", ANN, "Ann", {"first_dealer": "seat:0"})
    for user, name in ((BOB, "Bob"), (CAT, "Cat")):
        await first.join(info.id, user, name)
    await first.start_game(info.id, ANN)
    for _ in range(12):  # trump, the discard and ten cards: three finished tricks
        table = first.live(info.id)
        assert table is not None
        (seat,) = SERGEANT_MAJOR.to_act(table.state)
        player = table.row.seats[seat].user_id
        assert player is not None
        await first.act(info.id, player, SERGEANT_MAJOR.legal_actions(table.state, seat)[0], table.seq)
    before = {user: await first.view(info.id, user) for user in (ANN, BOB, CAT, None)}
    assert len(before[None]["state"]["played"]) == 3
    await first.close()

    store = await store_factory()
    found = await store.tables.load_snapshot(info.id)
    assert found is not None and found[0] == 10
    seq, data = found
    # The shape stored before the hand's finished tricks were kept: only their cards, as one mask.
    old = data["state"]
    old["won"] = sum(1 << card for trick in old.pop("played") for _, card in trick)
    await store.tables.save_snapshot(info.id, seq, data)
    replayed: list[int] = []
    real_load = store.tables.load_actions

    async def watch(table: str, after: int = 0) -> list[LoggedAction]:
        replayed.append(after)
        return await real_load(table, after)

    monkeypatch.setattr(store.tables, "load_actions", watch)
    second = TableService(store, heal_every=None)
    await second.start()
    after = {user: await second.view(info.id, user) for user in (ANN, BOB, CAT, None)}
    assert after == before and replayed == [10, 0]  # the snapshot was refused, the whole log replayed
    await second.close()
