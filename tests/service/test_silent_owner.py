"""A process that is not dead but silent (cut off from PostgreSQL, or hung) does not keep its tables.

Two table services on one PostgreSQL database stand for two processes with addresses; the
owner reaches the database through a proxy that is then frozen: its connections stay open,
nothing more gets through either way (a partition that drops packets, or a SIGSTOPped
process: the server's keepalives are answered and its lock table still says the owner holds
the lease). The owner stops acting for its table within ``HOLD_FOR`` seconds, the other
process ends the owner's silent session after ``STALE_AFTER`` seconds and takes the table,
and a move sent to the owner meanwhile is answered (refused as ``unavailable``) within ``ANSWER_WITHIN`` seconds,
well inside the issue's 5 s, while the store still waits on its command timeout and a new connection.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest
from sqlalchemy import text

from engine.core.errors import Refusal, RefusalCode
from engine.service.loading import peers_for
from engine.service.moves import ANSWER_WITHIN
from engine.service.peers import Notice
from engine.service.pg_peers import APPLICATION, HEARTBEAT_EVERY, HOLD_FOR, STALE_AFTER, PostgresPeers
from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.fakes.frozen_proxy import FrozenProxy
from tests.postgres import database as database
from tests.service.helpers import ANN, BOB, CAT, human_move
from tests.waiting import until

TAKEN_WITHIN = 10.0  # seconds from the freeze until the other process drives the table (the bound)
ANSWERED_WITHIN = 5.0  # seconds from the freeze until a move sent then is answered (the bound)


@pytest.fixture
async def proxy(database: str) -> AsyncIterator[FrozenProxy]:
    """A proxy to the test database's server."""
    upstream = urlsplit(database)
    proxy = FrozenProxy(upstream.hostname or "127.0.0.1", upstream.port or 5432)
    await proxy.start()
    yield proxy
    await proxy.close()


async def started(url: str, tmp_path: Path, address: str) -> TableService:
    """A table service on ``url`` with ``address`` as its process address."""
    store = Store(database_url(url, tmp_path))
    await store.open()
    service = TableService(store, heal_every=None, peers=peers_for(store, address))
    await service.start()
    return service


async def test_a_silent_owner_lets_go_of_its_table_and_another_process_takes_it_within_seconds(
    database: str, proxy: FrozenProxy, tmp_path: Path
) -> None:
    owner = await started(proxy.url_through(database), tmp_path, "http://one.example:8080")
    other = await started(database, tmp_path, "http://two.example:8080")
    try:
        info = await owner.create_table("coins", ANN, "Ann", {"first_dealer": "seat:2"})
        await owner.join(info.id, BOB, "Bob")
        await owner.join(info.id, CAT, "Cat")
        await owner.start_game(info.id, ANN)
        assert await owner.claim(info.id) and owner.drives(info.id)
        assert await other.owner_elsewhere(info.id) == "http://one.example:8080"
        user, action, seq = await human_move(owner, info.id)

        proxy.freeze()
        frozen = time.monotonic()
        with pytest.raises(Refusal) as refused:  # before: the store's own error after 5.5 s
            await asyncio.wait_for(owner.act(info.id, user, action, seq), ANSWERED_WITHIN + 5)
        answered = time.monotonic() - frozen
        assert refused.value.code == RefusalCode.UNAVAILABLE and ANSWER_WITHIN <= answered <= ANSWERED_WITHIN
        await until(lambda: not owner.drives(info.id), within=HOLD_FOR + 1)  # it stops acting on its own
        async with asyncio.timeout(TAKEN_WITHIN):
            while not await other.claim(info.id):  # noqa: ASYNC110 (the other's heartbeat ends the owner's session)
                await asyncio.sleep(0.1)
        taken = time.monotonic() - frozen
        assert other.drives(info.id) and taken >= STALE_AFTER - 1
        lease = await other.store.writer.engine.connect()
        try:  # the row names the process that took it, and its fence grew by one at the hand-over
            row = (await lease.execute(text("SELECT origin, fence FROM leases WHERE table_id = :t"),
                                       {"t": info.id})).one()
        finally:
            await lease.close()
        assert isinstance(other.peers, PostgresPeers) and tuple(row) == (other.peers.origin, 2)
        peers = other.peers
        assert isinstance(peers, PostgresPeers)
        await until(lambda: peers.ended >= 1, within=3)  # the silent one's session is ended too: it starts afresh
        moved = await other.act(info.id, user, action, seq)  # the table plays on at the process that took it
        assert moved.seq == seq + 1
        print(f"move to the silent owner answered in {answered:.1f} s; table taken over in {taken:.1f} s")
    finally:
        await proxy.cut()  # the owner's connections closed: its shutdown waits on nothing
        for service in (other, owner):
            await service.close()
            await service.store.close()


async def test_a_process_coming_back_in_touch_is_not_ended_as_silent_before_its_first_heartbeat(
    database: str, tmp_path: Path
) -> None:
    store = Store(database_url(database, tmp_path))
    await store.open()  # the schema
    await store.close()
    # a process that was cut off reconnects: its new session is open, and its row still has the heartbeat from
    # before the cut until its first statement on that session writes it again
    back = await asyncpg.connect(database, server_settings={"application_name": APPLICATION + "back"})
    await back.execute("INSERT INTO processes (origin, url, seen_at) VALUES ('back', '', "
                       "extract(epoch FROM now()) - $1)", 10 * STALE_AFTER)
    other = PostgresPeers(database, "http://two.example:8080")

    async def nothing(*_: Notice) -> None:
        return None

    await other.start(nothing, nothing)
    try:
        await asyncio.sleep(2.5 * HEARTBEAT_EVERY)  # the other beats twice, each time looking for silent processes
        assert other.ended == 0 and not back.is_closed()  # a session younger than STALE_AFTER was not silent so long
    finally:
        await other.close()
        await back.close()
