"""The soak on three processes: real ``python -m webapp`` processes on one PostgreSQL database, killed with SIGKILL
and cut off from the database while people on every process play, some of them at tables with a live turn timer.

Each process reaches PostgreSQL through a proxy of its own, so one process's every connection
can be cut at once. A table's people sit on different processes (their phones), each
reconnecting to its own process whenever it is back. Untimed tables are played flat out by
their people and AI players, game after game; at each timed table (``live``: a minute a move)
one person never moves, so every turn of theirs is taken by a stand-in at its deadline, and then
by their autopilot. While they play a watcher reads the store each half second: the latest move
of every table, and every timed table's stored deadline.

``run_cluster`` returns figures; the checks (``ClusterFigures.problems``): no acknowledged move
lost or stored twice, every log without a gap, no deadline left ``late`` seconds behind, every
timed turn taken within ``late`` seconds of its deadline, and every socket at each move of its
table within ``catch_up`` seconds of the move being stored (a socket whose process was down
meanwhile counts from its reconnection).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg

from tests.fakes.tcp_proxy import TcpProxy
from tests.soak.cluster_checks import check_all
from tests.soak.harness import Move, Refused, Server, SoakFailure, Stats

RETRYABLE = (TimeoutError, aiohttp.ClientError, OSError)
STOP_BOUND = 10.0  # seconds a process stopped with SIGTERM has to exit


@dataclass
class Connection:
    """One socket's life: when it was welcomed and closed, and each seq it reached with the time it did."""

    table_id: str
    process: int
    opened: float
    closed: float | None = None
    reached: list[tuple[float, int]] = field(default_factory=list)


@dataclass
class ClusterFigures:
    """What a run did and found."""

    kills: int = 0
    cuts: int = 0
    stops: list[float] = field(default_factory=list)  # seconds from SIGTERM to exit, for a graceful stop (a deploy)
    tables: int = 0
    timed_tables: int = 0
    games_finished: int = 0
    moves_sent: int = 0
    moves_acked: int = 0
    actions_stored: int = 0
    lost: int = 0  # acknowledged moves not stored as sent
    twice: int = 0  # logs with a seq twice or missing, and moves acknowledged at another seq than made
    stuck: int = 0  # deadlines left behind, and sockets that never reached a move
    timed_turns: int = 0
    lateness: list[float] = field(default_factory=list)  # seconds past the deadline each timed turn was taken
    catch_up: list[float] = field(default_factory=list)  # seconds from a move stored to a socket having it
    refused: dict[str, int] = field(default_factory=dict)
    tracebacks: int = 0  # in the processes' logs (a database cut is logged with one, by the supervisor)
    problems: list[str] = field(default_factory=list)


class Cluster:
    """Three processes, each behind its own proxy to the database; the people's stats and the sockets' lives."""

    def __init__(self, tmp: Path, database: str, proxies: list[TcpProxy]) -> None:
        self.database = database
        self.proxies = proxies
        shared = tmp / "data"  # one local sign-in key for all, as one deployment has one token
        self.servers = [Server(shared, proxy.url_through(database)) for proxy in proxies]
        for i, server in enumerate(self.servers):
            server.log_path = tmp / f"process{i}.log"
        self.stats = Stats()
        self.connections: list[Connection] = []
        self.timed: dict[str, int] = {}  # timed table -> the seat that never moves
        self.stored: dict[str, list[tuple[float, int]]] = {}  # table -> (when first seen stored, seq)
        self.stopping = asyncio.Event()  # the run is over: calls stop trying
        self.started: dict[str, float] = {}  # table -> when its start was answered
        self.deadlines: dict[str, set[float]] = {}  # timed table -> every deadline the watcher saw stored

    def url(self, process: int) -> str:
        """The address of a process."""
        return self.servers[process].url


