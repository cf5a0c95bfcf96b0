"""Several web processes on one PostgreSQL database: a table's sockets spread over them, or routed by table.

For 1, 2 and 3 processes on PostgreSQL, and one process on SQLite beside them: T Coins
tables of three people, played at a pace (a move every 2 s) and then flat out, with each
table's sockets either spread (seat i on process i mod N: every process has every table
open and catches up with each move) or routed by table (every seat of table t on process
t mod N, as a proxy hashing the table id in the socket's path does: a table lives on one
process), or spread and redirected (seat i of table t on process t + i mod N, each process
with an address of its own, ``PROCESS_URL``: a socket reaching a process that does not own
its table is sent to the owner by a redirect frame, so the table lives on one process again).
Printed per run and side by side at the end: moves/s, p50/p99 latency from a move sent to
the last seat's frame, the CPU of all the web processes per move, and the CPU per
move of the database's backends serving the run's connections (PostgreSQL's own processes
on this machine; SQLite's work is inside the web process). Notices between processes go by
PostgreSQL NOTIFY, one per group commit (``python -m bench.bus`` compares Redis).

    .venv/bin/python -m bench.cluster [--tables 200] [--processes 1,2,3] [--routing spread,table,redirect]
                                      [--sqlite | --no-sqlite] [--pace-seconds 20] [--flat-seconds 10]
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
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import asyncpg

from bench.ws_clients import Seat, Table, gather_limited, open_real_table, play, report
from bench.ws_servers import Server, pct

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
PACE = 2.0  # seconds between a table's moves at the pace


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase of a run: moves/s, latency quantiles in ms, CPU per move in µs (web processes, database)."""

    rate: float
    p50: float
    p99: float
    cpu: float
    database_cpu: float


@dataclass(frozen=True, slots=True)
class Run:
    """One set-up's phases: at the pace, then flat out."""

    label: str
    pace: Phase
    flat: Phase


async def connect_seats(session: aiohttp.ClientSession, servers: list[Server], table_id: str, auths: list[str],
                        table: Table) -> None:
    """Seat i's socket goes to ``servers[i mod len(servers)]``, and on to the owner's address if redirected."""
    for i, auth in enumerate(auths):
        url = servers[i % len(servers)].url
        while True:
            ws = await session.ws_connect(f"{url}/ws/{table_id}", compress=0, max_msg_size=1 << 20)
            await ws.send_str(json.dumps({"type": "hello", "init_data": auth, "last_seq": None}))
            welcome = json.loads((await ws.receive()).data)
            if welcome["type"] != "redirect":
                break
            await ws.close()
            url = welcome["url"]
        seat = Seat(table, i, ws)
        table.seats.append(seat)
        seat.view, seat.seq = welcome["view"], welcome["seq"]


class DatabaseCpu:
    """The CPU time of the PostgreSQL backends serving one database (on this machine), from their schedstat."""

    def __init__(self, admin: asyncpg.Connection | None, name: str) -> None:
        self.admin, self.name = admin, name
        self._seen: dict[int, int] = {}  # backend pid: nanoseconds at the phase's start

    async def _now(self) -> dict[int, int]:
        if self.admin is None:
            return {}
        pids = await self.admin.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", self.name)
        return schedstats([pid for (pid,) in pids])

    async def start(self) -> None:
        self._seen = await self._now()

    async def seconds(self) -> float:
        """CPU seconds since ``start`` of the backends seen then or now (a new one counts from zero)."""
        now = await self._now()
        return sum(ns - self._seen.get(pid, 0) for pid, ns in now.items()) / 1e9


def schedstats(pids: list[int]) -> dict[int, int]:
    """The CPU nanoseconds of each process that this machine has and shows (``/proc/<pid>/schedstat``)."""
    found = {}
    for pid in pids:
        try:
            found[pid] = int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue  # a backend that ended meanwhile, or a server on another machine
    return found


