"""Which real process drives which table, and who wrote its moves: read from the store as the processes keep it.

The lease rows (``leases``) name each table's driver by origin, the ``processes`` rows map an
origin to its address, and the change notice each commit sends (``origin|table|seq|...``,
``engine.store.notices``) names the process that wrote a move; the soak tests of owners
that hang or are cut off read them here.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from typing import Any

import aiohttp
import asyncpg

from tests.soak.harness import Server
from tests.soak.sockets import sign_in


class Notices:
    """Every change notice the processes send: (the writer's origin, table, seq)."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, str, int]] = []

    def __call__(self, _conn: Any, _pid: int, _channel: str, payload: object) -> None:
        for line in str(payload).split("\n"):
            origin, table_id, seq = [*line.split("|", 3), "", ""][:3]
            if seq.isdigit():
                self.heard.append((origin, table_id, int(seq)))

    def writers(self, table_id: str, after_seq: int) -> set[str]:
        """The origins of the processes that wrote the moves of ``table_id`` after ``after_seq``."""
        return {origin for origin, table, seq in self.heard if table == table_id and seq > after_seq}


async def stored_seqs(conn: asyncpg.Connection, table_ids: list[str]) -> dict[str, int]:
    """Each table's latest stored seq (0 before any move)."""
    rows = await conn.fetch("SELECT table_id, max(seq) FROM actions WHERE table_id = any($1::text[]) "
                            "GROUP BY table_id", table_ids)
    return {table_id: 0 for table_id in table_ids} | {row[0]: int(row[1]) for row in rows}


async def lease_holders(conn: asyncpg.Connection, table_ids: list[str]) -> dict[str, str]:
    """The origin named by each table's lease (tables with none left out)."""
    rows = await conn.fetch("SELECT table_id, origin FROM leases WHERE table_id = any($1::text[])", table_ids)
    return {row[0]: row[1] for row in rows}


async def process_origins(conn: asyncpg.Connection, servers: list[Server], names: tuple[str, ...]) -> dict[str, str]:
    """Each process's origin (its row in ``processes``, found by its address) -> its name in ``names``."""
    rows = await conn.fetch("SELECT origin, url FROM processes")
    by_url = {server.url: name for server, name in zip(servers, names, strict=True)}
    return {row[0]: by_url[row[1]] for row in rows if row[1] in by_url}


async def ai_table(session: aiohttp.ClientSession, server: Server, name: str) -> str:
    """A Coins table opened on ``server`` by ``name``, who starts it with two AI players and leaves; its id."""
    person = await sign_in(session, server, name)
    async with session.post(server.url + "/api/tables", json={"game": "coins", "options": {"target_score": 99}},
                            headers=person) as resp:  # a long game: none ends before the test does
        table_id: str = (await resp.json())["id"]
    for op in ("add_ai", "add_ai", "start", "leave"):  # the person leaves: AI players play on alone
        async with session.post(f"{server.url}/api/tables/{table_id}/{op}", headers=person) as resp:
            assert resp.status == 200, await resp.text()
    return table_id


async def until_reached(conn: asyncpg.Connection, seqs: dict[str, int], began: float,
                        within: float) -> dict[str, float]:
    """Poll the store until each table has stored ``seqs[table]``, or ``within`` seconds after ``began`` have gone;
    the seconds from ``began`` to each table's seq (tables that did not reach it left out)."""
    reached: dict[str, float] = {}
    while len(reached) < len(seqs) and time.monotonic() - began <= within:
        now = await stored_seqs(conn, list(seqs))
        at = time.monotonic() - began
        reached |= {t: at for t, seq in now.items() if seq >= seqs[t] and t not in reached}
        await asyncio.sleep(0.05)
    return reached


# sessions waiting for their client inside a transaction that has written (holding the locks of its rows), for longer
# than $1 seconds
WAITING_INSIDE = ("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                  "AND pid <> pg_backend_pid() AND state = 'idle in transaction' AND backend_xid IS NOT NULL "
                  "AND state_change <= now() - make_interval(secs => $1)")


async def stop_inside_a_transaction(conn: asyncpg.Connection, pid: int, *, tries: int = 100) -> float:
    """SIGSTOP the process ``pid`` in the middle of one of its transactions, after it wrote: the server then holds
    that transaction's row locks for as long as the process is stopped, unless it ends the session. The moment it
    was stopped.

    A transaction of ours waits for its client for a millisecond or so, so each try watches the server until some
    session does, stops the process at once and looks again: a session still waiting inside a transaction since
    before the stop is the stopped process's (the others finish theirs in milliseconds). None, and the process is
    continued and tried again a moment later."""
    for _ in range(tries):
        for _ in range(2000):
            if await conn.fetchval(WAITING_INSIDE, 0.0):
                break
        os.kill(pid, signal.SIGSTOP)
        stopped = time.monotonic()
        await asyncio.sleep(0.25)
        if await conn.fetchval(WAITING_INSIDE, 0.2):
            return stopped
        os.kill(pid, signal.SIGCONT)
        await asyncio.sleep(random.uniform(0.05, 0.3))
    raise AssertionError(f"process {pid} was never stopped inside a transaction in {tries} tries")