class Person:
    """Someone signed in on one process (their phone's), who reconnects there whenever it is back; or (``roams``)
    who, as behind a load balancer, goes to the next process whenever theirs does not answer or stops."""

    def __init__(self, cluster: Cluster, process: int, name: str, rng: random.Random, *, plays: bool = True,
                 roams: bool = False) -> None:
        self.cluster, self.process, self.name, self.rng, self.plays = cluster, process, name, rng, plays
        self.roams = roams
        self.auth: dict[str, str] = {}
        self.refs = 0

    def away(self) -> None:
        """Their process did not answer, or closed their socket: the balancer sends them to the next one."""
        if self.roams:
            self.process = (self.process + 1) % len(self.cluster.servers)

    async def api(self, session: aiohttp.ClientSession, method: str, path: str, body: Any = None, *,
                  done: frozenset[str] = frozenset()) -> Any:
        """One API call on the person's process, tried again while the process or its database is away.

        A call whose answer was lost may have been applied: on a try after the first, a refusal in ``done``
        (``already_started`` for a start, say) means it was, and is answered None.
        """
        tries = 0
        while not self.cluster.stopping.is_set() or tries == 0:
            tries += 1
            try:
                async with session.request(method, self.cluster.url(self.process) + path, json=body,
                                           headers=self.auth) as resp:
                    data = await resp.json()
                    if resp.status == 200:
                        return data
                    if resp.status == 429 and "Retry-After" in resp.headers:  # as a page would: wait, try again
                        tries = 0
                        await asyncio.sleep(float(resp.headers["Retry-After"]))
                        continue
                    if tries > 1 and data.get("code") in done:
                        return None
                    if resp.status != 503:
                        raise Refused(f"{self.name}: {method} {path}: {resp.status} {data}", str(data.get("code")))
            except RETRYABLE:
                self.away()
            await asyncio.sleep(0.2)
        raise asyncio.CancelledError  # the run is over: nothing more to open

    async def sign_in(self, session: aiohttp.ClientSession) -> None:
        """Sign in locally."""
        data = await self.api(session, "POST", "/api/local/signin", {"name": self.name})
        self.auth = {"Authorization": f"tma {data['init_data']}"}

    async def sit(self, session: aiohttp.ClientSession, table_id: str, stop: asyncio.Event) -> None:
        """Keep a socket open at the table (playing if ``plays``) until its game ends or ``stop``."""
        while not stop.is_set():
            try:
                if await self._socket(session, table_id, stop):
                    return
            except RETRYABLE:
                pass
            self.away()
            await asyncio.sleep(0.05 if self.roams else 0.2)

    async def _socket(self, session: aiohttp.ClientSession, table_id: str, stop: asyncio.Event) -> bool:
        """One socket until it closes (False) or the game ends (True)."""
        stats = self.cluster.stats
        url = self.cluster.url(self.process).replace("http", "ws") + f"/ws/{table_id}"
        async with session.ws_connect(url, heartbeat=None) as ws:
            await ws.send_json({"type": "hello", "init_data": self.auth["Authorization"][4:], "last_seq": None})
            life: Connection | None = None
            pending: str | None = None
            view: dict[str, Any] | None = None
            try:
                while not stop.is_set():
                    try:
                        msg = await ws.receive(timeout=0.5)
                    except TimeoutError:
                        msg = None
                    if msg is not None:
                        if msg.type is not aiohttp.WSMsgType.TEXT:
                            return False
                        frame = json.loads(msg.data)
                        kind = frame["type"]
                        if kind == "error":
                            if frame.get("code") == "unavailable":  # its database away: the socket closes next
                                continue
                            raise SoakFailure(f"{self.name} got an error frame: {frame}")
                        if kind == "refused":
                            stats.refused[frame["code"]] = stats.refused.get(frame["code"], 0) + 1
                            if frame.get("ref") == pending:
                                pending = None
                            continue
                        if kind == "ack" or "ref" in frame:
                            move = stats.sent.get(frame["ref"])
                            if move is not None:
                                move.acked = frame["seq"]
                            if frame["ref"] == pending:
                                pending = None
                        if "view" not in frame:
                            continue
                        view = frame["view"]
                        if life is None:
                            life = Connection(table_id, self.process, time.time())
                            self.cluster.connections.append(life)
                        life.reached.append((time.time(), view["seq"]))
                        if view["table"]["status"] in ("finished", "abandoned"):
                            if view["table"]["status"] == "finished" and view["you"] == 0:
                                stats.games_finished += 1
                            return True
                    if view is None or pending is not None or not self.plays:
                        continue
                    you, table = view["you"], view["table"]
                    if you is None or view["state"] is None or you not in table["to_act"]:
                        continue
                    legal = view["state"].get("legal") or []
                    if not legal:
                        continue
                    choice = self.rng.choice(legal)
                    action = choice if isinstance(choice, dict) else {"type": "play", "card": choice}
                    self.refs += 1
                    pending = f"{self.name}-{self.refs}"
                    stats.sent[pending] = Move(table_id, you, view["seq"], action)
                    await ws.send_json({"type": "act", "ref": pending, "seq": view["seq"], "action": action})
            finally:
                if life is not None:
                    life.closed = time.time()
        return False


