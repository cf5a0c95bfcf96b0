"""Table sockets under load: N Coins tables played over loopback WebSockets, three seats each.

For each N (default 1, 100, 1000) a fresh server process (the real app, SQLite store,
every move durably stored before it is acknowledged) gets N tables of three
authenticated people. Each table plays at a realistic pace (a move every 2 s) and then
flat out. Printed per phase: moves, p50/p99 latency from a move sent to all three seats
updated, server CPU per move. Per N: server memory per connected table. Side by side runs
a bare aiohttp server that answers each frame by sending three messages of the same
sizes, the baseline for CPU per move: the two take turns every few seconds (``--slices``
turns a phase), so both meet the same drift of the machine. Finally, the page's
first-load bytes.

    .venv/bin/python -m bench.ws [--tables 1,100,1000] [--pace-seconds 20] [--flat-seconds 10] [--rounds 1]
                                 [--slices 4] [--collect-after A,B,C] [--commit-delay-ms D]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
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

SLOW_CLIENT = 0.005  # seconds: a longer collection of the bench client is printed
WARM_UP = 1.0  # seconds flat out before the phases: every path warm, the update frames' sizes known
PACED_MOVES = 60  # at the pace a single table makes a move every 2 s: 20 s would be 10 moves, too few to tell


@dataclass
class Played:
    """What one server did in a phase, added up over its slices."""

    latencies: list[float] = field(default_factory=list)
    cpu: float = 0.0
    seconds: float = 0.0
    lost_thread: bool = False  # a server thread ended meanwhile: its CPU is not counted
    client_pause: float = 0.0  # the bench client's longest collection: it delays every latency it measures


class ClientPauses:
    """The bench client's own garbage collections, timed: a pause of the client looks like a slow server."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._began = 0.0
        gc.callbacks.append(self._timed)

    def _timed(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.longest = max(self.longest, time.perf_counter() - self._began)

    def take(self) -> float:
        """The longest pause since the last call."""
        longest, self.longest = self.longest, 0.0
        return longest

    def close(self) -> None:
        gc.callbacks.remove(self._timed)


@dataclass(eq=False)
class Rig:
    """A server with its tables connected, played slice by slice."""

    server: Server
    tables: list[Table]
    readers: list[asyncio.Task[None]]

    async def play(self, played: Played, seconds: float, pace: float | None, pauses: ClientPauses) -> None:
        threads, cpu0, t0 = self.server.threads(), self.server.cpu(), time.perf_counter()
        pauses.take()
        played.latencies += await play(self.tables, seconds, pace)
        played.cpu += self.server.cpu() - cpu0
        played.seconds += time.perf_counter() - t0
        played.lost_thread |= bool(threads - self.server.threads())
        played.client_pause = max(played.client_pause, pauses.take())
        gc.collect()  # between turns, when no latency is being measured (the collector is off during them)

    async def close(self) -> None:
        for t in self.tables:
            for s in t.seats:
                await s.ws.close()
        for task in self.readers:
            task.cancel()
        self.server.stop()


async def open_real(session: aiohttp.ClientSession, n: int, data_dir: str, server_args: tuple[str, ...]) -> Rig:
    """The real server with ``n`` tables of three people connected; prints its memory per table."""
    server = Server("serve", "--data-dir", data_dir, *server_args)
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
    return Rig(server, tables, readers)


async def open_bare(session: aiohttp.ClientSession, n: int, sizes: list[int]) -> Rig:
    """The bare aiohttp server with ``n`` rooms of three sockets, answering with frames of ``sizes``."""
    server = Server("baseline")
    await server.ready(session)
    tables = [Table(random.Random(t)) for t in range(n)]
    query = ",".join(map(str, sizes))

    async def connect(t: int, table: Table) -> None:
        table.baseline = True
        for i in range(3):
            ws = await session.ws_connect(f"{server.url}/ws/r{t}?sizes={query}", compress=0)
            table.seats.append(Seat(table, i, ws))
            await ws.receive()

    await gather_limited(64, [connect(t, table) for t, table in enumerate(tables)])
    return Rig(server, tables, [asyncio.create_task(s.read()) for t in tables for s in t.seats])


async def bench_side_by_side(
    n: int, pace_s: float, flat_s: float, slices: int, server_args: tuple[str, ...] = ()
) -> list[float]:
    """Each phase played by the real server and the bare one in turns, ``slices`` turns each; CPU ratios per phase.

    The machine's pace drifts by tens of percent over minutes (other guests on the host): taking
    turns every few seconds, both servers meet the same drift, and the ratio holds still.
    """
    data_dir = tempfile.mkdtemp(prefix="cardroom-bench-")
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        real = await open_real(session, n, data_dir, server_args)
        await play(real.tables, WARM_UP, None)  # every path warm, and the update frames' sizes known
        sizes = [int(statistics.median(s.sizes)) for s in real.tables[0].seats]
        bare = await open_bare(session, n, sizes)
        real.server.mark(report=False)  # the collections and commits of setting up are not the play's
        # the client's collections, left to run, paused it 60-140 ms in every phase (the seats' latest views
        # live on): its latencies looked like a slow server. They run between turns instead.
        gc.collect()
        gc.freeze()
        gc.disable()
        pauses = ClientPauses()
        ratios = []
        for labels, seconds, pace in ((("real, a move every 2 s", "bare aiohttp, every 2 s"), paced(pace_s, n), PACE),
                                      (("real, flat out", "bare aiohttp, flat out"), flat_s, None)):
            played = {real: Played(), bare: Played()}
            for _ in range(slices):
                for rig in (real, bare):
                    await rig.play(played[rig], seconds / slices, pace, pauses)
            per_move = []
            for rig, label in zip((real, bare), labels, strict=True):
                got = played[rig]
                per_move.append(report(label, got.latencies, got.cpu, got.seconds))
                if got.client_pause > SLOW_CLIENT:
                    print(f"  (the bench client paused {1000 * got.client_pause:.1f} ms to collect: "
                          "every latency it measured then is that much longer)", flush=True)
                if got.lost_thread:
                    print("  (a server thread ended in that phase: its CPU is not counted)", flush=True)
                if rig is real:
                    real.server.mark(report=True)  # this phase's collections and commits
                    await asyncio.sleep(0.2)  # printed before the next line
            ratios.append(per_move[0] / per_move[1] if per_move[1] else float("nan"))
        pauses.close()
        gc.enable()
        gc.unfreeze()
        refusals = sum(t.refusals for t in real.tables)
        moved = sum(t.seats[0].view["seq"] for t in real.tables)
        await real.close()
        await bare.close()
    with contextlib.closing(sqlite3.connect(Path(data_dir) / "cardroom.db")) as db:
        stored = db.execute("SELECT count(*) FROM actions").fetchone()[0]
    # left behind, a round's tens of megabytes are written back to disk during the next round's syncs
    shutil.rmtree(data_dir)
    print(f"  moves stored {stored} = moves played {moved}: {stored == moved}; refusals {refusals}; "
          f"update frame sizes {sizes} bytes", flush=True)
    return ratios


def paced(seconds: float, n: int) -> float:
    """How long ``n`` tables play at the pace: ``seconds``, or long enough for ``PACED_MOVES`` moves in all."""
    return max(seconds, PACED_MOVES * PACE / n)


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
        for _ in range(args.rounds):
            ratios = await bench_side_by_side(n, args.pace_seconds, args.flat_seconds, args.slices, server_args(args))
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
    parser.add_argument("--rounds", type=int, default=1, help="rounds for each N; prints the median")
    parser.add_argument("--slices", type=int, default=4,
                        help="turns Cardroom and bare aiohttp take in each phase, so both meet the machine's drift")
    parser.add_argument("--collect-after", default="",
                        help="the server's garbage collector thresholds instead of its own, e.g. 700,10,10")
    parser.add_argument("--commit-delay-ms", type=float, default=None,
                        help="how long a commit of moves may wait for others instead of the server's own (0: never)")
    asyncio.run(main(parser.parse_args()))
