"""A storm of table creation against tables in play: ``python -m bench.storm [--storms 3] [--people 50]``.

The real ``python -m webapp`` (local sign-in; SQLite, or ``--postgres URL`` for a fresh
PostgreSQL database there). A few healthy Coins tables of three people move at a pace the
whole time; between quiet spells, ``--people`` people open lobbies as fast as the server
answers them and cancel each at once (so no cap on a person's open tables stops them), obeying
``Retry-After`` when refused. Printed per phase: the healthy tables' move latency (a move sent
to all three seats updated) p50/p99/max, the lobbies opened a second and the refusals; and the
server's resident memory before the storms, after each and after a rest.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import secrets
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import aiohttp

from bench.ws_clients import Table, connect_table, play
from bench.ws_servers import pct
from tests.soak.harness import Server


def rss_mb(server: Server) -> float:
    """The server's resident memory in MB."""
    assert server.process is not None
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def sign_in(session: aiohttp.ClientSession, server: Server, name: str) -> str:
    """A local sign-in's initData."""
    async with session.post(server.url + "/api/local/signin", json={"name": name}) as resp:
        return str((await resp.json())["init_data"])


async def healthy_table(session: aiohttp.ClientSession, server: Server, t: int) -> Table:
    """A Coins table of three people, started, its three sockets open."""
    auths = [await sign_in(session, server, f"H{t}.{i}") for i in range(3)]
    head = [{"Authorization": f"tma {a}"} for a in auths]
    async with session.post(server.url + "/api/tables", json={"game": "coins", "options": {"target_score": 99}},
                            headers=head[0]) as resp:
        table_id = (await resp.json())["id"]
    for i, op in ((1, "join"), (2, "join"), (0, "start")):
        async with session.post(f"{server.url}/api/tables/{table_id}/{op}", headers=head[i]) as resp:
            assert resp.status == 200, await resp.text()
    table = Table(random.Random(t))
    await connect_table(session, server.url.replace("http", "ws") + f"/ws/{table_id}", auths, table)
    for seat in table.seats:
        asyncio.get_running_loop().create_task(seat.read())
    return table


class Storm:
    """People opening lobbies flat out (each cancelled at once); counts what they were answered. It runs in a
    process of its own (``storm_in_child``): on the loop that times the healthy tables' moves, 200 people's
    connections would delay the timing itself."""

    def __init__(self, url: str, auths: list[str]) -> None:
        self.url, self.auths = url, auths
        self.opened = 0
        self.refused: dict[str, int] = {}

    async def run(self, seconds: float) -> None:
        """Every person opens and cancels lobbies for ``seconds``."""
        stop = time.monotonic() + seconds
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            await asyncio.gather(*(self._person(session, auth, stop) for auth in self.auths))

    async def _person(self, session: aiohttp.ClientSession, auth: str, stop: float) -> None:
        head = {"Authorization": f"tma {auth}"}
        url = self.url
        while time.monotonic() < stop:
            async with session.post(url + "/api/tables", json={"game": "coins"}, headers=head) as resp:
                data = await resp.json()
                if resp.status != 200:
                    self.refused[data["code"]] = self.refused.get(data["code"], 0) + 1
                    wait = float(resp.headers.get("Retry-After", "1"))
                    await asyncio.sleep(min(wait, max(0.0, stop - time.monotonic())))
                    continue
            self.opened += 1
            async with session.post(f"{url}/api/tables/{data['id']}/cancel", headers=head) as resp:
                await resp.read()


def storm_in_child(url: str, auths: list[str], seconds: float) -> tuple[int, dict[str, int]]:
    """A storm run in a process of its own: the lobbies opened and the refusals."""
    storm = Storm(url, auths)
    asyncio.run(storm.run(seconds))
    return storm.opened, storm.refused


async def main(args: argparse.Namespace) -> int:
    """Quiet, storm, rest, ... and the figures of each phase."""
    database = None
    if args.postgres:
        import asyncpg

        name = f"cardroom_storm_{secrets.token_hex(4)}"
        admin = await asyncpg.connect(args.postgres)
        await admin.execute(f'CREATE DATABASE "{name}"')
        await admin.close()
        database = args.postgres.rsplit("/", 1)[0] + "/" + name
    with tempfile.TemporaryDirectory(prefix="cardroom-storm-") as tmp:
        server = Server(Path(tmp), database, NEW_TABLES_RATE=str(args.rate)) if args.rate is not None else \
            Server(Path(tmp), database)
        await server.start()
        try:
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
                tables = [await healthy_table(session, server, t) for t in range(args.tables)]
                auths = [await sign_in(session, server, f"S{i}") for i in range(args.people)]
                pace = "default" if args.rate is None else args.rate or "off"
                print(f"{args.tables} healthy tables, a move each {args.pace} s; {args.people} people in each storm; "
                      f"{'PostgreSQL' if database else 'SQLite'}; openings paced: {pace}", flush=True)
                print(f"  memory at the start: {rss_mb(server):.0f} MB", flush=True)
                quiet = await play(tables, args.seconds, args.pace)
                _print("quiet", quiet, None, args.seconds)
                loop = asyncio.get_running_loop()
                with ProcessPoolExecutor(1) as child:
                    await loop.run_in_executor(child, int, "0")  # the child started before the first storm
                    for n in range(1, args.storms + 1):
                        storm = Storm(server.url, auths)
                        stormy, (storm.opened, storm.refused) = await asyncio.gather(
                            play(tables, args.seconds, args.pace),
                            loop.run_in_executor(child, storm_in_child, server.url, auths, args.seconds))
                        _print(f"storm {n}", stormy, storm, args.seconds)
                        print(f"  memory after storm {n}: {rss_mb(server):.0f} MB", flush=True)
                        calm = await play(tables, args.rest, args.pace)
                        _print(f"rest {n}", calm, None, args.rest)
                        print(f"  memory after rest {n}: {rss_mb(server):.0f} MB", flush=True)
        finally:
            server.stop()
            with contextlib.suppress(Exception):
                tail = [line for line in server.log().splitlines() if "Traceback" in line]
                if tail:
                    print(f"  {len(tail)} tracebacks in the server log", flush=True)
    return 0


def _print(label: str, latencies: list[float], storm: Storm | None, seconds: float) -> None:
    line = (f"  {label:<8} {len(latencies):>5} moves  p50 {pct(latencies, 0.5):7.1f} ms  "
            f"p99 {pct(latencies, 0.99):7.1f} ms  max {max(latencies, default=0) * 1000:7.1f} ms")
    if storm is not None:
        line += f"  lobbies opened {storm.opened / seconds:.1f}/s, refused {storm.refused}"
    print(line, flush=True)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--storms", type=int, default=3)
    parser.add_argument("--people", type=int, default=50, help="people opening lobbies in each storm")
    parser.add_argument("--tables", type=int, default=5, help="healthy tables in play")
    parser.add_argument("--pace", type=float, default=0.25, help="seconds between a healthy table's moves")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of each storm (and of the quiet)")
    parser.add_argument("--rest", type=float, default=10.0, help="seconds of rest after each storm")
    parser.add_argument("--postgres", help="a PostgreSQL admin URL: run on a fresh database there")
    parser.add_argument("--rate", type=float, help="the process's NEW_TABLES_RATE (0: openings unpaced)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse())))
