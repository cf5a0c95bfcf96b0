"""The servers ``bench.ws`` and ``bench.cluster`` measure, each in a process of its own.

``serve``: the real app with a bench bot token, every move durably stored before it is
acknowledged; ``serve_baseline``: a bare aiohttp socket server that answers each frame
by sending one message to each of its room's three sockets, the baseline for CPU per
move. ``Server`` starts either as a subprocess and reads its CPU time and memory.

    python -m bench.ws_servers serve|baseline --port N [--data-dir D] [--database URL]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import aiohttp
from aiohttp import web

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TOKEN = "4242:bench-token-not-a-real-bot"
SLOW_COMMIT = 0.05  # seconds: a commit this long holds up every table (counted, and whether a checkpoint ran)


def pct(values: list[float], p: float) -> float:
    """The ``p`` quantile of seconds, in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000 if ordered else float("nan")


def serve(port: int, data_dir: str, database: str | None = None, collect_after: tuple[int, ...] = (),
          commit_delay_ms: float | None = None, process_url: str | None = None) -> None:
    """The real app with a bench bot token (the bot itself is not started)."""
    from engine.config import Settings
    from webapp.app import freeze_start_up, make_app

    # flat out, one seat can lead trick after trick far faster than a person: no flood limit here
    settings = Settings(host="127.0.0.1", port=port, data_dir=Path(data_dir), bot_token=TOKEN, ai_delay=0.0,
                        database_url=database or None, flood_rate=100_000.0, flood_burst=100_000,
                        max_sockets_per_user=100, max_open_tables_per_user=100, new_tables_rate=0.0,
                        max_unauthenticated_per_address=100_000, max_unauthenticated_sockets=100_000)
    if commit_delay_ms is not None:
        settings = replace(settings, commit_delay=commit_delay_ms / 1000)
    if process_url:  # "self": this server's own address, where other processes send its tables' sockets
        settings = replace(settings, process_url=f"http://127.0.0.1:{port}" if process_url == "self" else process_url)
    phases = Phases()
    _count_commits(phases)
    _count_collections(phases)
    app = make_app(settings, bot=False)
    app.on_startup.append(freeze_start_up)  # as python -m webapp does
    app.on_startup.append(phases.listen)
    if collect_after:  # another choice of the collector's thresholds than the server's own, to compare

        async def thresholds(_app: web.Application) -> None:
            gc.set_threshold(*collect_after)

        app.on_startup.append(thresholds)
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)


class Phases:
    """What the server counts phase by phase, printed at the end of each (``Server.mark``).

    SIGUSR2 starts a phase (forget what came before: the setting up is not the play);
    SIGUSR1 ends one (print and forget).
    """

    def __init__(self) -> None:
        self.reports: list[Callable[[], None]] = []
        self.resets: list[Callable[[], None]] = []

    async def listen(self, _app: web.Application) -> None:
        def report() -> None:
            for each in self.reports:
                each()
            forget()

        def forget() -> None:
            for each in self.resets:
                each()

        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGUSR1, report)
        loop.add_signal_handler(signal.SIGUSR2, forget)


