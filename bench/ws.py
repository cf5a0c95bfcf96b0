"""Table sockets under load: N Coins tables played over loopback WebSockets, three seats each.

For each N (default 1, 100, 1000) a fresh server process (the real app, SQLite store,
every move durably stored before it is acknowledged) gets N tables of three
authenticated people. Each table plays at a realistic pace (a move every 2 s) and then
flat out. Printed per phase: moves, p50/p99 latency from a move sent to all three seats
updated, server CPU per move. Per N: server memory per connected table. The same run
measures a bare aiohttp server that answers each frame by sending three messages of the
same sizes, the baseline for CPU per move. Finally, the page's first-load bytes.

    .venv/bin/python -m bench.ws [--tables 1,100,1000] [--pace-seconds 20] [--flat-seconds 10] [--rounds 1]
                                 [--collect-after A,B,C] [--commit-delay-ms D]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.page import page_weight  # noqa: E402  (the project root is on the path only now)
from bench.ws_clients import (  # noqa: E402
    PACE,
    Seat,
    Table,
    connect_table,
    gather_limited,
    open_real_table,
    play,
    report,
)
from bench.ws_servers import Server  # noqa: E402

PACED_MOVES = 60  # at the pace a single table makes a move every 2 s: 20 s would be 10 moves, too few to tell


async def bench_real(
    n: int, pace_s: float, flat_s: float, server_args: tuple[str, ...] = ()
) -> tuple[list[int], dict[str, float]]:
    data_dir = tempfile.mkdtemp(prefix="cardroom-bench-")
    server = Server("serve", "--data-dir", data_dir, *server_args)
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as session:
        await server.ready(session)
        await open_real_table(session, server.url, -1)  # warm up every path once
        await asyncio.sleep(0.5)
        rss0 = server.rss_kb()
        t0 = time.perf_counter()
        opened = await gather_limited(32, [open_real_table(session, server.url, t) for t in range(n)])
        tables = [Table(random.Random(t)) for t in range(n)]
        await gather_limited(64, [connect_table(session, f"{server.url}/ws/{tid}", auths, table)
                                  for (tid, auths), table in zip(opened, tables, strict=True)])
        readers = [asyncio.create_task(s.read()) for t in tables for s in t.seats]
        await asyncio.sleep(1.0)
        rss1 = server.rss_kb()
        print(f"N={n}: {n} tables opened and {3 * n} sockets connected in {time.perf_counter() - t0:.1f} s; "
              f"server memory {(rss1 - rss0) / n:.1f} KB per connected table (RSS {rss0 // 1024} -> "
              f"{rss1 // 1024} MB)", flush=True)
        out = {}
        server.mark(report=False)  # the collections and commits of setting up are not the play's
        phases = (("real, a move every 2 s", paced(pace_s, n), PACE), ("real, flat out", flat_s, None))
        for label, seconds, pace in phases:
            threads, cpu0, t0 = server.threads(), server.cpu(), time.perf_counter()
            latencies = await play(tables, seconds, pace)
            out[label] = report(label, latencies, server.cpu() - cpu0, time.perf_counter() - t0)
            if threads - server.threads():
                print("  (a server thread ended in that phase: its CPU is not counted)", flush=True)
            server.mark(report=True)  # this phase's collections and commits
            await asyncio.sleep(0.2)  # printed before the next phase's line
        refusals = sum(t.refusals for t in tables)
        sizes = [statistics.median(s.sizes) for s in tables[0].seats]
        for t in tables:
            for s in t.seats:
                await s.ws.close()
        for task in readers:
            task.cancel()
    server.stop()
    with contextlib.closing(sqlite3.connect(Path(data_dir) / "cardroom.db")) as db:
        stored = db.execute("SELECT count(*) FROM actions").fetchone()[0]
    # left behind, a round's tens of megabytes are written back to disk during the next round's syncs
    shutil.rmtree(data_dir)
    moved = sum(t.seats[0].view["seq"] for t in tables)
    print(f"  moves stored {stored} = moves played {moved}: {stored == moved}; refusals {refusals}; "
          f"update frame sizes {[int(s) for s in sizes]} bytes", flush=True)
    return [int(s) for s in sizes], out


def paced(seconds: float, n: int) -> float:
    """How long ``n`` tables play at the pace: ``seconds``, or long enough for ``PACED_MOVES`` moves in all."""
    return max(seconds, PACED_MOVES * PACE / n)


async def bench_baseline(n: int, sizes: list[int], pace_s: float, flat_s: float) -> dict[str, float]:
    server = Server("baseline")
    out = {}
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        await server.ready(session)
        tables = [Table(random.Random(t)) for t in range(n)]
        query = ",".join(map(str, sizes))

        async def connect(t: int, table: Table) -> None:
            table.baseline = True
            for i in range(3):
                ws = await session.ws_connect(f"{server.url}/ws/r{t}?sizes={query}", compress=0)
                seat = Seat(table, i, ws)
                table.seats.append(seat)
                await ws.receive()

        await gather_limited(64, [connect(t, table) for t, table in enumerate(tables)])
        readers = [asyncio.create_task(s.read()) for t in tables for s in t.seats]
        phases = (("bare aiohttp, every 2 s", paced(pace_s, n), PACE), ("bare aiohttp, flat out", flat_s, None))
        for label, seconds, pace in phases:
            cpu0, t0 = server.cpu(), time.perf_counter()
            latencies = await play(tables, seconds, pace)
            out[label] = report(label, latencies, server.cpu() - cpu0, time.perf_counter() - t0)
        for t in tables:
            for s in t.seats:
                await s.ws.close()
        for task in readers:
            task.cancel()
    server.stop()
    return out


async def first_load_bytes() -> None:
    """The page and every static file it links, as a browser would first fetch them."""
    data_dir = tempfile.mkdtemp(prefix="cardroom-bench-")
    server = Server("serve", "--data-dir", data_dir)
    async with aiohttp.ClientSession(auto_decompress=False) as session:
        await server.ready(session)
        files, wire, raw = await page_weight(session, server.url)
    server.stop()
    shutil.rmtree(data_dir)
    print(f"page first load: {files} files, {wire / 1024:.1f} KB on the wire ({raw / 1024:.1f} KB uncompressed), "
          "telegram-web-app.js aside", flush=True)


async def main(args: argparse.Namespace) -> None:
    print(f"bench/ws.py on {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, aiohttp {aiohttp.__version__}")
    for n in [int(x) for x in args.tables.split(",")]:
        rounds: list[list[float]] = []
        for _ in range(args.rounds):  # the machine's pace drifts: each round measures Cardroom and bare side by side
            sizes, real = await bench_real(n, args.pace_seconds, args.flat_seconds, server_args(args))
            base = await bench_baseline(n, sizes, args.pace_seconds, args.flat_seconds)
            ratios = [r / b if b else float("nan") for r, b in zip(real.values(), base.values(), strict=True)]
            rounds.append(ratios)
            print(f"  server CPU per move vs bare aiohttp: {ratios[0]:.1f}x at the pace, {ratios[1]:.1f}x flat out\n")
        if len(rounds) > 1:
            pace, flat = (statistics.median(r[i] for r in rounds) for i in (0, 1))
            print(f"N={n}, median of {len(rounds)} rounds: {pace:.2f}x at the pace, {flat:.2f}x flat out "
                  f"(at the pace: {', '.join(f'{r[0]:.2f}' for r in rounds)})\n", flush=True)
    await first_load_bytes()


def server_args(args: argparse.Namespace) -> tuple[str, ...]:
    """The real server's settings that differ from its own, to compare."""
    found: tuple[str, ...] = ()
    if args.collect_after:
        found += ("--collect-after", args.collect_after)
    if args.commit_delay_ms is not None:
        found += ("--commit-delay-ms", str(args.commit_delay_ms))
    return found


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="1,100,1000")
    parser.add_argument("--pace-seconds", type=float, default=20.0)
    parser.add_argument("--flat-seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of Cardroom then bare for each N; prints the median")
    parser.add_argument("--collect-after", default="",
                        help="the server's garbage collector thresholds instead of its own, e.g. 700,10,10")
    parser.add_argument("--commit-delay-ms", type=float, default=None,
                        help="how long a commit of moves may wait for others instead of the server's own (0: never)")
    asyncio.run(main(parser.parse_args()))
