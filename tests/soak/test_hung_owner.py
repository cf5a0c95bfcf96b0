"""A hung owner (SIGSTOP) does not freeze its table: another real process takes it over within seconds.

Two ``python -m webapp`` processes with addresses on one PostgreSQL database; a table where
AI players play alone is driven by one of them. That process is stopped (SIGSTOP): its
connections stay open and the kernel still answers the server's keepalives, so PostgreSQL
alone would keep its leases for as long as it is stopped. The other process notices its
heartbeat stopped and takes the table: the stored game moves on within ``RESUMED_WITHIN``
seconds. Continued (SIGCONT), the stopped process gives the table up; every move is stored once.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import aiohttp
import asyncpg

from tests.soak.harness import Server
from tests.soak.sockets import sign_in

RESUMED_WITHIN = 10.0  # seconds from the stop to the next stored move (the bound)


async def stored_seq(conn: asyncpg.Connection, table_id: str) -> int:
    """The table's latest stored seq."""
    return int(await conn.fetchval("SELECT coalesce(max(seq), 0) FROM actions WHERE table_id = $1", table_id))


async def test_a_stopped_owner_loses_its_table_to_another_process_within_seconds(
    database: str, tmp_path: Path
) -> None:
    servers = [Server(tmp_path / "data", database, AI_DELAY="0.2") for _ in range(2)]
    for server, name in zip(servers, ("first", "second"), strict=True):
        server.log_path = tmp_path / f"{name}.log"
        server.extra_env["PROCESS_URL"] = server.url
    await asyncio.gather(*(server.start() for server in servers))
    first, second = servers
    conn = await asyncpg.connect(database)
    try:
        async with aiohttp.ClientSession() as session:
            ann = await sign_in(session, first, "Ann")
            async with session.post(first.url + "/api/tables", json={"game": "coins"}, headers=ann) as resp:
                table_id = (await resp.json())["id"]
            for op in ("add_ai", "add_ai", "start", "leave"):  # Ann leaves: AI players play on alone
                async with session.post(f"{first.url}/api/tables/{table_id}/{op}", headers=ann) as resp:
                    assert resp.status == 200, await resp.text()
            async with asyncio.timeout(10):
                while await stored_seq(conn, table_id) < 3:  # noqa: ASYNC110 (another process writes it)
                    await asyncio.sleep(0.05)
            assert first.process is not None
            os.kill(first.process.pid, signal.SIGSTOP)
            stopped = time.monotonic()
            try:
                await asyncio.sleep(0.5)  # a move the stopped process had in flight lands first
                seq = await stored_seq(conn, table_id)
                async with asyncio.timeout(RESUMED_WITHIN):
                    while await stored_seq(conn, table_id) <= seq:  # noqa: ASYNC110 (another process writes it)
                        await asyncio.sleep(0.05)
                resumed = time.monotonic() - stopped
            finally:
                os.kill(first.process.pid, signal.SIGCONT)
            print(f"the stopped owner's table moved on {resumed:.1f} s after the stop")
            async with asyncio.timeout(10):  # continued, it stays out of the way and the game goes on
                seq = await stored_seq(conn, table_id)
                while await stored_seq(conn, table_id) <= seq + 3:  # noqa: ASYNC110 (another process writes it)
                    await asyncio.sleep(0.05)
        seqs = [row[0] for row in await conn.fetch("SELECT seq FROM actions WHERE table_id = $1 ORDER BY seq",
                                                   table_id)]
        assert seqs == list(range(1, len(seqs) + 1))
        assert "ended the sessions of" in second.log()
    finally:
        await conn.close()
        for server in servers:
            server.stop()
