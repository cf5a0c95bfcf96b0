"""The soak's parts: the real ``python -m webapp`` as a process to start, stop, kill and read the log of, and people
who sign in locally and play against AI players over its sockets, counting what they sent and what was acknowledged.

The kill soak is ``tests.soak.kills``, the hostile clients ``tests.soak.hostile``, several processes on one
database ``tests.soak.cluster``; the checks raise ``SoakFailure``.
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

from engine.store.database import database_url

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


def tracebacks(log: str) -> list[str]:
    """The tracebacks and request errors in a server log."""
    lines = log.splitlines()
    return [line for line in lines if "Traceback" in line or "Error handling request" in line]
