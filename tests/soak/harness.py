"""The soak: the real ``python -m webapp`` killed with SIGKILL while people and AI players play, and hostile clients.

``run_kills`` plays several tables (people signed in locally, against AI players; some
people leave so AI players finish the game alone), kills the process at random moments
(after a random pause, right after a move is acknowledged, right after a game's final
move), checks the store while the process is dead, restarts it and checks that every
table moves on. ``run_fuzz`` sends hostile frames and HTTP bodies while a healthy client
measures its ping round trip. Both return figures; the checks raise ``SoakFailure``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from engine import games
from engine.core.rules import replay
from engine.store.database import Store, database_url

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("coins", "kings_corner")


class SoakFailure(AssertionError):
    """A property the soak checks did not hold."""


class Refused(SoakFailure):
    """An API call answered with a refusal: its ``code``."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m webapp`` in local mode as a child process, its output appended to one log file."""

    def __init__(self, data_dir: Path, database: str | None = None, **env: str) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir = data_dir
        self.database = database
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = data_dir / "server.log"
        self.extra_env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def spawn(self) -> subprocess.Popen[bytes]:
        """Start the process (not waiting for it)."""
        env = {k: v for k, v in os.environ.items() if k not in ("BOT_TOKEN", "DATABASE_URL", "WEBAPP_URL")}
        env.update({"PORT": str(self.port), "HOST": "127.0.0.1", "DATA_DIR": str(self.data_dir), "AI_DELAY": "0",
                    "PYTHONUNBUFFERED": "1", **self.extra_env})  # extra_env may set AI_DELAY too
        if self.database:
            env["DATABASE_URL"] = self.database
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "webapp"], cwd=ROOT, env=env, stdout=log,
                                            stderr=subprocess.STDOUT)
        self.starts += 1
        return self.process

    async def start(self, wait: float = 30.0) -> float:
        """Start the process and wait until it answers; the seconds it took."""
        began = time.monotonic()
        process = self.spawn()
        async with aiohttp.ClientSession() as session:
            while time.monotonic() - began < wait:
                if process.poll() is not None:
                    raise SoakFailure(f"the server exited with {process.returncode}:\n{self.log()[-3000:]}")
                with contextlib.suppress(aiohttp.ClientError, OSError):
                    async with session.get(self.url + "/healthz") as resp:
                        if resp.status == 200:
                            return time.monotonic() - began
                await asyncio.sleep(0.05)
        raise SoakFailure("the server did not answer in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self, within: float = 10.0) -> float | None:
        """SIGTERM and wait: the seconds it took to exit, or None if it had not within ``within`` (then SIGKILL)."""
        if self.process is None or self.process.poll() is not None:
            return 0.0
        began = time.monotonic()
        self.process.terminate()
        try:
            self.process.wait(within)
        except subprocess.TimeoutExpired:
            self.kill()
            return None
        return time.monotonic() - began

    def log(self) -> str:
        """Everything the process has written."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def store_url(self) -> str:
        """The async URL of its database, for checks while it is down."""
        return database_url(self.database, self.data_dir)


@dataclass
class Move:
    """A move a person sent: where, against which seq, and what."""

    table_id: str
    seat: int
    seq: int
    action: dict[str, Any]
    acked: int | None = None  # the seq the ack named


@dataclass
class Stats:
    """What the players saw."""

    sent: dict[str, Move] = field(default_factory=dict)  # by ref
    refused: dict[str, int] = field(default_factory=dict)  # by code
    games_finished: int = 0
    tables: set[str] = field(default_factory=set)
    ai_only: set[str] = field(default_factory=set)  # tables every person has left
    acked: asyncio.Event = field(default_factory=asyncio.Event)
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    # what the store checks already verified, so each check replays only the tables that changed since:
    replayed: dict[str, tuple[str, int, int]] = field(default_factory=dict)  # table -> (status, version, log length)
    verified: set[str] = field(default_factory=set)  # refs of acked moves found stored as sent
    status: dict[str, str] = field(default_factory=dict)  # each table's stored status at the last check
    # the tables whose stored log, at the last check, left an AI (or a stand-in) to act: table -> its log length
    ai_to_act: dict[str, int] = field(default_factory=dict)


class Player:
    """A person signed in locally who plays one table at a time, starting a new one when a game ends."""

    def __init__(self, server: Server, name: str, stats: Stats, rng: random.Random, *, leaves: bool) -> None:
        self.server, self.name, self.stats, self.rng, self.leaves = server, name, stats, rng, leaves
        self.init_data = ""
        self.table_id: str | None = None
        self.moves_here = 0
        self.refs = 0

    async def api(self, session: aiohttp.ClientSession, method: str, path: str, body: Any = None) -> Any:
        """One API call; raises on anything but 200 (a 429 with Retry-After, as a page would, is waited out)."""
        headers = {"Authorization": f"tma {self.init_data}"} if self.init_data else {}
        while True:
            async with session.request(method, self.server.url + path, json=body, headers=headers) as resp:
                data = await resp.json()
                if resp.status == 429 and "Retry-After" in resp.headers:
                    await asyncio.sleep(float(resp.headers["Retry-After"]))
                    continue
                if resp.status != 200:
                    raise Refused(f"{method} {path}: {resp.status} {data}", str(data.get("code")))
                return data

    async def new_table(self, session: aiohttp.ClientSession) -> None:
        """Host a table of this person and AI players, and start it."""
        game = self.rng.choice(GAMES)
        options = {"target_score": 1} if game == "coins" else {}  # short games, so many end during the soak
        info = await self.api(session, "POST", "/api/tables", {"game": game, "options": options})
        for _ in range(info["size"] - 1):
            await self.api(session, "POST", f"/api/tables/{info['id']}/add_ai")
        await self.api(session, "POST", f"/api/tables/{info['id']}/start")
        self.table_id, self.moves_here = info["id"], 0
        self.stats.tables.add(info["id"])

    async def run(self, stop: asyncio.Event) -> None:
        """Play until ``stop``, riding out every restart of the server."""
        async with aiohttp.ClientSession() as session:
            while not stop.is_set():
                try:
                    if not self.init_data:
                        self.init_data = (await self.api(session, "POST", "/api/local/signin",
                                                         {"name": self.name}))["init_data"]
                    if self.table_id is None:
                        await self.new_table(session)
                    await self.play(session, stop)
                except (TimeoutError, aiohttp.ClientError, OSError):
                    await asyncio.sleep(0.1)

    async def play(self, session: aiohttp.ClientSession, stop: asyncio.Event) -> None:
        """One socket at the current table until it closes, the game ends or ``stop``."""
        assert self.table_id is not None
        url = self.server.url.replace("http", "ws") + f"/ws/{self.table_id}"
        async with session.ws_connect(url, heartbeat=None) as ws:
            await ws.send_json({"type": "hello", "init_data": self.init_data, "last_seq": None})
            pending: str | None = None
            while not stop.is_set():
                try:
                    msg = await ws.receive(timeout=0.5)
                except TimeoutError:
                    continue
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    return
                frame = json.loads(msg.data)
                kind = frame["type"]
                if kind == "error":
                    raise SoakFailure(f"{self.name} got an error frame: {frame}")
                acked = kind == "ack" or (kind == "update" and "ref" in frame)  # a move's own update acknowledges it
                if acked or kind == "refused":
                    move = self.stats.sent.get(frame["ref"])
                    if acked and move is not None:
                        move.acked = frame["seq"]
                        self.stats.acked.set()
                    if kind == "refused":
                        self.stats.refused[frame["code"]] = self.stats.refused.get(frame["code"], 0) + 1
                    pending = None
                    if kind != "update":
                        continue
                if "view" not in frame:
                    continue
                view = frame["view"]
                table = view["table"]
                if table["status"] in ("finished", "abandoned"):
                    if table["status"] == "finished":
                        self.stats.games_finished += 1
                        self.stats.finished.set()
                    self.table_id = None
                    return
                you = view["you"]
                if (self.leaves and you is not None and self.moves_here >= 2 and table["status"] == "playing"):
                    try:
                        await self.api(session, "POST", f"/api/tables/{table['id']}/leave")
                    except Refused as refused:  # the AI players ended the game after the view read here
                        if refused.code != "game_over":
                            raise
                    else:
                        self.stats.ai_only.add(table["id"])
                    self.table_id = None
                    return
                if pending is not None or you is None or view["state"] is None or you not in table["to_act"]:
                    continue
                legal = view["state"].get("legal") or []
                if not legal:
                    continue
                choice = self.rng.choice(legal)
                action = choice if isinstance(choice, dict) else {"type": "play", "card": choice}
                self.refs += 1
                pending = f"{self.name}-{self.refs}"
                self.stats.sent[pending] = Move(table["id"], you, view["seq"], action)
                self.moves_here += 1
                await ws.send_json({"type": "act", "ref": pending, "seq": view["seq"], "action": action})


@dataclass
class KillFigures:
    """What a run of kills did and found."""

    kills: int = 0
    kills_after_ack: int = 0
    kills_after_finish: int = 0
    moves_sent: int = 0
    moves_acked: int = 0
    actions_stored: int = 0
    games_finished: int = 0
    tables: int = 0
    ai_tables_checked: int = 0
    restart_seconds: list[float] = field(default_factory=list)
    stop_seconds: list[float] = field(default_factory=list)  # SIGTERM to exit, when stopped gracefully
    refused: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


async def check_store(server: Server, stats: Stats, figures: KillFigures) -> None:
    """With the process dead: every acked move stored once at its seq; every game over stored finished."""
    store = Store(server.store_url())
    await store.open()
    try:
        stored = 0
        logs: dict[str, list[Any]] = {}
        for table_id in sorted(stats.tables):
            row = await store.tables.load_table(table_id)
            if row is None:
                figures.problems.append(f"table {table_id} is not stored")
                continue
            log = logs[table_id] = await store.tables.load_actions(table_id)
            stored += len(log)
            if [a.seq for a in log] != list(range(1, len(log) + 1)):
                figures.problems.append(f"table {table_id} has seqs {[a.seq for a in log]}")
            stats.status[table_id] = row.status
            seen = (row.status, row.version, len(log))
            if row.status not in ("playing", "finished") or stats.replayed.get(table_id) == seen:
                continue  # unchanged since a check that replayed it
            stats.replayed[table_id] = seen
            game = games.get(row.game)
            state = replay(game, game.parse_options(row.options), row.size, row.seed,
                           [(a.seat, a.action) for a in log])
            outcome = game.outcome(state)
            machines = {s.seat for s in row.seats if s.is_ai or s.autopilot}
            if outcome is None and row.status == "playing" and game.to_act(state) & machines:
                stats.ai_to_act[table_id] = len(log)
            else:
                stats.ai_to_act.pop(table_id, None)
            if outcome is not None and (row.status != "finished" or row.result != outcome.as_dict()):
                figures.problems.append(f"table {table_id}: the log is over but it is stored {row.status}")
            if outcome is None and row.status == "finished":
                figures.problems.append(f"table {table_id} is stored finished with a game still on")
        for ref, move in stats.sent.items():
            if move.acked is None or ref in stats.verified:
                continue
            if move.acked != move.seq + 1:
                figures.problems.append(f"{ref} made at {move.seq} was acked with seq {move.acked}")
            log = logs.get(move.table_id, [])
            entry = log[move.acked - 1] if 0 < move.acked <= len(log) else None
            if entry is None or entry.seat != move.seat or entry.action != move.action or entry.auto:
                figures.problems.append(f"acked move {ref} ({move.table_id} seq {move.acked}) is not stored as sent")
            else:
                stats.verified.add(ref)
        figures.actions_stored = stored
    finally:
        await store.close()


async def check_ai_tables_move(server: Server, stats: Stats, figures: KillFigures, init_data: str,
                               wait: float = 8.0) -> None:
    """After a restart: every table the store left with an AI to act moves on (or ends) within ``wait``.

    Which tables those are comes from the store while the process was dead (the replayed logs), so a
    table whose AI moved the instant the process came back still counts.
    """
    headers = {"Authorization": f"tma {init_data}"}
    waiting = dict(stats.ai_to_act)
    figures.ai_tables_checked += len(waiting)
    async with aiohttp.ClientSession() as session:
        deadline = time.monotonic() + wait
        while waiting and time.monotonic() < deadline:
            for table_id, seq in list(waiting.items()):
                async with session.get(f"{server.url}/api/tables/{table_id}", headers=headers) as resp:
                    data: dict[str, Any] = await resp.json()
                    if resp.status == 429:  # one person looking at every table: within their request budget
                        await asyncio.sleep(float(resp.headers.get("Retry-After", "1")))
                        continue
                    if resp.status != 200:
                        raise SoakFailure(f"GET table {table_id}: {resp.status} {data}")
                table = data["table"]
                if table["status"] != "playing" or table["seq"] > seq:
                    del waiting[table_id]
            await asyncio.sleep(0.1)
    figures.problems += [f"AI table {t} did not move after a restart" for t in waiting]


async def run_kills(data_dir: Path, *, kills: int, players: int = 4, database: str | None = None,
                    seed: int = 1, max_pause: float = 1.0, graceful: bool = False) -> tuple[KillFigures, Server]:
    """Kill the server ``kills`` times at random moments while people play; check the store after each.

    ``graceful``: stop it with SIGTERM (a deploy) instead, and count it a problem if it does not exit within 10 s.
    """
    rng = random.Random(seed)
    server = Server(data_dir, database)
    stats, figures = Stats(), KillFigures()
    figures.restart_seconds.append(await server.start())
    stop = asyncio.Event()
    people = [Player(server, f"P{i}", stats, random.Random(seed * 100 + i), leaves=i % 2 == 1)
              for i in range(players)]
    tasks = [asyncio.create_task(p.run(stop)) for p in people]
    try:
        for _ in range(kills):
            moment = rng.choice(("pause", "ack", "finish"))
            stats.acked.clear()
            stats.finished.clear()
            if moment == "pause":
                await asyncio.sleep(rng.uniform(0.05, max_pause))
            else:
                event = stats.acked if moment == "ack" else stats.finished
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), timeout=max_pause * 5)
                if moment == "ack" and event.is_set():
                    figures.kills_after_ack += 1
                elif moment == "finish" and event.is_set():
                    figures.kills_after_finish += 1
            if graceful:
                took = await asyncio.to_thread(server.stop)
                if took is None:
                    figures.problems.append("the server did not exit within 10 s of SIGTERM")
                else:
                    figures.stop_seconds.append(took)
            else:
                server.kill()
            figures.kills += 1
            await check_store(server, stats, figures)
            if figures.problems:
                break
            figures.restart_seconds.append(await server.start())
            signer = next((p.init_data for p in people if p.init_data), "")
            if signer:
                await check_ai_tables_move(server, stats, figures, signer)
            if figures.problems:
                break
        await asyncio.sleep(0.2)
    finally:
        stop.set()
        for task in tasks:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 5)
        server.kill()
    # a person who met what the soak forbids (an error frame, an API call refused) stopped playing there
    figures.problems += [str(task.exception()) for task in tasks
                         if task.done() and not task.cancelled() and task.exception() is not None]
    if not figures.problems:
        await check_store(server, stats, figures)
    figures.moves_sent = len(stats.sent)
    figures.moves_acked = sum(1 for m in stats.sent.values() if m.acked is not None)
    figures.games_finished = stats.games_finished
    figures.tables = len(stats.tables)
    figures.refused = dict(stats.refused)
    return figures, server


def tracebacks(log: str) -> list[str]:
    """The tracebacks and request errors in a server log."""
    lines = log.splitlines()
    return [line for line in lines if "Traceback" in line or "Error handling request" in line]


# hostile clients ------------------------------------------------------------------

DEEP = "[" * 1000 + "]" * 1000
HOSTILE_FRAMES: tuple[str, ...] = (
    DEEP,
    '{"type": "act", "ref": "d", "seq": 0, "action": {"type": "play", "x": ' + DEEP + "}}",
    '{"type": "act", "ref": "\\ud800", "seq": 0, "action": {"type": "play"}}',
    '{"type": "ping", "t": "\\ud800"}',
    '{"type": "lobby", "ref": "k", "op": "options", "changes": {"\\udc00": 1}}',
    '{"type": "lobby", "ref": "o", "op": "options", "changes": {"timer": []}}',
    '{"type": "lobby", "ref": "p", "op": "options", "changes": {"players": "\u00b2"}}',
    '{"type": "lobby", "ref": "s", "op": "steal"}',
    '{"type": "act", "ref": "q", "seq": "x", "action": {"type": "play"}}',
    '{"type": "act", "ref": "n", "seq": 99999999999999999999, "action": {"type": "play", "card": 5}}',
    '{"type": "act", "ref": {"x": 1}, "seq": 0, "action": {"type": "play"}}',
    '{"type": "act", "ref": "a", "seq": 0, "action": {"type": "play", "card": "Z-stars"}}',
    '{"type": 5}', "null", "[]", '"text"', "1e999", "{", "not json", '{"type": "dance"}',
    '{"type": "ping", "t": [1, 2]}',
    '{"type": "act", "ref": "big", "seq": 0, "action": {"type": "play", "pad": "' + "x" * 5000 + '"}}',
)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


@dataclass
class FuzzFigures:
    """What the hostile clients sent and got."""

    frames: int = 0
    answered: int = 0  # an error or refused frame, or a close with a reason
    closes: dict[int, int] = field(default_factory=dict)
    bodies: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    quiet_p99_ms: float = 0.0
    loaded_p99_ms: float = 0.0
    loaded_pings: int = 0
    tracebacks: int = 0
    problems: list[str] = field(default_factory=list)


async def _signin(session: aiohttp.ClientSession, server: Server, name: str) -> tuple[str, str]:
    async with session.post(server.url + "/api/local/signin", json={"name": name}) as resp:
        init_data = (await resp.json())["init_data"]
    headers = {"Authorization": f"tma {init_data}"}
    async with session.post(server.url + "/api/tables", json={"game": "coins"}, headers=headers) as resp:
        table_id = (await resp.json())["id"]
    return init_data, table_id


async def _pinger(server: Server, samples: list[float], stop: asyncio.Event, every: float) -> None:
    """A healthy client: one ping a ``every`` seconds, its round trips in ``samples`` (seconds)."""
    async with aiohttp.ClientSession() as session:
        init_data, table_id = await _signin(session, server, "Healthy")
        async with session.ws_connect(server.url.replace("http", "ws") + f"/ws/{table_id}") as ws:
            await ws.send_json({"type": "hello", "init_data": init_data, "last_seq": None})
            await ws.receive_json()
            n = 0
            while not stop.is_set():
                n += 1
                began = time.perf_counter()
                await ws.send_json({"type": "ping", "t": n})
                while True:
                    frame = await ws.receive_json(timeout=10)
                    if frame.get("type") == "pong" and frame.get("t") == n:
                        break
                samples.append(time.perf_counter() - began)
                await asyncio.sleep(every)


async def _hostile_socket(server: Server, rng: random.Random, count: int, figures: FuzzFigures) -> None:
    """Send ``count`` hostile frames, one at a time (and now and then a burst), each answered or closed on."""
    async with aiohttp.ClientSession() as session:
        init_data, table_id = await _signin(session, server, "Mallory")
        url = server.url.replace("http", "ws") + f"/ws/{table_id}"
        sent = 0
        while sent < count:
            async with session.ws_connect(url, max_msg_size=0) as ws:
                before_hello = rng.random() < 0.1
                if not before_hello:
                    await ws.send_json({"type": "hello", "init_data": init_data, "last_seq": None})
                    await ws.receive_json(timeout=10)
                while sent < count and not ws.closed:
                    burst = 1 if before_hello or rng.random() > 0.02 else 60
                    texts = [rng.choice(HOSTILE_FRAMES) for _ in range(burst)]
                    for text in texts:
                        if rng.random() < 0.03:
                            await ws.send_bytes(text.encode())
                        else:
                            await ws.send_str(text)
                    sent += burst
                    figures.frames += burst
                    await _answers(ws, burst, figures)
                    if before_hello:
                        break


async def _answers(ws: aiohttp.ClientWebSocketResponse, expected: int, figures: FuzzFigures) -> None:
    got = 0
    while got < expected:
        msg = await ws.receive(timeout=10)
        if msg.type is aiohttp.WSMsgType.TEXT:
            frame = json.loads(msg.data)
            if frame["type"] in ("error", "refused"):
                got += 1
                figures.answered += 1
            continue
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            code = ws.close_code or 0
            figures.closes[code] = figures.closes.get(code, 0) + 1
            if got < expected and code not in (1007, 1008, 1009, 4401):
                figures.problems.append(f"a hostile frame went unanswered; the socket closed with {code}")
            figures.answered += expected - got
            return
        figures.problems.append(f"unexpected message {msg.type}")
        return


def _local_token(server: Server) -> str:
    return (server.data_dir / "local-signin.key").read_text().strip()


def _signed_fields(token: str, **fields: str) -> str:
    import hashlib
    import hmac
    from urllib.parse import urlencode

    from webapp.auth import data_check_string, secret_key

    digest = hmac.new(secret_key(token), data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def hostile_requests(server: Server, init_data: str) -> list[tuple[str, str, bytes | None, dict[str, str]]]:
    """Hostile HTTP requests: method, path, body, headers."""
    auth = {"Authorization": f"tma {init_data}", "Content-Type": "application/json"}
    token = _local_token(server)
    now = str(int(time.time()))
    odd_date = _signed_fields(token, auth_date="\u00b2", user='{"id":5,"first_name":"A"}')
    odd_name = _signed_fields(token, auth_date=now, user='{"id":5,"first_name":"\\ud800"}')
    deep_user = _signed_fields(token, auth_date=now, user="[" * 900 + "]" * 900)
    bodies = [b'{"options": {"timer": []}}', b"{}", b'{"game": "coins", "options": {"timer": []}}',
              b'{"game": "coins", "options": {"timer": {}}}', b'{"game": "coins", "options": {"players": "\xc2\xb2"}}',
              ('{"a": ' + DEEP + "}").encode(), b'{"game": "\\ud800"}', b"\xff\xfe", b"[]", b"null",
              b'{"game": "coins", "options": ' + b"[" * 200 + b"]" * 200 + b"}", b"{" + b" " * 20_000 + b"}"]
    out: list[tuple[str, str, bytes | None, dict[str, str]]] = [("POST", "/api/tables", b, auth) for b in bodies]
    out += [("POST", "/api/local/signin", b, {"Content-Type": "application/json"})
            for b in (b'{"name": "\\ud800"}', b'{"name": 7}', ('{"name": ' + DEEP + "}").encode(), b'{"name": ""}')]
    out += [("GET", "/api/me", None, {"Authorization": f"tma {x}"}) for x in (odd_date, odd_name, deep_user, "%%%")]
    out += [("GET", "/api/me?limit=abc", None, auth), ("GET", "/api/me?before=nosuch", None, auth),
            ("GET", "/api/tables/" + "x" * 300, None, auth), ("POST", "/api/tables/abc/steal", b"{}", auth),
            ("POST", "/api/tables/abc/options", b'{"changes": {"timer": []}}', auth)]
    return out


async def _slow_body(server: Server, init_data: str) -> int:
    """A body promised by Content-Length and never sent: the status the server answers (0 if none)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(f"POST /api/tables HTTP/1.1\r\nHost: x\r\nAuthorization: tma {init_data}\r\n"
                 "Content-Type: application/json\r\nContent-Length: 900\r\n\r\n{".encode())
    await writer.drain()
    try:
        line = await asyncio.wait_for(reader.readline(), 30)
    finally:
        writer.close()
    parts = line.split()
    return int(parts[1]) if len(parts) > 1 else 0


async def run_fuzz(server: Server, *, frames: int, rounds_of_bodies: int = 2, sockets: int = 3, seed: int = 7,
                   quiet_pings: int = 40, ping_every: float = 0.06) -> FuzzFigures:
    """Hostile frames and bodies against a running server while a healthy client pings."""
    rng = random.Random(seed)
    figures = FuzzFigures()
    samples: list[float] = []
    stop = asyncio.Event()
    pinger = asyncio.create_task(_pinger(server, samples, stop, ping_every))
    while len(samples) < quiet_pings:
        if pinger.done():
            pinger.result()
        await asyncio.sleep(0.05)
    quiet = samples[:]
    samples.clear()
    async with aiohttp.ClientSession() as session:
        init_data, _ = await _signin(session, server, "Mallory")

        async def bodies() -> None:
            for _ in range(rounds_of_bodies):
                for method, path, body, headers in hostile_requests(server, init_data):
                    async with session.request(method, server.url + path, data=body, headers=headers) as resp:
                        figures.bodies += 1
                        figures.statuses[resp.status] = figures.statuses.get(resp.status, 0) + 1
                        if resp.status >= 500 or resp.status < 400:
                            figures.problems.append(f"{method} {path} {body!r:.60} answered {resp.status}")
                status = await _slow_body(server, init_data)
                figures.bodies += 1
                figures.statuses[status] = figures.statuses.get(status, 0) + 1
                if status != 408:
                    figures.problems.append(f"a body that never came was answered {status}")

        share = frames // sockets
        await asyncio.gather(bodies(), *(_hostile_socket(server, random.Random(rng.random()), share, figures)
                                         for _ in range(sockets)))
    stop.set()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(pinger, 15)
    figures.quiet_p99_ms = _percentile(quiet, 0.99) * 1000
    figures.loaded_p99_ms = _percentile(samples, 0.99) * 1000
    figures.loaded_pings = len(samples)
    figures.tracebacks = len(tracebacks(server.log()))
    if figures.answered < figures.frames:
        figures.problems.append(f"{figures.frames - figures.answered} hostile frames got no answer")
    if figures.tracebacks:
        figures.problems.append(f"{figures.tracebacks} tracebacks in the server log")
    return figures