async def play_tables(cluster: Cluster, people: list[Person], stop: asyncio.Event, *, timed: bool,
                      rng: random.Random) -> None:
    """One table of these people (the first hosts; an AI in any seat left), game after game until ``stop``.

    At a timed table the last person never moves, and there is one game, long enough to outlast the run.
    """
    async with aiohttp.ClientSession() as session:
        for person in people:
            await person.sign_in(session)
        host = people[0]
        while not stop.is_set():
            game = "coins" if timed else rng.choice(("coins", "kings_corner"))
            # at a timed table the absent person (seat 2) leads the first trick: its first deadline comes a minute in
            options: dict[str, Any] = ({"target_score": 99, "timer": "live", "first_dealer": "seat:1"} if timed
                                       else {"target_score": 1} if game == "coins" else {"players": 3})
            info = await host.api(session, "POST", "/api/tables", {"game": game, "options": options})
            table_id = info["id"]
            cluster.stats.tables.add(table_id)
            for person in people[1:]:
                await person.api(session, "POST", f"/api/tables/{table_id}/join", done=frozenset({"already_seated"}))
            for _ in range(info["size"] - len(people)):  # an AI seated by a try whose answer was lost fills it too
                await host.api(session, "POST", f"/api/tables/{table_id}/add_ai", done=frozenset({"table_full"}))
            if timed:
                cluster.timed[table_id] = len(people) - 1
            await host.api(session, "POST", f"/api/tables/{table_id}/start", done=frozenset({"already_started"}))
            cluster.started[table_id] = time.time()
            await asyncio.gather(*(person.sit(session, table_id, stop) for person in people))


async def watch_store(cluster: Cluster, stop: asyncio.Event, figures: ClusterFigures, late: float) -> None:
    """Each half second: every table's latest stored move (first seen when), and no timed deadline left behind."""
    connection = await asyncpg.connect(cluster.database)
    blamed: set[tuple[str, float]] = set()
    try:
        while not stop.is_set():
            now = time.time()
            for row in await connection.fetch("SELECT table_id, max(seq) AS seq FROM actions GROUP BY table_id"):
                seen = cluster.stored.setdefault(row["table_id"], [])
                if not seen or seen[-1][1] < row["seq"]:
                    seen.append((now, row["seq"]))
            if cluster.timed:
                for row in await connection.fetch("SELECT id, deadline FROM tables WHERE id = ANY($1::text[]) "
                                                  "AND status = 'playing' AND deadline IS NOT NULL",
                                                  list(cluster.timed)):
                    cluster.deadlines.setdefault(row["id"], set()).add(row["deadline"])
                    if now > row["deadline"] + late and (row["id"], row["deadline"]) not in blamed:
                        blamed.add((row["id"], row["deadline"]))
                        passed = now - row["deadline"]
                        figures.stuck += 1
                        figures.problems.append(f"timed table {row['id']}: its deadline passed {passed:.0f} s ago "
                                                "and nobody acted")
            await asyncio.sleep(0.5)
    finally:
        await connection.close()


