"""Several web processes on one PostgreSQL database, each table's three players spread over the processes.

For 1, 2 and 3 processes: T Coins tables of three people, seat i of every table on
process i mod N, played at a pace (a move every 2 s) and then flat out. Printed: moves/s,
p50/p99 latency from a move sent to the last seat's frame (across processes when N > 1),
and the CPU of all processes per move. Notices between processes go by PostgreSQL
NOTIFY in each move's own transaction (``python -m bench.bus`` compares Redis).

    .venv/bin/python -m bench.cluster [--tables 100] [--processes 1,2,3] [--pace-seconds 20] [--flat-seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import shutil
import tempfile
import time

import aiohttp
import asyncpg

from bench.ws_clients import Seat, Table, gather_limited, open_real_table, play, report
from bench.ws_servers import Server

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"


async def connect_spread(session: aiohttp.ClientSession, servers: list[Server], table_id: str, auths: list[str],
                         table: Table) -> None:
    """Seat i's socket goes to process i mod N."""
    for i, auth in enumerate(auths):
        server = servers[i % len(servers)]
        ws = await session.ws_connect(f"{server.url}/ws/{table_id}", compress=0, max_msg_size=1 << 20)
        await ws.send_str(json.dumps({"type": "hello", "init_data": auth, "last_seq": None}))
        seat = Seat(table, i, ws)
        table.seats.append(seat)
        welcome = json.loads((await ws.receive()).data)
        seat.view, seat.seq = welcome["view"], welcome["seq"]


async def run(processes: int, tables: int, pace_s: float, flat_s: float) -> None:
    name = f"bench_cluster_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(POSTGRES)
    await admin.execute(f'CREATE DATABASE "{name}"')
    database = POSTGRES.rsplit("/", 1)[0] + "/" + name
    data_dir = tempfile.mkdtemp(prefix="cardroom-cluster-")
    servers = [Server("serve", "--data-dir", data_dir, "--database", database) for _ in range(processes)]
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            for server in servers:
                await server.ready(session)
            opened = await gather_limited(16, [open_real_table(session, servers[t % processes].url, t)
                                               for t in range(tables)])
            played = [Table(random.Random(t)) for t in range(tables)]
            await gather_limited(32, [connect_spread(session, servers, tid, auths, table)
                                      for (tid, auths), table in zip(opened, played, strict=True)])
            readers = [asyncio.create_task(s.read()) for t in played for s in t.seats]
            await asyncio.sleep(1.0)
            print(f"{processes} process(es), {tables} tables, seats spread over the processes:", flush=True)
            for label, seconds, pace in (("a move every 2 s", pace_s, 2.0), ("flat out", flat_s, None)):
                cpu0, t0 = sum(s.cpu() for s in servers), time.perf_counter()
                latencies = await play(played, seconds, pace)
                report(label, latencies, sum(s.cpu() for s in servers) - cpu0, time.perf_counter() - t0)
            print(f"  refusals {sum(t.refusals for t in played)}", flush=True)
            for table in played:
                for seat in table.seats:
                    await seat.ws.close()
            for task in readers:
                task.cancel()
    finally:
        for server in servers:
            server.stop()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
        shutil.rmtree(data_dir, ignore_errors=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--processes", default="1,2,3")
    parser.add_argument("--pace-seconds", type=float, default=20.0)
    parser.add_argument("--flat-seconds", type=float, default=10.0)
    args = parser.parse_args()
    for n in [int(x) for x in args.processes.split(",")]:
        await run(n, args.tables, args.pace_seconds, args.flat_seconds)


if __name__ == "__main__":
    asyncio.run(main())
