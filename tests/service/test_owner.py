"""Each table lives on one process at a time: a process that does not own a table never re-applies its moves.

Two table services on one PostgreSQL database stand for two ``python -m webapp`` processes.
The owner (the lease holder) has the players' sockets; the other process had loaded the
table once (a lobby button, say) and has nobody following it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from engine.service.loading import peers_for
from engine.service.pg_peers import PostgresPeers
from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.postgres import database as database
from tests.service.helpers import ANN, BOB, CAT, human_move, set_meta
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


async def owned_table(owner: TableService) -> str:
    """A dealt Coins table of three people, its lease held by ``owner``."""
    info = await owner.create_table("coins", ANN, "Ann", {"first_dealer": "seat:2"})
    await owner.join(info.id, BOB, "Bob")
    await owner.join(info.id, CAT, "Cat")
    await owner.start_game(info.id, ANN)
    assert await owner.claim(info.id)
    return info.id


async def play(owner: TableService, table_id: str, moves: int) -> int:
    """Play ``moves`` moves at the owner; the last seq."""
    seq = 0
    for _ in range(moves):
        user, action, seq = await human_move(owner, table_id)
        seq = (await owner.act(table_id, user, action, seq)).seq
    return seq


async def test_a_process_that_does_not_own_a_table_unloads_it_on_a_notice_instead_of_applying_moves(
    process: Process,
) -> None:
    owner, other = await process(), await process()
    table_id = await owned_table(owner)
    await other.info(table_id)  # loaded there once (a lobby button, say); nobody follows it there
    assert other.live(table_id) is not None and not other.drives(table_id)
    seq = await play(owner, table_id, 5)
    await until(lambda: other.live(table_id) is None)  # the first notice unloads it
    await asyncio.sleep(0.3)  # the other notices find nothing to apply
    assert other.sharing.unowned_moves == 0 and owner.sharing.unowned_moves == 0
    info = await other.info(table_id)  # needed again: loaded from the store, as the owner has it
    assert info.seq == seq and info == await owner.info(table_id)
    for user in (ANN, BOB, CAT, None):
        assert await other.view(table_id, user) == await owner.view(table_id, user)


async def test_the_periodic_check_unloads_a_table_it_does_not_own_rather_than_catch_it_up(process: Process) -> None:
    owner, other = await process(), await process()
    table_id = await owned_table(owner)
    await other.info(table_id)
    await set_meta(owner, table_id, "seen", 1)  # its notice comes after those of the table's opening
    await until(lambda: other.live(table_id) is None)
    await other.info(table_id)  # loaded again, with every notice sent so far heard
    owner.store.origin = ""  # the owner's notices are lost on the way: only the check finds the moves
    await play(owner, table_id, 3)
    assert await other.sharing.check(grace=0) == [table_id]
    assert other.live(table_id) is None and other.sharing.unowned_moves == 0


async def test_a_process_with_a_socket_at_a_table_it_does_not_own_applies_and_counts_its_moves(
    process: Process,
) -> None:
    owner, other = await process(), await process()
    table_id = await owned_table(owner)
    await other.info(table_id)
    heard = other.subscribe(table_id)  # a socket there (no process address to send it to the owner)
    await play(owner, table_id, 4)
    for seq in range(1, 5):
        update = await asyncio.wait_for(heard.get(), timeout=10)
        assert (update.kind, update.seq) == ("moved", seq)
    assert other.sharing.unowned_moves == 4 and owner.sharing.unowned_moves == 0


async def test_a_socket_is_sent_to_the_owners_address_until_the_owner_dies_and_the_table_is_taken_over(
    database: str, tmp_path: Path
) -> None:
    services: list[TableService] = []
    for url in ("http://one.example:8080", "http://two.example:8080"):
        store = Store(database_url(database, tmp_path))
        await store.open()
        service = TableService(store, heal_every=None, peers=peers_for(store, url))
        await service.start()
        services.append(service)
    owner, other = services
    try:
        table_id = await owned_table(owner)
        assert await owner.owner_elsewhere(table_id) is None  # the owner serves its own sockets
        assert await other.owner_elsewhere(table_id) == "http://one.example:8080"
        assert not other.drives(table_id)
        await owner.close()  # the owner dies: its lease is freed a moment later
        async with asyncio.timeout(5):
            while await other.owner_elsewhere(table_id) is not None:  # noqa: ASYNC110 (the database frees it)
                await asyncio.sleep(0.01)
        assert other.drives(table_id)  # the hello that found the lease free took the table
    finally:
        for service in services:
            await service.close()
            await service.store.close()


async def test_a_lobby_followed_here_is_driven_here_once_its_owner_closes(process: Process) -> None:
    """A socket came here while the owner, gone from its address, still held the lease: once the owner closes it
    frees the lease and says so, and this process drives the lobby (its group's message goes on being told)."""
    owner, other = await process(), await process()
    info = await owner.create_table("coins", ANN, "Ann")
    assert await owner.claim(info.id)
    await other.info(info.id)

    async def heard(update: object) -> None:
        del update

    listening = other.listen(info.id, heard)  # the socket's room
    try:
        assert not await other.claim(info.id) and not other.drives(info.id)
        await owner.close()  # no supervisor's round here: the owner's word is what makes this process take it
        await until(lambda: other.drives(info.id), within=5)
        await other.join(info.id, BOB, "Bob")
        assert [seat.user_id for seat in (await other.info(info.id)).seats][:2] == [ANN, BOB]
    finally:
        listening.close()


async def test_leases_are_rows_that_take_no_lock_and_name_their_owner(database: str, tmp_path: Path) -> None:
    """Twenty tables driven by one process (a person's cap): twenty rows of ``leases`` naming it, no advisory lock
    in the server's shared lock table (before: one each, 6,400 for every process together on a default server)."""
    services: list[TableService] = []
    for url in ("http://one.example:8080", "http://two.example:8080"):
        store = Store(database_url(database, tmp_path))
        await store.open()
        service = TableService(store, heal_every=None, peers=peers_for(store, url))
        await service.start()
        services.append(service)
    owner, other = services
    conn = await asyncpg.connect(database)
    try:
        tables = [await owned_table(owner) for _ in range(20)]
        assert isinstance(owner.peers, PostgresPeers)
        rows = await conn.fetch("SELECT table_id, origin, fence FROM leases")
        assert sorted((r["table_id"], r["origin"], r["fence"]) for r in rows) == sorted(
            (t, owner.peers.origin, 1) for t in tables)
        assert await conn.fetchval("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'") == 0
        assert {await other.owner_elsewhere(t) for t in tables} == {"http://one.example:8080"}
        assert not await other.claim(tables[0])  # its holder is alive: the row stays its
        await owner.close()  # a graceful stop deletes its rows at once
        assert await conn.fetchval("SELECT count(*) FROM leases") == 0
        assert await other.claim(tables[0]) and other.drives(tables[0])
    finally:
        await conn.close()
        for service in services:
            await service.close()
            await service.store.close()