async def run(processes: int, tables: int, pace_s: float, flat_s: float, *, sqlite: bool = False,
              routing: str = "spread") -> Run:
    """One set-up; ``routing``: spread, table (every socket of table t to process t mod N, as a proxy routing by
    table does) or redirect (spread, starting at process t mod N, and sent on to the table's owner)."""
    name = f"bench_cluster_{secrets.token_hex(4)}"
    admin: asyncpg.Connection | None = None
    data_dir = tempfile.mkdtemp(prefix="cardroom-cluster-")
    if sqlite:
        servers = [Server("serve", "--data-dir", data_dir)]
        label = "1 process, SQLite"
    else:
        admin = await asyncpg.connect(POSTGRES)
        await admin.execute(f'CREATE DATABASE "{name}"')
        database = POSTGRES.rsplit("/", 1)[0] + "/" + name
        addresses = ["--process-url", "self"] if routing == "redirect" else []
        servers = [Server("serve", "--data-dir", data_dir, "--database", database, *addresses)
                   for _ in range(processes)]
        label = f"{processes} process{'es' if processes > 1 else ''}, PostgreSQL"
        if processes > 1:
            label += {"table": ", routed by table", "redirect": ", seats spread, redirected to the owner"}.get(
                routing, ", seats spread")
    backends = DatabaseCpu(admin, name)
    phases: list[Phase] = []
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            for server in servers:
                await server.ready(session)
            opened = await gather_limited(16, [open_real_table(session, servers[t % len(servers)].url, t)
                                               for t in range(tables)])
            played = [Table(random.Random(t)) for t in range(tables)]
            await gather_limited(32, [connect_seats(session, [servers[t % len(servers)]] if routing == "table"
                                                    else servers[t % len(servers):] + servers[:t % len(servers)]
                                                    if routing == "redirect" else servers, tid, auths, table)
                                      for t, ((tid, auths), table) in enumerate(zip(opened, played, strict=True))])
            readers = [asyncio.create_task(s.read()) for t in played for s in t.seats]
            await asyncio.sleep(1.0)
            print(f"{label}, {tables} tables:", flush=True)
            for phase_label, seconds, pace in ((f"a move every {PACE:g} s", pace_s, PACE),
                                               ("flat out", flat_s, None)):
                await backends.start()
                cpu0, t0 = sum(s.cpu() for s in servers), time.perf_counter()
                latencies = await play(played, seconds, pace)
                elapsed = time.perf_counter() - t0
                cpu = sum(s.cpu() for s in servers) - cpu0
                database_s = await backends.seconds()
                report(phase_label, latencies, cpu, elapsed)
                moves = max(1, len(latencies))
                phases.append(Phase(len(latencies) / elapsed, pct(latencies, 0.50), pct(latencies, 0.99),
                                    cpu / moves * 1e6, database_s / moves * 1e6))
            print(f"  refusals {sum(t.refusals for t in played)}", flush=True)
            for table in played:
                for seat in table.seats:
                    await seat.ws.close()
            for task in readers:
                task.cancel()
    finally:
        for server in servers:
            server.stop()
        if admin is not None:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.close()
        shutil.rmtree(data_dir, ignore_errors=True)
    return Run(label, phases[0], phases[1])


def side_by_side(runs: list[Run]) -> None:
    """The runs as one Markdown table (CPU: the web processes' + the database backends' per move)."""
    print("\n| set-up | at the pace: moves/s, p50 / p99 ms, CPU a move µs (web + database) "
          "| flat out: moves/s, p50 / p99 ms, CPU a move µs (web + database) |")
    print("| --- | --- | --- |")
    for one in runs:
        cells = [f"{p.rate:,.0f}/s, {p.p50:.1f} / {p.p99:.1f} ms, {p.cpu:,.0f} + {p.database_cpu:,.0f} µs"
                 for p in (one.pace, one.flat)]
        print(f"| {one.label} | {cells[0]} | {cells[1]} |", flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--processes", default="1,2,3")
    parser.add_argument("--routing", default="spread,table",
                        help="spread: seat i on process i mod N; table: every seat of table t on process t mod N; "
                             "redirect: seat i of table t on process t + i mod N, sent on to the table's owner")
    parser.add_argument("--sqlite", action=argparse.BooleanOptionalAction, default=True,
                        help="one SQLite process too, beside the PostgreSQL runs")
    parser.add_argument("--pace-seconds", type=float, default=20.0)
    parser.add_argument("--flat-seconds", type=float, default=10.0)
    args = parser.parse_args()
    routings = args.routing.split(",")
    runs = []
    for n in [int(x) for x in args.processes.split(",") if x]:
        for routing in routings if n > 1 else routings[:1]:
            runs.append(await run(n, args.tables, args.pace_seconds, args.flat_seconds, routing=routing))
    if args.sqlite:
        runs.append(await run(1, args.tables, args.pace_seconds, args.flat_seconds, sqlite=True))
    side_by_side(runs)


if __name__ == "__main__":
    asyncio.run(main())
