"""Turn messages within Telegram's limits: the real product against the fake Bot API, many tables opened from groups.

Each run starts ``python -m webapp`` (one process on SQLite, or several on a fresh
PostgreSQL database, each person's socket on one of them in turn, no proxy) with a bot
token, long polling the local fake Bot API server of ``tests/fakes/botapi``, which enforces
Telegram's limits (about 30 calls a second, one a second per chat, 20 a minute per group;
429 with retry_after beyond) and records every call. N Coins tables of three people are
opened as people do: each person has started the bot, the host sends ``/new coins`` in the
table's own group, the others press Join, and the host presses Start (the tables' starts
spread over the first seconds). Then everyone plays for ``--seconds`` (``bench.notify_players``):
people at the table keep a socket open; away people open the table only once their private
turn message has reached the fake, move, and close it again.

One markdown row per run: moves; Bot API calls per move (every call but getUpdates' long
polls, all processes together); calls a second, mean and the busiest second; 429 answers;
the away people's turn-message delay from the moment their turn began (when the move that
began it was sent) to the message's arrival at the fake, p50/p95/max, and how many of their
turns got none by the end (after the play, 30 s are left for messages still on their way); the
share of turn messages that arrived after the turn was over; turn messages sent to people at
the table; edits of the groups' messages per minute per group, mean and max.

    .venv/bin/python -m bench.notify [--tables 5,50] [--processes 1] [--away 0.0] [--seconds 60] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg

from bench.notify_players import Arrivals, Person, Play, Timeline, is_turn_message
from bench.ws_servers import free_port
from tests.fakes.botapi import FakeBotApi
from webapp.auth import sign_init_data

ROOT = Path(__file__).resolve().parent.parent
POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
OPENINGS_PER_SECOND = 8  # the hosts' /new, below the product's pace of new tables (NEW_TABLES_RATE, 10 a second)
TOKEN = "424242:bench-notify-not-a-real-bot"
START_SPREAD = 10.0  # seconds over which the tables' Start presses are spread (at most a quarter of the run)
GRACE = 30.0  # seconds after the play for turn messages still on their way to the away people
PROGRESS_EVERY = 5.0
EDITS = ("editMessageText", "editMessageReplyMarkup", "editMessageCaption")


class Product:
    """``python -m webapp`` processes with the bot, polling the fake Bot API; their logs in the data folder."""

    def __init__(self, processes: int, fake: FakeBotApi, data_dir: Path, database: str | None) -> None:
        self.fake, self.data_dir = fake, data_dir
        self.ports = [free_port() for _ in range(processes)]
        self.urls = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.procs: list[subprocess.Popen[bytes]] = []
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "WEBAPP_URL", "WEBHOOK_SECRET")}
        env.update(BOT_TOKEN=fake.token, BOT_API_BASE_URL=fake.base_url, MINIAPP_SHORT_NAME="play",
                   HOST="127.0.0.1", DATA_DIR=str(data_dir), PYTHONUNBUFFERED="1",
                   # every socket of the run comes from 127.0.0.1, and people open their tables at the same moments
                   MAX_UNAUTHENTICATED_PER_ADDRESS="100000", MAX_UNAUTHENTICATED_SOCKETS="100000")
        if database:
            env["DATABASE_URL"] = database
        self.env = env

    def start(self) -> None:
        """Spawn every process (not waiting for them)."""
        for i, port in enumerate(self.ports):
            with (self.data_dir / f"webapp-{i}.log").open("ab") as log:
                self.procs.append(subprocess.Popen([sys.executable, "-m", "webapp"], cwd=ROOT,
                                                   env={**self.env, "PORT": str(port)}, stdout=log,
                                                   stderr=subprocess.STDOUT))

    async def ready(self, session: aiohttp.ClientSession, within: float = 60.0) -> None:
        """Wait until every process answers and one of them polls the fake for updates."""
        deadline = time.monotonic() + within
        for proc, url in zip(self.procs, self.urls, strict=True):
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"{url} exited with {proc.returncode}:\n{self.logs()[-3000:]}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{url} did not start:\n{self.logs()[-3000:]}")
                with contextlib.suppress(aiohttp.ClientError, OSError):
                    async with session.get(url + "/healthz") as resp:
                        health = await resp.json()
                        if health.get("bot", {}).get("state") in ("running", "standby"):
                            break
                await asyncio.sleep(0.1)
        await self.fake.wait_until(lambda: bool(self.fake.calls_to("getUpdates")), within=within)

    def stop(self) -> None:
        """SIGTERM each process and wait for it."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def logs(self) -> str:
        """Every process's log, one after the other."""
        return "".join(p.read_text(errors="replace") for p in sorted(self.data_dir.glob("webapp-*.log")))


