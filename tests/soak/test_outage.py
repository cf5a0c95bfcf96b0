"""PostgreSQL restarted mid-game under two real ``python -m webapp`` processes: every socket resyncs, nothing is lost.

The processes reach PostgreSQL through a proxy that plays the restart: every connection
cut at once, new ones refused for a few seconds, then accepted again. Ann's socket is on
the first process and Bob's on the second; an AI sits in the third seat. A move made
while the database is away is refused at once, in words; once it is back, each process
reconnects, catches up with the moves the other made while it was not yet listening,
and takes the AI over again, so every socket gets every move once and in order.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp
import pytest

from engine.store.database import Store, database_url
from tests.fakes.tcp_proxy import TcpProxy
from tests.soak.harness import Server
from tests.soak.sockets import coins_table, open_socket, person_to_act, play_until, sign_in

pytestmark = pytest.mark.postgres
DOWN = 3.0  # seconds PostgreSQL stays away: a quick restart
FRAME_WAIT = 20.0  # seconds a socket may wait for its next frame (a reconnect's back-off, on a busy machine)
RESUMED = "caught up with the other processes"  # a process's log line once it listens again and has caught up
RESUMED_WITHIN = 20.0  # seconds after the game moved on for both processes to have said so
REFUSED_WITHIN = 10.0  # seconds: a move made while the database is away is answered, never left hanging


async def test_sockets_on_two_processes_get_every_move_once_when_postgresql_restarts_mid_game(
    database: str, tmp_path: Path
) -> None:
    async with TcpProxy.before(database) as proxy:
        through = proxy.url_through(database)
        shared_dir = tmp_path / "data"
        first, second = Server(shared_dir, through), Server(shared_dir, through)
        first.log_path, second.log_path = tmp_path / "first.log", tmp_path / "second.log"
        await asyncio.gather(first.start(), second.start())
        try:
            async with aiohttp.ClientSession() as session:
                ann, bob = await sign_in(session, first, "Ann"), await sign_in(session, second, "Bob")
                table_id = await coins_table(session, (first, ann), (second, bob))
                seats = {0: await open_socket(session, first, table_id, ann, wait=FRAME_WAIT),
                         1: await open_socket(session, second, table_id, bob, wait=FRAME_WAIT)}
                assert (await session.post(f"{first.url}/api/tables/{table_id}/start", headers=ann)).status == 200
                seq = await play_until(seats, 0, lambda view: view["seq"] >= 5 and person_to_act(seats, view))
                (mover,) = (seats[s] for s in seats[0].view["table"]["to_act"])

                await proxy.cut()
                began = time.monotonic()
                await mover.play_first_legal("while-down")
                refused = await asyncio.wait_for(mover.answer("while-down"), REFUSED_WITHIN)
                assert refused["type"] == "refused" and refused["code"] == "unavailable", refused
                assert refused["message"] == "The game cannot reach its database just now; try again in a moment."
                await asyncio.sleep(max(0.0, DOWN - (time.monotonic() - began)))  # the server is down this long
                await proxy.restore()

                await mover.play_first_legal("after")  # the same tap again, once the database is back
                after = await mover.answer("after")
                assert after["type"] == "ack", after
                outage_seq = seq
                seq = await play_until(seats, seq + 1, lambda view: view["seq"] >= outage_seq + 12)
                for socket in seats.values():  # every move, in order, once
                    assert socket.seqs == list(range(socket.seqs[0], socket.view["seq"] + 1)) and socket.seqs[0] <= 1
                # the moves above may all come through before a listener's own reconnection, which retries with a
                # growing pause (up to 5 s): each process has until a deadline to say it resumed
                deadline = time.monotonic() + RESUMED_WITHIN
                while time.monotonic() < deadline and not all(RESUMED in s.log() for s in (first, second)):  # noqa: ASYNC110 (a log file has no event)
                    await asyncio.sleep(0.2)
        finally:
            first.stop()
            second.stop()
    for server in (first, second):
        assert RESUMED in server.log(), server.log()[-3000:]
    store = Store(database_url(database, tmp_path))
    await store.open()
    log = await store.tables.load_actions(table_id)
    await store.close()
    # no gap and nothing twice; the AI may have made one more move between the last look and the processes' stop
    assert [a.seq for a in log] == list(range(1, len(log) + 1)) and len(log) >= seq
    assert sum(a.auto for a in log) == sum(1 for a in log if a.seat == 2)  # only the AI moved automatically
    assert any(a.seat == 2 for a in log[outage_seq:])  # and it went on moving after the outage
