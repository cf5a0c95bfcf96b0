"""Several processes on one PostgreSQL database: any player on any process, one driver per table, safe starts.

Each "process" is a table service with a store and a listening connection of its own,
exactly what a second ``python -m webapp`` holds; they share nothing but the database.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from engine.core.errors import Refusal
from engine.service.bus import Subscription, Update
from engine.service.sharing import WATCH_EVERY
from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.postgres import database as database
from tests.service.helpers import ANN, BOB, CAT, get_meta, human_move, play_out, set_meta
from tests.waiting import until

Process = Callable[[], Awaitable[TableService]]


@pytest.fixture
async def process(database: str, tmp_path: Path) -> AsyncIterator[Process]:
    """Starts 'processes' on the shared database."""
    started: list[TableService] = []

    async def start() -> TableService:
        store = Store(database_url(database, tmp_path))
        await store.open()
        service = TableService(store, heal_every=None)
        await service.start()
        started.append(service)
        return service

    yield start
    for service in started:
        await service.close()
        await service.store.close()


async def next_update(sub: Subscription, kind: str | None = None) -> Update:
    while True:
        update = await asyncio.wait_for(sub.get(), timeout=10)
        if kind is None or update.kind == kind:
            return update


async def three_people(service: TableService) -> str:
    info = await service.create_table("coins", ANN, "Ann", {"first_dealer": "seat:2"})  # Ann leads
    await service.join(info.id, BOB, "Bob")
    await service.join(info.id, CAT, "Cat")
    await service.start_game(info.id, ANN)
    return info.id


async def test_moves_made_on_one_process_reach_the_sockets_of_another_in_order(process: Process) -> None:
    one, two = await process(), await process()
    table_id = await three_people(one)
    await two.info(table_id)  # a player's socket on the second process loads the table there
    heard = {one: one.subscribe(table_id), two: two.subscribe(table_id)}
    users = {0: ANN, 1: BOB, 2: CAT}
    for turn in range(9):
        here, there = (one, two) if turn % 2 == 0 else (two, one)  # players sit on either process
        info = await here.info(table_id)
        seat = info.to_act[0]
        view = await here.view(table_id, users[seat])
        await here.act(table_id, users[seat], {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
        mine = await next_update(heard[here], "moved")
        theirs = await next_update(heard[there], "moved")  # the other process's sockets get the same move
        assert (mine.seq, theirs.seq) == (turn + 1, turn + 1)
        assert [e.data for e in theirs.events] == [e.data for e in mine.events]
        assert theirs.snapshot.view(seat) == mine.snapshot.view(seat)
    for user in (ANN, BOB, CAT, None):
        assert await two.view(table_id, user) == await one.view(table_id, user)


async def test_lobby_changes_from_two_processes_at_once_both_land(process: Process) -> None:
    one, two = await process(), await process()
    info = await one.create_table("coins", ANN, "Ann")
    await two.info(info.id)
    heard = [one.subscribe(info.id), two.subscribe(info.id)]
    await asyncio.gather(one.join(info.id, BOB, "Bob"), two.join(info.id, CAT, "Cat"))
    stored = await one.store.tables.load_table(info.id)
    everyone = {ANN, BOB, CAT}
    assert stored is not None and {s.user_id for s in stored.seats} == everyone
    for sub in heard:  # each process's sockets end up seeing both joins, whichever process took them
        while {s.user_id for s in (await next_update(sub)).info.seats} != everyone:
            pass


async def test_one_process_drives_the_ai_and_another_takes_over_when_it_stops(process: Process) -> None:
    one, two = await process(), await process()
    info = await one.create_table("coins", ANN, "Ann", {"first_dealer": "seat:2"})
    await one.start_game(info.id, ANN)  # Ann leads; two AI seats follow
    await two.info(info.id)
    gate = asyncio.Event()

    async def held(_: float) -> None:
        await gate.wait()

    one.autoplay.sleep, one.autoplay.delay = held, 1.0  # the first process will own the AI, then die
    view = await one.view(info.id, ANN)
    await one.act(info.id, ANN, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
    await until(lambda: one.drives(info.id))
    assert not two.drives(info.id)
    assert await two.heal() == 0  # the second process sees the lease held and leaves the table alone
    await one.close()  # the owner stops: it frees its leases and says so, with no supervisor's round to wait for
    await until(lambda: two.drives(info.id))
    assert await two.heal() == 0, "taken over already: the AI runs, nothing is left to heal"
    await two.idle()
    log = await two.store.tables.load_actions(info.id)
    assert [a.auto for a in log[:3]] == [False, True, True] and two.drives(info.id)
    assert [a.seq for a in log] == list(range(1, len(log) + 1))


async def test_processes_starting_together_on_a_fresh_database_migrate_safely(database: str, tmp_path: Path) -> None:
    stores = [Store(database_url(database, tmp_path)) for _ in range(3)]
    await asyncio.gather(*(store.open() for store in stores))
    for store in stores:
        assert await store.tables.count_actions() == 0
        await store.close()


async def test_one_move_sent_to_two_processes_at_once_is_applied_once(process: Process) -> None:
    one, two = await process(), await process()
    table_id = await three_people(one)
    await two.info(table_id)
    view = await one.view(table_id, ANN)  # Ann leads; her phone sends the same move through both processes
    move = {"type": "play", "card": view["state"]["legal"][0]}
    results = await asyncio.gather(one.act(table_id, ANN, move, 0), two.act(table_id, ANN, move, 0),
                                   return_exceptions=True)
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(applied) == 1 and len(refused) == 1 and refused[0].code == "stale"
    assert [(a.seq, a.seat) for a in await one.store.tables.load_actions(table_id)] == [(1, 0)]


async def test_a_catch_up_that_fails_is_tried_again_by_the_supervisor(
    process: Process, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = await process(), await process()
    table_id = await three_people(one)
    await two.info(table_id)
    two.subscribe(table_id)  # a player's socket there: the second process keeps the table and catches up
    load_table = two.store.tables.load_table
    failed = asyncio.Event()

    async def out_of_reach(table_id: str) -> object:  # the second process's pool lost the database for a moment
        failed.set()
        raise ConnectionError("the database is out of reach")

    monkeypatch.setattr(two.store.tables, "load_table", out_of_reach)
    await set_meta(one, table_id, "seen", 1)  # a row change: catching up reads the row
    await asyncio.wait_for(failed.wait(), timeout=10)
    await asyncio.sleep(0)
    assert (await get_meta(two, table_id, "seen")) is None  # still behind
    monkeypatch.setattr(two.store.tables, "load_table", load_table)
    await two.heal()  # the next supervisor round
    assert (await get_meta(two, table_id, "seen")) == 1


async def test_rematch_asked_on_two_processes_is_one_table_named_on_both(process: Process) -> None:
    one, two = await process(), await process()
    table_id = await three_people(one)
    await play_out(one, table_id)
    await two.info(table_id)  # a player's socket on each process has the finished table open
    heard = two.subscribe(table_id)

    (ann, _), (bob, _) = await asyncio.gather(one.join_rematch(table_id, ANN, "Ann"),
                                              two.join_rematch(table_id, BOB, "Bob"))
    assert ann.id == bob.id
    told = await next_update(heard, "rematch")  # the other process's sockets learn where the table went on
    assert told.snapshot.info.rematch == ann.id
    assert (await one.info(table_id)).rematch == (await two.info(table_id)).rematch == ann.id
    stored = await one.store.tables.load_table(ann.id)  # (each process's copy catches up when the other's notice comes)
    assert stored is not None and sorted(s.user_id for s in stored.seats if s.user_id is not None) == [ANN, BOB]
    assert [t.id for t in await one.tables_of(CAT)] == []  # Cat is invited, not seated behind her back


async def test_a_move_whose_notice_is_lost_reaches_the_other_process_sockets_within_seconds(process: Process) -> None:
    one, two = await process(), await process()
    table_id = await three_people(one)
    await two.info(table_id)  # a player's socket on the second process loads the table there
    heard = two.subscribe(table_id)
    one.store.origin = ""  # the first process's change notices are lost on the way from now on
    user, action, seq = await human_move(one, table_id)
    await one.act(table_id, user, action, seq)
    async with asyncio.timeout(WATCH_EVERY + 2):  # the second process's next check of its tables finds the move
        update = await next_update(heard, "moved")
    assert update.seq == 1 and update.snapshot.info.seq == (await one.info(table_id)).seq == 1
    for who in (ANN, BOB, CAT, None):
        assert await two.view(table_id, who) == await one.view(table_id, who)
    assert two.sharing.behind == set()