@dataclass
class Group:
    """One table's group and its three people (the first hosts)."""

    chat_id: int
    users: list[int]
    auths: list[str]
    table_id: str = ""
    seats: dict[int, int] = field(default_factory=dict)  # user id -> seat
    timeline: Timeline = field(default_factory=lambda: Timeline(""))


async def open_tables(fake: FakeBotApi, groups: list[Group], session: aiohttp.ClientSession, url: str) -> None:
    """Everyone starts the bot; in each group /new coins, and the two others press Join (the host presses Start
    later). A Join pressed before the bot has written down its lobby is refused, as on Telegram: pressed again."""
    for g in groups:
        fake.add_group(g.chat_id, f"Cards {-g.chat_id % 10_000}")
        for i, user in enumerate(g.users):
            fake.add_user(user, f"P{-g.chat_id % 10_000}.{i}")
            await fake.send_update(fake.message(user, user, "/start"))
    await fake.wait_until(lambda: all(fake.messages(u) for g in groups for u in g.users), within=300)
    for g in groups:  # within the product's pace of openings (10 a second), which refuses the ones beyond
        await fake.send_update(fake.message(g.chat_id, g.users[0], "/new coins target=99"))
        await asyncio.sleep(1 / OPENINGS_PER_SECOND)
    await fake.wait_until(lambda: all(lobby(fake, g, "Join") is not None for g in groups), within=300)
    for g in groups:
        g.table_id = lobby(fake, g, "Join").button("Join")["callback_data"].split(":")[1]
        g.timeline = Timeline(g.table_id)
    for _ in range(10):
        await asyncio.sleep(1.0)  # people read the lobby before they press
        presses = []
        for g in groups:
            g.seats = await seating(session, url, g)
            for user in g.users:
                if user not in g.seats:
                    presses.append(fake.press(user, lobby(fake, g, "Join"), "Join"))
                    await fake.send_update(presses[-1])
        if not presses:
            return
        await fake.wait_until(answered(fake, presses), within=300)
    raise RuntimeError("the lobbies did not fill")


def answered(fake: FakeBotApi, presses: list[dict[str, Any]]) -> Callable[[], bool]:
    """Whether the bot has answered every one of these button presses."""
    return lambda: all(fake.answer_to(p) is not None for p in presses)


def lobby(fake: FakeBotApi, g: Group, button: str) -> Any:
    """The group's message with that button, if there is one."""
    return next((m for m in fake.messages(g.chat_id) if any(b.get("text") == button for b in m.buttons)), None)


async def start_tables(fake: FakeBotApi, groups: list[Group], spread: float, rng: random.Random) -> None:
    """The hosts press Start, one table after another over ``spread`` seconds; each timeline starts then."""
    moments = sorted(rng.uniform(0, spread) for _ in groups)
    began = fake.clock()
    presses = []
    for g, at in zip(groups, moments, strict=True):
        await asyncio.sleep(max(0.0, began + at - fake.clock()))
        g.timeline.started = fake.clock()
        press = fake.press(g.users[0], lobby(fake, g, "Start"), "Start")
        presses.append(press)
        await fake.send_update(press)
    await fake.wait_until(answered(fake, presses), within=300)


async def seating(session: aiohttp.ClientSession, url: str, g: Group) -> dict[int, int]:
    """Which seat each person of a lobby took (the Join presses are handled in any order)."""
    seats = {}
    for user, auth in zip(g.users, g.auths, strict=True):
        async with session.get(f"{url}/api/tables/{g.table_id}", headers={"Authorization": f"tma {auth}"}) as resp:
            view = await resp.json()
            if resp.status != 200:
                raise RuntimeError(f"table {g.table_id}, user {user}: {resp.status} {view}")
        if view["you"] is not None:
            seats[user] = int(view["you"])
    return seats