async def troubles(cluster: Cluster, stop: asyncio.Event, figures: ClusterFigures, rng: random.Random, *,
                   every: float, down: float, graceful: bool = False) -> None:
    """Every ``every`` seconds (jittered) a process is killed and restarted, or its database connections cut; or
    (``graceful``) stopped with SIGTERM and started again, as a deploy does, each in turn."""
    process = 0
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every * rng.uniform(0.6, 1.4))
        if stop.is_set():
            return
        server, proxy = cluster.servers[process], cluster.proxies[process]
        if graceful:
            took = await asyncio.to_thread(server.stop, STOP_BOUND)
            if took is None:
                figures.problems.append(f"process {process} did not exit within {STOP_BOUND:.0f} s of SIGTERM")
            else:
                figures.stops.append(took)
            await asyncio.sleep(rng.uniform(0.0, down))
            await server.start()
        elif rng.random() < 0.6:
            server.kill()
            figures.kills += 1
            await asyncio.sleep(rng.uniform(0.0, down))
            await server.start()
        else:
            await proxy.cut()
            figures.cuts += 1
            await asyncio.sleep(rng.uniform(0.5, down))
            await proxy.restore()
        process = (process + 1) % len(cluster.servers)


async def run_cluster(tmp: Path, database: str, *, seconds: float, untimed: int = 3, timed: int = 3,
                      every: float = 12.0, down: float = 2.0, late: float = 10.0, catch_up: float = 5.0,
                      seed: int = 1, graceful: bool = False) -> tuple[ClusterFigures, list[Server]]:
    """Play on three processes for ``seconds`` through kills and cuts (``graceful``: deploys, each process stopped
    with SIGTERM in turn while people roam to the others); check everything once they are stopped."""
    rng = random.Random(seed)
    figures = ClusterFigures()
    proxies = [TcpProxy.before(database) for _ in range(3)]
    for proxy in proxies:
        await proxy.start()
    cluster = Cluster(tmp, database, proxies)
    watching = asyncio.Event()
    stop = cluster.stopping
    try:
        await asyncio.gather(*(server.start() for server in cluster.servers))
        groups: list[tuple[list[Person], bool]] = []
        for t in range(untimed + timed):  # the people of a table on three different processes, a different first
            is_timed = t < timed  # the timed tables open first, so their first deadlines come early in the run
            people = [Person(cluster, (t + i) % 3, f"T{t}P{i}", random.Random(seed * 1000 + 10 * t + i),
                             plays=not (is_timed and i == 2), roams=graceful)
                      for i in range(3 if is_timed or t % 2 == 0 else 2)]  # or two people and an AI
            groups.append((people, is_timed))
        watcher = asyncio.create_task(watch_store(cluster, watching, figures, late))
        tables = [asyncio.create_task(play_tables(cluster, people, stop, timed=is_timed,
                                                  rng=random.Random(seed + t)))
                  for t, (people, is_timed) in enumerate(groups)]
        trouble = asyncio.create_task(troubles(cluster, stop, figures, rng, every=every, down=down,
                                               graceful=graceful))
        await asyncio.wait([*tables, trouble], timeout=seconds, return_when=asyncio.FIRST_EXCEPTION)
        stop.set()
        for task in [*tables, trouble]:
            with contextlib.suppress(Exception, asyncio.CancelledError):  # a table left opening as the run ended
                await asyncio.wait_for(task, 30)
        end = time.time()
        watching.set()
        await watcher
        figures.problems += [str(task.exception()) for task in [*tables, trouble]
                             if task.done() and not task.cancelled() and task.exception() is not None]
    finally:
        stop.set()
        watching.set()
        # stopped together, each waited for off the loop: the database proxies run on this loop, and a process
        # whose database went quiet while it stopped would log the timeouts as failures
        await asyncio.gather(*(asyncio.to_thread(server.stop) for server in cluster.servers))
        for proxy in proxies:
            await proxy.close()
    await check_all(cluster, figures, late, catch_up, end)
    return figures, cluster.servers
