"""A hung owner (SIGSTOP) does not freeze its tables: the other real processes take each one over within seconds.

Three ``python -m webapp`` processes with addresses on one PostgreSQL database; six tables
where AI players play alone are opened across them, each driven by one process (its row in
``leases``). The process driving the most tables is stopped (SIGSTOP) for ``FROZEN``
seconds, in the middle of a transaction that has written some of its tables' moves: its
connections stay open and the kernel still answers the server's keepalives, so PostgreSQL
alone would keep its leases, and that transaction's row locks, for as long as it is stopped. The other two
notice its heartbeat stopped and take its tables: every one of them moves on in the store
within ``RESUMED_WITHIN`` seconds, its moves written by one of those two. Continued
(SIGCONT), the stopped process gives those tables up and writes to them no more; every
move is stored once.

Who wrote a move is told by the change notice its commit sends (``origin|table|seq|...``,
``engine.store.notices``), which the test listens to as the processes do.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections import Counter
from pathlib import Path

import aiohttp
import asyncpg

from engine.store.notices import CHANNEL
from tests.soak.harness import Server
from tests.soak.owners import (
    Notices,
    ai_table,
    lease_holders,
    process_origins,
    stop_inside_a_transaction,
    stored_seqs,
    until_reached,
)

RESUMED_WITHIN = 10.0  # seconds from the stop to each table's next stored move (the bound)
FROZEN = 45.0  # seconds the owner stays stopped: a long freeze, far past every heartbeat bound
NAMES = ("first", "second", "third")
OPENED_ON = (0, 1, 2, 0, 1, 0)  # the process each table is opened (and so first driven) on: 3, 2 and 1 tables
MOVES_AFTER = 3  # moves each table makes once the continued process is back in touch, before the store is checked


async def test_a_stopped_owner_loses_every_table_it_drove_to_the_other_processes_within_seconds(
    database: str, tmp_path: Path
) -> None:
    servers = [Server(tmp_path / "data", database, AI_DELAY="0.2") for _ in NAMES]
    for server, name in zip(servers, NAMES, strict=True):
        server.log_path = tmp_path / f"{name}.log"
        server.extra_env["PROCESS_URL"] = server.url
    await asyncio.gather(*(server.start() for server in servers))
    conn = await asyncpg.connect(database)
    notices = Notices()
    await conn.add_listener(CHANNEL, notices)
    try:
        async with aiohttp.ClientSession() as session:
            tables = [await ai_table(session, servers[on], f"P{i}") for i, on in enumerate(OPENED_ON)]
        async with asyncio.timeout(15):  # every table under way and driven by a process with an address
            while (min((await stored_seqs(conn, tables)).values()) < 3  # noqa: ASYNC110 (the processes write it)
                   or len(await lease_holders(conn, tables)) < len(tables)):
                await asyncio.sleep(0.05)
        names = await process_origins(conn, servers, NAMES)
        holders = await lease_holders(conn, tables)
        assert set(holders.values()) <= set(names), (holders, names)
        (origin, count), *_ = Counter(holders.values()).most_common()
        hung = servers[NAMES.index(names[origin])]
        frozen = [t for t in tables if holders[t] == origin]
        print(f"tables driven: {dict(Counter(names[o] for o in holders.values()))}; stopping the {names[origin]}")
        assert count >= 2
        assert hung.process is not None
        reconnects = hung.log().count("reconnected to PostgreSQL")
        stopped = await stop_inside_a_transaction(conn, hung.process.pid)
        try:
            await asyncio.sleep(0.5)  # a move the stopped process had in flight lands first
            before = await stored_seqs(conn, frozen)
            resumed = await until_reached(conn, {t: seq + 1 for t, seq in before.items()}, stopped, RESUMED_WITHIN)
            await asyncio.sleep(max(0.0, stopped + FROZEN - time.monotonic()))
            during = await stored_seqs(conn, frozen)
            held_during = await lease_holders(conn, frozen)
        finally:
            os.kill(hung.process.pid, signal.SIGCONT)
        continued = time.monotonic()
        others = set(names) - {origin}
        for table_id in frozen:
            writers = sorted(names.get(o, o) for o in notices.writers(table_id, before[table_id]))
            print(f"table {table_id}: moved on {resumed.get(table_id, float('nan')):.1f} s after the stop; "
                  f"{during[table_id] - before[table_id]} moves in the {FROZEN:.0f} s freeze, by {writers}")
        print(f"the stopped owner's {len(frozen)} tables moved on at most "
              f"{max(resumed.values(), default=float('nan')):.1f} s after the stop")
        assert set(resumed) == set(frozen), f"a table did not move within {RESUMED_WITHIN} s of the stop: {resumed}"
        assert all(held_during.get(t) in others for t in frozen), held_during
        async with asyncio.timeout(15):  # continued, it finds its session ended, and comes back in touch
            while hung.log().count("reconnected to PostgreSQL") == reconnects:  # noqa: ASYNC110 (it writes it)
                await asyncio.sleep(0.05)
        print(f"continued, it was back in touch {time.monotonic() - continued:.1f} s later")
        back = await stored_seqs(conn, frozen)
        went_on = await until_reached(conn, {t: seq + MOVES_AFTER for t, seq in back.items()}, time.monotonic(), 15)
        assert set(went_on) == set(frozen), f"a table did not go on after the continue: {went_on}"
        for table_id in tables:  # every move stored once, with no gap
            seqs = [row[0] for row in await conn.fetch("SELECT seq FROM actions WHERE table_id = $1 ORDER BY seq",
                                                       table_id)]
            assert seqs == list(range(1, len(seqs) + 1)), table_id
        seen = await conn.fetchval("SELECT extract(epoch FROM now()) - seen_at FROM processes WHERE origin = $1",
                                   origin)
        assert seen < 4.0  # the stopped process is alive and beating again...
        after = await lease_holders(conn, frozen)
        for table_id in frozen:  # ...yet drives none of its old tables: every move since the stop is the others'
            since = notices.writers(table_id, before[table_id])
            assert after.get(table_id) in others, (table_id, after.get(table_id))
            assert since and since <= others, (table_id, since)
        assert any("ended the sessions of" in server.log() for server in servers if server is not hung)
        assert not [s.url for s in servers if "does not reach this process" in s.log()]  # every address found right
    finally:
        await conn.close()
        for server in servers:
            server.stop()