@dataclass
class Row:
    """One run's figures."""

    tables: int
    processes: int
    away: float
    moves: int = 0
    calls: int = 0
    seconds: float = 0.0
    peak: int = 0
    too_many: int = 0
    delays: list[float] = field(default_factory=list)
    never_told: int = 0
    turn_messages: int = 0
    late: int = 0
    to_present: int = 0
    edits_per_minute: list[float] = field(default_factory=list)
    by_method: Counter[str] = field(default_factory=Counter)

    HEADER = ("| N | processes | away | moves | calls/move | calls/s mean | calls/s peak | 429s "
              "| away turn msg p50 / p95 / max (s) | away turns never told | turn msgs after the turn "
              "| turn msgs to people at the table | group edits/min/group mean / max |\n"
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")

    def markdown(self) -> str:
        """The row of the table."""
        d = sorted(self.delays)

        def q(p: float) -> str:
            return f"{d[min(len(d) - 1, int(p * len(d)))]:.1f}" if d else "-"

        late = f"{100 * self.late / self.turn_messages:.0f}% ({self.late}/{self.turn_messages})" \
            if self.turn_messages else "-"
        edits = self.edits_per_minute
        return (f"| {self.tables} | {self.processes} | {self.away:.2f} | {self.moves} "
                f"| {self.calls / max(1, self.moves):.2f} | {self.calls / self.seconds:.1f} | {self.peak} "
                f"| {self.too_many} | {q(0.5)} / {q(0.95)} / {q(1.0)} "
                f"| {self.never_told} | {late} | {self.to_present} "
                f"| {statistics.fmean(edits) if edits else 0:.1f} / {max(edits, default=0):.1f} |")


def figures(row: Row, fake: FakeBotApi, groups: list[Group], people: list[Person], play: Play,
            began: float, ended: float) -> None:
    """Read the run's figures from the fake's record of calls and what the people saw."""
    calls = [c for c in fake.calls if began <= c.time < ended and c.method != "getUpdates"]
    row.seconds = ended - began
    row.by_method = Counter(c.method for c in calls)
    row.moves = sum(1 for t in play.moves if began <= t < ended)
    row.calls = len(calls)
    per_second: dict[int, int] = {}
    for c in calls:
        per_second[int(c.time - began)] = per_second.get(int(c.time - began), 0) + 1
    row.peak = max(per_second.values(), default=0)
    row.too_many = sum(1 for c in calls if c.status == 429)
    row.delays = play.away_delays
    row.never_told = sum(1 for p in people if p.never_told())
    by_user = {p.user_id: p for p in people}
    for c in calls:
        if not is_turn_message(c):
            continue
        person = by_user.get(int(c.params["chat_id"]))
        if person is None:
            continue
        row.turn_messages += 1
        row.late += person.timeline.is_acting(person.seat, c.time) is False
        row.to_present += not person.away
    minutes = row.seconds / 60
    for g in groups:
        edits = sum(1 for c in calls if c.method in EDITS and c.status == 200
                    and int(c.params.get("chat_id", 0)) == g.chat_id)
        row.edits_per_minute.append(edits / minutes)


async def progress(label: str, fake: FakeBotApi, play: Play, people: list[Person], began: float) -> None:
    """A line on stderr every few seconds."""
    while True:
        await asyncio.sleep(PROGRESS_EVERY)
        now = fake.clock()
        calls = sum(1 for c in fake.calls if c.time >= began and c.method != "getUpdates")
        waiting = sum(1 for p in people if p.never_told())
        print(f"  {label}: {now - began:5.0f} s, {len(play.moves)} moves, {calls} Bot API calls, "
              f"{fake.count_429} 429s, {len(play.away_delays)} away turns told, {waiting} away waiting",
              file=sys.stderr, flush=True)


async def run(tables: int, processes: int, away: float, seconds: float, seed: int) -> Row:
    """One run: the product with ``tables`` tables, ``away`` of the people away; its row."""
    label = f"N={tables} processes={processes} away={away:g}"
    print(f"{label}: starting", file=sys.stderr, flush=True)
    rng = random.Random(seed)
    data_dir = Path(tempfile.mkdtemp(prefix="cardroom-notify-"))
    database, admin, name = None, None, ""
    fake = FakeBotApi(TOKEN, bot_username="cardroom_bench_bot")
    await fake.start()
    product: Product | None = None
    tasks: list[asyncio.Task[Any]] = []
    people: list[Person] = []
    try:
        if processes > 1:
            name = f"bench_notify_{secrets.token_hex(4)}"
            admin = await asyncpg.connect(POSTGRES)
            await admin.execute(f'CREATE DATABASE "{name}"')
            database = POSTGRES.rsplit("/", 1)[0] + "/" + name
        product = Product(processes, fake, data_dir, database)
        product.start()
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            await product.ready(session)
            groups = [Group(-1_001_000_000_000 - t, [2_000_000 + 3 * t + i for i in range(3)], [])
                      for t in range(tables)]
            for g in groups:
                g.auths = [sign_init_data(TOKEN, {"id": u, "first_name": f"P{u}"}) for u in g.users]
            t0 = time.monotonic()
            await open_tables(fake, groups, session, product.urls[0])
            print(f"  {label}: {tables} lobbies full in {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
            arrivals = Arrivals(fake)
            play = Play(session, arrivals, fake.clock)
            away_ids = set(rng.sample([u for g in groups for u in g.users], round(away * 3 * tables)))
            for k, (g, i) in enumerate((g, i) for g in groups for i in range(3)):
                url = product.urls[k % processes].replace("http", "ws") + f"/ws/{g.table_id}"
                people.append(Person(play, g.timeline, g.seats[g.users[i]], g.users[i], g.auths[i], url,
                                     away=g.users[i] in away_ids, rng=random.Random(seed * 1_000_003 + k)))
            present = [p for p in people if not p.away]
            for p in present:  # at the table before the game begins
                p.view = await p.connect()
            tasks.append(asyncio.create_task(arrivals.run()))
            began = fake.clock()
            play.stop_moving = began + seconds
            tasks.append(asyncio.create_task(progress(label, fake, play, people, began)))
            tasks += [asyncio.create_task(p.away_from_table() if p.away else p.at_table())
                      for p in people]
            await start_tables(fake, groups, min(START_SPREAD, seconds / 4), rng)
            await asyncio.sleep(max(0.0, play.stop_moving - fake.clock()))
            ended = fake.clock()
            with contextlib.suppress(TimeoutError):  # the turn messages still on their way
                await fake.wait_until(lambda: not any(p.never_told() for p in people), within=GRACE)
            row = Row(tables, processes, away)
            figures(row, fake, groups, people, play, began, ended)
            lines = product.logs().splitlines()
            problems = [line for line in lines if " ERROR " in line]
            print(f"  {label}: done; refusals {len(play.refusals)}, stale wake-ups {play.stale_wakes}, "
                  f"errors in the logs {len(problems)}; calls in the play: "
                  f"{', '.join(f'{m} {n}' for m, n in row.by_method.most_common())}", file=sys.stderr, flush=True)
            for line in problems[:5]:
                print(f"    {line}", file=sys.stderr, flush=True)
            if problems:  # the first one whole, with its traceback
                first = lines.index(problems[0])
                end = next((i for i in range(first + 1, len(lines)) if lines[i][:4].isdigit()), len(lines))
                print("\n".join(f"    {line}" for line in lines[first:end][:60]), file=sys.stderr, flush=True)
            failed = [t.exception() for t in tasks if t.done() and not t.cancelled() and t.exception()]
            for error in failed[:5]:  # a person who stopped playing: the row counts fewer moves than it should
                print(f"    a person stopped: {error!r}", file=sys.stderr, flush=True)
            for task in tasks:
                task.cancel()
            # the people stop and every socket closes at once, and not for ever: the row is measured already
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(p.close() for p in people), return_exceptions=True), 30)
            return row
    finally:
        for task in tasks:
            task.cancel()
        if product is not None:
            product.stop()
        await fake.close()
        if admin is not None:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.close()
        shutil.rmtree(data_dir, ignore_errors=True)


def numbers(text: str, kind: type[Any]) -> list[Any]:
    """A comma-separated list."""
    return [kind(x) for x in text.split(",") if x.strip()]


async def main(args: argparse.Namespace) -> None:
    print(f"bench.notify, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {args.seconds:g} s of play a run\n")
    print(Row.HEADER, flush=True)
    for tables in numbers(args.tables, int):
        for processes in numbers(args.processes, int):
            for away in numbers(args.away, float):
                row = await run(tables, processes, away, args.seconds, args.seed)
                print(row.markdown(), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="5,50", help="numbers of tables, e.g. 5,50")
    parser.add_argument("--processes", default="1", help="numbers of web processes (more than 1: PostgreSQL)")
    parser.add_argument("--away", default="0.0", help="shares of people away from the table, e.g. 0,0.33")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long each run plays")
    parser.add_argument("--seed", type=int, default=1)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(parser.parse_args()))