def _count_commits(phases: Phases) -> None:
    """Count how the writer grouped the moves into commits, and what the loop's commits cost, phase by phase."""
    from unittest import mock

    from engine.store.writer import Write, Writer

    # (moves, wall, CPU, whether a checkpoint was copying the WAL when it began)
    on_loop: list[tuple[int, float, float, bool]] = []  # the loop's commits of plain moves: the loop waits for them
    by_writer: list[tuple[int, float, float, bool]] = []  # the writer task's transactions (tables, seats, finishes)
    write_batch = Writer._write_batch

    async def counted(self: Writer, batch: list[Write]) -> None:
        t0, checkpointing = time.perf_counter(), self._checkpoint is not None
        await write_batch(self, batch)
        by_writer.append((len(batch), time.perf_counter() - t0, 0.0, checkpointing))

    commit_moves = Writer._commit_moves

    def counted_on_loop(self: Writer) -> None:
        waiting, t0, c0 = len(self._moves_waiting), time.perf_counter(), time.thread_time()
        checkpointing = self._checkpoint is not None
        commits = self.commits
        commit_moves(self)
        if self.commits > commits:  # a commit was made (not put off behind the writer, nor sent its way)
            on_loop.append((waiting, time.perf_counter() - t0, time.thread_time() - c0, checkpointing))

    mock.patch.object(Writer, "_write_batch", counted).start()  # for the life of the server process
    mock.patch.object(Writer, "_commit_moves", counted_on_loop).start()

    def report() -> None:
        for label, batches in (("the loop's commits of moves", on_loop), ("the writer task's commits", by_writer)):
            if batches:
                moves = sum(b[0] for b in batches)
                walls = sorted(b[1] for b in batches)
                cpu = sum(b[2] for b in batches)
                slow = [b for b in batches if b[1] > SLOW_COMMIT]
                during = sum(1 for b in slow if b[3])
                cost = (f"; {1e6 * cpu / len(batches):.0f} µs of CPU a commit, the sync included, "
                        f"{1e6 * cpu / moves:.0f} µs a move") if cpu else ""
                longest = max(batches, key=lambda b: b[1])  # its CPU tells work from waiting (the disk, a lock)
                of_it = f" ({1000 * longest[2]:.1f} ms of it CPU)" if cpu else ""
                print(f"  ({label}: {moves} in {len(batches)}, {moves / len(batches):.1f} a commit; "
                      f"wall p50 {pct(walls, 0.5):.1f} ms, p99 {pct(walls, 0.99):.1f} ms, "
                      f"max {1000 * walls[-1]:.1f} ms{of_it}{cost}; {len(slow)} over {1000 * SLOW_COMMIT:.0f} ms, "
                      f"{during} of them begun while a checkpoint ran)", file=sys.stderr, flush=True)

    def forget() -> None:
        on_loop.clear()
        by_writer.clear()

    phases.reports.append(report)
    phases.resets.append(forget)


def _count_collections(phases: Phases) -> None:
    """Count the garbage collector's pauses in the server phase by phase (each holds up every table)."""
    pauses: list[tuple[int, float, float]] = []  # generation, wall seconds, CPU seconds
    began = [0.0, 0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[:] = time.perf_counter(), time.thread_time()
        else:
            pauses.append((info["generation"], time.perf_counter() - began[0], time.thread_time() - began[1]))

    gc.callbacks.append(timed)

    def report() -> None:
        if not pauses:
            print("  (no collection in that phase)", file=sys.stderr, flush=True)
        for generation in (0, 1, 2):
            walls = sorted(w for g, w, _ in pauses if g == generation)
            cpus = sorted(c for g, _, c in pauses if g == generation)
            if walls:
                print(f"  (collections of generation {generation}: {len(walls)}, longest {walls[-1] * 1000:.1f} ms "
                      f"wall, {cpus[-1] * 1000:.1f} ms CPU; {sum(walls) * 1000:.0f} ms wall in all)",
                      file=sys.stderr, flush=True)

    phases.reports.append(report)
    phases.resets.append(pauses.clear)


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
        """The server's CPU seconds so far, to the nanosecond: the kernel's schedstat of each thread, not clock ticks.

        A thread that ends takes its count along; ``threads`` tells whether one ended between two readings.
        """
        total = 0
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except (FileNotFoundError, ProcessLookupError):
                continue  # a thread that ended meanwhile
        return total / 1e9

    def threads(self) -> set[str]:
        """The server's threads now."""
        return {task.name for task in Path(f"/proc/{self.proc.pid}/task").iterdir()}

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def mark(self, *, report: bool) -> None:
        """Start a phase of the server's counts of collections and commits (``report``: print the one that ends)."""
        self.proc.send_signal(signal.SIGUSR1 if report else signal.SIGUSR2)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("serve", "baseline"))
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--data-dir", default="")
    parser.add_argument("--database", default="")
    parser.add_argument("--collect-after", default="", help="the garbage collector's thresholds, e.g. 700,10,10")
    parser.add_argument("--commit-delay-ms", type=float, default=None, help="the most a commit of moves waits")
    parser.add_argument("--process-url", default="", help="this process's address for redirected sockets ('self')")
    parsed = parser.parse_args()
    if parsed.mode == "serve":
        collect_after = tuple(int(v) for v in parsed.collect_after.split(",")) if parsed.collect_after else ()
        serve(parsed.port, parsed.data_dir, parsed.database, collect_after, parsed.commit_delay_ms,
              parsed.process_url or None)
    else:
        serve_baseline(parsed.port)
