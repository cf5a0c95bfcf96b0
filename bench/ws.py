"""Table sockets under load: N Coins tables played over loopback WebSockets, three seats each.

For each N (default 1, 100, 1000) a fresh server process (the real app, SQLite store,
every move durably stored before it is acknowledged) gets N tables of three
authenticated people. Each table plays at a realistic pace (a move every 2 s) and then
flat out. Printed per phase: moves, p50/p99 latency from a move sent to all three seats
updated, server CPU per move. Per N: server memory per connected table. The same run
measures a bare aiohttp server that answers each frame by sending three messages of the
same sizes, the baseline for CPU per move. Finally, the page's first-load bytes.

    .venv/bin/python -m bench.ws [--tables 1,100,1000] [--pace-seconds 20] [--flat-seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.page import page_weight  # noqa: E402  (the project root is on the path only now)

TOKEN = "4242:bench-token-not-a-real-bot"
PACE = 2.0
TICK = os.sysconf("SC_CLK_TCK")


# the servers ---------------------------------------------------------------------


def serve(port: int, data_dir: str, database: str | None = None) -> None:
    """The real app with a bench bot token (the bot itself is not started)."""
    from engine.config import Settings
    from webapp.app import make_app

    # flat out, one seat can lead trick after trick far faster than a person: no flood limit here
    settings = Settings(host="127.0.0.1", port=port, data_dir=Path(data_dir), bot_token=TOKEN, ai_delay=0.0,
                        database_url=database or None, flood_rate=100_000.0, flood_burst=100_000,
                        max_sockets_per_user=100, max_open_tables_per_user=100,
                        max_unauthenticated_per_address=100_000, max_unauthenticated_sockets=100_000)
    _count_commits()
    web.run_app(make_app(settings, bot=False), host="127.0.0.1", port=port, print=None, access_log=None)


def _count_commits() -> None:
    """Report how the store grouped the moves into commits, when the server stops."""
    import atexit
    from unittest import mock

    from engine.store.database import Store
    from engine.store.writer import Write

    batches: list[tuple[int, float]] = []
    write_batch = Store._write_batch

    async def counted(self: Store, batch: list[Write]) -> None:
        t0 = time.perf_counter()
        await write_batch(self, batch)
        batches.append((len(batch), time.perf_counter() - t0))

    mock.patch.object(Store, "_write_batch", counted).start()  # for the life of the server process

    def report() -> None:
        if batches:
            moves = sum(n for n, _ in batches)
            walls = sorted(w for _, w in batches)
            print(f"  (store: {moves} moves in {len(batches)} commits, {moves / len(batches):.1f} a commit; "
                  f"commit wall p50 {pct(walls, 0.5):.1f} ms, p99 {pct(walls, 0.99):.1f} ms)", file=sys.stderr,
                  flush=True)

    atexit.register(report)


def serve_baseline(port: int) -> None:
    """A bare aiohttp socket server: a frame from any seat of a room sends one message to each of its three."""
    rooms: dict[str, list[web.WebSocketResponse]] = {}
    seqs: dict[str, int] = {}

    async def handler(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(compress=False, max_msg_size=64 * 1024, heartbeat=30.0)
        await ws.prepare(request)
        room_id = request.match_info["room"]
        sizes = [int(s) for s in request.query["sizes"].split(",")]
        room = rooms.setdefault(room_id, [])
        room.append(ws)
        await ws.send_str('{"type":"welcome","seq":0}')
        async for _msg in ws:
            seq = seqs[room_id] = seqs.get(room_id, 0) + 1
            for peer, size in zip(room, sizes, strict=False):
                head = f'{{"type":"update","seq":{seq},"pad":"'
                await peer.send_str(head + "x" * max(0, size - len(head) - 2) + '"}')
        return ws

    app = web.Application()
    app.router.add_get("/ws/{room}", handler)

    async def healthz(_request: web.Request) -> web.Response:
        return web.json_response({"ok": True})

    app.router.add_get("/healthz", healthz)
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)


class Server:
    """A server subprocess and its CPU and memory readings."""

    def __init__(self, *args: str) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen([sys.executable, __file__, *args, "--port", str(self.port)])
        self.url = f"http://127.0.0.1:{self.port}"

    async def ready(self, session: aiohttp.ClientSession) -> None:
        for _ in range(300):
            try:
                async with session.get(self.url + "/healthz") as resp:
                    if resp.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.05)
        raise RuntimeError("server did not start")

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# the client ----------------------------------------------------------------------


class Seat:
    """One person's socket."""

    def __init__(self, table: Table, seat: int, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.table, self.seat, self.ws = table, seat, ws
        self.view: dict[str, Any] = {}
        self.seq = 0
        self.sizes: list[int] = []

    async def read(self) -> None:
        async for msg in self.ws:
            if msg.type is not aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            if frame["type"] == "update":
                self.sizes.append(len(msg.data))
            if "view" in frame:
                self.view = frame["view"]
            if frame["type"] in ("update", "welcome"):
                self.seq = frame["seq"]
                self.table.arrived()
            elif frame["type"] in ("refused", "error"):
                self.table.refusals += 1


class Table:
    """Three seats and the move in flight."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.seats: list[Seat] = []
        self.target = -1
        self.sent = 0.0
        self.done: asyncio.Future[float] | None = None
        self.refusals = 0
        self.baseline = False

    def arrived(self) -> None:
        if self.done is not None and not self.done.done() and all(s.seq >= self.target for s in self.seats):
            self.done.set_result(time.perf_counter() - self.sent)

    async def move(self) -> float | None:
        """Send one move and wait until every seat has it; the latency, or None if the game is over."""
        self.done = asyncio.get_running_loop().create_future()
        if self.baseline:
            seq = self.seats[0].seq
            mover, frame = self.seats[seq % 3], {"type": "act", "ref": f"m{seq}", "seq": seq}
        else:
            view = self.seats[0].view
            seq, state = view["seq"], view["state"]
            if state["phase"] != "play":
                return None
            mover = self.seats[state["to_act"][0]]
            card = self.rng.choice(mover.view["state"]["legal"])
            frame = {"type": "act", "ref": f"m{seq}", "seq": seq, "action": {"type": "play", "card": card}}
        self.target = seq + 1
        self.sent = time.perf_counter()
        await mover.ws.send_str(json.dumps(frame))
        return await asyncio.wait_for(self.done, 30)


async def gather_limited(n: int, coros: list[Any]) -> list[Any]:
    gate = asyncio.Semaphore(n)

    async def run(coro: Any) -> Any:
        async with gate:
            return await coro

    return await asyncio.gather(*(run(c) for c in coros))


def init_data(user_id: int, name: str) -> str:
    from webapp.auth import sign_init_data

    return sign_init_data(TOKEN, {"id": user_id, "first_name": name})


async def open_real_table(session: aiohttp.ClientSession, url: str, t: int) -> tuple[str, list[str]]:
    auths = [init_data(1_000_000 + 3 * t + i, f"P{t}.{i}") for i in range(3)]
    head = [{"Authorization": f"tma {a}"} for a in auths]
    async with session.post(url + "/api/tables", json={"game": "coins", "options": {"target_score": 99}},
                            headers=head[0]) as resp:
        table_id = (await resp.json())["id"]
    for i, op in ((1, "join"), (2, "join"), (0, "start")):
        async with session.post(f"{url}/api/tables/{table_id}/{op}", headers=head[i]) as resp:
            assert resp.status == 200, await resp.text()
    return table_id, auths


async def connect_table(session: aiohttp.ClientSession, ws_url: str, auths: list[str], table: Table) -> None:
    for i, auth in enumerate(auths):
        ws = await session.ws_connect(ws_url, compress=0, max_msg_size=1 << 20)
        await ws.send_str(json.dumps({"type": "hello", "init_data": auth, "last_seq": None}))
        seat = Seat(table, i, ws)
        table.seats.append(seat)
        msg = await ws.receive()
        welcome = json.loads(msg.data)
        seat.view, seat.seq = welcome["view"], welcome["seq"]


async def play(tables: list[Table], seconds: float, pace: float | None) -> list[float]:
    """Every table moves for ``seconds``: one move per ``pace`` seconds, or back to back when None."""
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def run(table: Table) -> None:
        next_at = time.perf_counter() + (table.rng.random() * pace if pace else 0.0)
        while True:
            if pace:
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                next_at += pace
            if time.perf_counter() >= stop:
                return
            latency = await table.move()
            if latency is None:
                return
            latencies.append(latency)

    await asyncio.gather(*(run(t) for t in tables))
    return latencies


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else float("nan")


def report(label: str, latencies: list[float], cpu: float, seconds: float) -> float:
    per_move = cpu / max(1, len(latencies)) * 1e6
    print(f"  {label:<26} {len(latencies):>7} moves {len(latencies) / seconds:>7.0f}/s   "
          f"p50 {pct(latencies, 0.50):6.2f} ms   p99 {pct(latencies, 0.99):6.2f} ms   "
          f"server CPU {per_move:6.0f} µs/move", flush=True)
    return per_move


async def bench_real(n: int, pace_s: float, flat_s: float) -> tuple[list[int], dict[str, float]]:
    data_dir = tempfile.mkdtemp(prefix="cardroom-bench-")
    server = Server("serve", "--data-dir", data_dir)
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
        for label, seconds, pace in (("real, a move every 2 s", pace_s, PACE), ("real, flat out", flat_s, None)):
            cpu0, t0 = server.cpu(), time.perf_counter()
            latencies = await play(tables, seconds, pace)
            out[label] = report(label, latencies, server.cpu() - cpu0, time.perf_counter() - t0)
        refusals = sum(t.refusals for t in tables)
        sizes = [statistics.median(s.sizes) for s in tables[0].seats]
        for t in tables:
            for s in t.seats:
                await s.ws.close()
        for task in readers:
            task.cancel()
    server.stop()
    with sqlite3.connect(Path(data_dir) / "cardroom.db") as db:
        stored = db.execute("SELECT count(*) FROM actions").fetchone()[0]
    moved = sum(t.seats[0].view["seq"] for t in tables)
    print(f"  moves stored {stored} = moves played {moved}: {stored == moved}; refusals {refusals}; "
          f"update frame sizes {[int(s) for s in sizes]} bytes", flush=True)
    return [int(s) for s in sizes], out


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
        phases = (("bare aiohttp, every 2 s", pace_s, PACE), ("bare aiohttp, flat out", flat_s, None))
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
    server = Server("serve", "--data-dir", tempfile.mkdtemp(prefix="cardroom-bench-"))
    async with aiohttp.ClientSession(auto_decompress=False) as session:
        await server.ready(session)
        files, wire, raw = await page_weight(session, server.url)
    server.stop()
    print(f"page first load: {files} files, {wire / 1024:.1f} KB on the wire ({raw / 1024:.1f} KB uncompressed), "
          "telegram-web-app.js aside", flush=True)


async def main(args: argparse.Namespace) -> None:
    print(f"bench/ws.py on {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, aiohttp {aiohttp.__version__}")
    for n in [int(x) for x in args.tables.split(",")]:
        sizes, real = await bench_real(n, args.pace_seconds, args.flat_seconds)
        base = await bench_baseline(n, sizes, args.pace_seconds, args.flat_seconds)
        ratios = [r / b if b else float("nan") for r, b in zip(real.values(), base.values(), strict=True)]
        print(f"  server CPU per move vs bare aiohttp: {ratios[0]:.1f}x at the pace, {ratios[1]:.1f}x flat out\n")
    await first_load_bytes()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", nargs="?", default="bench", choices=("bench", "serve", "baseline"))
    parser.add_argument("--tables", default="1,100,1000")
    parser.add_argument("--pace-seconds", type=float, default=20.0)
    parser.add_argument("--flat-seconds", type=float, default=10.0)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--data-dir", default="")
    parser.add_argument("--database", default="")
    parsed = parser.parse_args()
    if parsed.mode == "serve":
        serve(parsed.port, parsed.data_dir, parsed.database)
    elif parsed.mode == "baseline":
        serve_baseline(parsed.port)
    else:
        asyncio.run(main(parsed))
