"""Restart benchmark: how long the real web process takes to answer after a restart, with N unfinished tables.

Run: ``python -m bench.restart`` (``--help`` for sizes). Prints a table; asserts nothing.
For each database (a SQLite file, and a fresh PostgreSQL database that is dropped afterwards)
and each size, it writes N tables in play straight into the store's schema (bulk inserts:
rows, seats and a log of real legal moves, so any table replays if it is opened), then
starts ``python -m webapp`` on a free port with no BOT_TOKEN and measures the time from
spawn until ``/healthz`` answers, and the process's resident memory (VmRSS) then and a
moment later. The starts go round every database in turn, ``--repeat`` rounds, so a busy
moment of the machine hits every size alike; each figure is the median (and the fastest)
start. The service loads tables when they are used, so neither figure should grow with N.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from engine import games
from engine.core.rng import seed_hash
from engine.store.database import Store, database_url
from engine.store.schema import actions, seats, tables

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
GAMES = ("coins", "sergeant_major", "kings_corner")
CHUNK = 5000


@dataclass(frozen=True)
class Played:
    """One game in play: its game, options, seat count, seed and the moves made so far."""

    game: str
    size: int
    seed: str
    log: tuple[tuple[int, dict[str, Any]], ...]


def played_games(count: int, moves: int) -> list[Played]:
    """``count`` games of random legal play, ``moves`` moves each (stopping short of the end)."""
    rnd = random.Random(5)
    out = []
    for i in range(count):
        name = GAMES[i % len(GAMES)]
        game = games.get(name)
        size = 3 if name != "kings_corner" else 2 + i % 3
        seed = secrets.token_hex(32)
        state = game.new_game(None, size, seed)
        log = []
        for _ in range(moves):
            seat = min(game.to_act(state))
            legal = game.legal_actions(state, seat)
            action = dict(legal[rnd.randrange(len(legal))])
            after, _ = game.apply(state, seat, action)
            if game.outcome(after) is not None:
                break
            state = after
            log.append((seat, action))
        out.append(Played(name, size, seed, tuple(log)))
    return out


def rows(n: int, pool: list[Played], now: float) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]],
                                                               list[dict[str, Any]]]]:
    """The table row, seat rows and action rows of each of ``n`` tables of people in the middle of a game."""
    for t in range(n):
        played = pool[t % len(pool)]
        table_id = f"bench{t:08d}"
        host = 10_000_000 + 10 * t
        table = {
            "id": table_id, "game": played.game, "options": "{}", "size": played.size, "status": "playing",
            "host_user_id": host, "chat_id": -1_000_000 - t % 5000, "seed": played.seed,
            "seed_hash": seed_hash(played.seed), "timer": "none", "deadline": None, "ai_turn": False, "meta": "{}",
            "result": None, "created_at": now, "updated_at": now, "version": 1,
        }
        seat_rows = [
            {"table_id": table_id, "seat": s, "user_id": host + s, "name": f"Player {s + 1}", "is_ai": False,
             "ai_level": "easy", "autopilot": False, "missed": 0}
            for s in range(played.size)
        ]
        action_rows = [
            {"table_id": table_id, "seq": seq, "seat": seat, "action": json.dumps(action), "auto": False,
             "created_at": now}
            for seq, (seat, action) in enumerate(played.log, start=1)
        ]
        yield table, seat_rows, action_rows


async def fill(url: str, n: int, pool: list[Played]) -> None:
    """Migrate the database and write ``n`` tables in play into it."""
    store = Store(url)
    await store.open()
    try:
        batch: tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]] = ([], [], [])
        for table, seat_rows, action_rows in rows(n, pool, time.time()):
            batch[0].append(table)
            batch[1].extend(seat_rows)
            batch[2].extend(action_rows)
            if len(batch[0]) >= CHUNK:
                await _write(store, batch)
                batch = ([], [], [])
        if batch[0]:
            await _write(store, batch)
    finally:
        await store.close()


async def _write(store: Store, batch: tuple[list[dict[str, Any]], ...]) -> None:
    async with store.writer.engine.begin() as conn:
        for table, values in zip((tables, seats, actions), batch, strict=True):
            if values:
                await conn.execute(insert(table), values)


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_kib(pid: int) -> int:
    """Resident memory of a process, from /proc/<pid>/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def start_once(env: dict[str, str], settle: float, timeout: float = 120.0) -> tuple[float, int, int]:
    """Spawn the web process; seconds until /healthz answers, VmRSS (KiB) then and ``settle`` seconds later."""
    port = free_port()
    env = {**env, "PORT": str(port), "HOST": "127.0.0.1"}
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "webapp"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the web process exited: {proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            if time.perf_counter() - start > timeout:
                raise RuntimeError("no answer from /healthz")
            time.sleep(0.005)
        ready = time.perf_counter() - start
        rss_ready = rss_kib(proc.pid)
        time.sleep(settle)
        return ready, rss_ready, rss_kib(proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()


async def _admin(admin_url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def base_env(pycache: Path) -> dict[str, str]:
    """The environment for the web process: this one without a bot token or a database choice.

    Its compiled bytecode is kept in ``pycache``, as a deployed process keeps it beside its modules,
    even where this shell says not to write it (PYTHONDONTWRITEBYTECODE): otherwise every start
    would compile the project's modules again, which no restart of a deployed process does.
    """
    dropped = ("BOT_TOKEN", "DATABASE_URL", "DATA_DIR", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    return {**env, "AI_DELAY": "0", "PYTHONPYCACHEPREFIX": str(pycache)}


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[0, 10_000, 100_000], help="table counts")
    parser.add_argument("--moves", type=int, default=12, help="moves already made at each table")
    parser.add_argument("--pool", type=int, default=600, help="distinct games the tables are copies of")
    parser.add_argument("--repeat", type=int, default=3, help="starts per figure; the median is printed")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds after /healthz for the second RSS")
    parser.add_argument("--postgres", default=POSTGRES, help="an admin URL of the PostgreSQL server")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--no-sqlite", action="store_true")
    args = parser.parse_args()
    pool = played_games(args.pool, args.moves)
    databases: list[tuple[str, int, dict[str, str]]] = []  # (kind, tables, environment of the web process)
    filled: dict[tuple[str, int], float] = {}
    dropped: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        pycache = Path(tmp) / "pycache"
        try:
            for n in args.tables:
                if not args.no_sqlite:
                    data_dir = Path(tmp) / f"sqlite-{n}"
                    t = time.perf_counter()
                    asyncio.run(fill(database_url(None, data_dir), n, pool))
                    filled["SQLite", n] = time.perf_counter() - t
                    databases.append(("SQLite", n, {**base_env(pycache), "DATA_DIR": str(data_dir)}))
                if not args.no_postgres:
                    name = f"cardroom_restart_{secrets.token_hex(4)}"
                    asyncio.run(_admin(args.postgres, f'CREATE DATABASE "{name}"'))
                    dropped.append(name)
                    url = args.postgres.rsplit("/", 1)[0] + "/" + name
                    t = time.perf_counter()
                    asyncio.run(fill(database_url(url, Path()), n, pool))
                    filled["PostgreSQL", n] = time.perf_counter() - t
                    databases.append(("PostgreSQL", n, {**base_env(pycache), "DATABASE_URL": url}))
                print(f"  filled {n:,} tables", flush=True)
            # Starts interleaved over every database, round after round, so a busy moment hits them alike.
            runs: dict[tuple[str, int], list[tuple[float, int, int]]] = {(k, n): [] for k, n, _ in databases}
            start_once(databases[0][2], 0.0)  # not counted: it writes the bytecode, as installing and a first run do
            for _ in range(args.repeat):
                for kind, n, env in databases:
                    runs[kind, n].append(start_once(env, args.settle))
        finally:
            for name in dropped:
                asyncio.run(_admin(args.postgres, f'DROP DATABASE "{name}" WITH (FORCE)'))
    med = statistics.median
    print(f"\nrestart of `python -m webapp`, {args.repeat} starts each, interleaved "
          f"({args.moves} moves logged per table):")
    later = f"+{args.settle:g} s"
    print(f"  {'database':10s} {'tables':>8s} {'fill s':>8s} {'ready s':>8s} {'(min)':>7s} {'RSS MiB':>8s} {later:>8s}")
    for (kind, n), got in runs.items():
        ready = [r[0] for r in got]
        print(f"  {kind:10s} {n:8,d} {filled[kind, n]:8.1f} {med(ready):8.2f} {min(ready):7.2f} "
              f"{med(r[1] for r in got) / 1024:8.1f} {med(r[2] for r in got) / 1024:8.1f}")

if __name__ == "__main__":
    main()
