"""The people of ``bench.ws`` and ``bench.cluster``: tables of three sockets that move at a pace or flat out."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from typing import Any

import aiohttp
import orjson

from bench.ws_servers import TOKEN, pct

PACE = 2.0  # seconds between a table's moves at a person's pace


class Seat:
    """One person's socket.

    A frame is read only as far as its ``type`` and ``seq``; its view is parsed when a move needs
    it (``view``): flat out, parsing every frame of every seat made this client, not the server,
    the bottleneck of the run (a core of its own at 98 % while the server used 76 %).
    """

    def __init__(self, table: Table, seat: int, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.table, self.seat, self.ws = table, seat, ws
        self._view: dict[str, Any] = {}
        self._latest = ""  # the text of the latest frame with a view, parsed when asked
        self.seq = 0
        self.sizes: list[int] = []

    @property
    def view(self) -> dict[str, Any]:
        """The seat's latest view."""
        if self._latest:
            self._view, self._latest = orjson.loads(self._latest)["view"], ""
        return self._view

    @view.setter
    def view(self, value: dict[str, Any]) -> None:
        self._view, self._latest = value, ""

    async def read(self) -> None:
        async for msg in self.ws:
            if msg.type is not aiohttp.WSMsgType.TEXT:
                break
            text = msg.data
            head = _HEAD.search(text, 0, 120)
            kind = head.group(1) if head is not None else ""
            if kind == "update" and len(self.sizes) < 10_000:
                self.sizes.append(len(text))
            if kind in ("update", "welcome"):
                seq = _SEQ.search(text, 0, 160)
                assert seq is not None, text[:160]
                self.seq = int(seq.group(1))
                if '"view":' in text:
                    self._latest = text
                self.table.arrived()
            elif kind in ("refused", "error"):
                self.table.refusals += 1


_HEAD = re.compile(r'"type":"(\w+)"')
_SEQ = re.compile(r'"seq":(\d+)')


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
        done, target = self.done, self.target
        if done is not None and not done.done():
            for seat in self.seats:
                if seat.seq < target:
                    return
            done.set_result(time.perf_counter() - self.sent)

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
        await mover.ws.send_str(orjson.dumps(frame).decode())
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
            if pace:  # no later than the phase's end: a phase lasts its seconds, not up to a pace more
                await asyncio.sleep(max(0.0, min(next_at, stop) - time.perf_counter()))
                next_at += pace
            if time.perf_counter() >= stop:
                return
            latency = await table.move()
            if latency is None:
                return
            latencies.append(latency)

    await asyncio.gather(*(run(t) for t in tables))
    return latencies


def report(label: str, latencies: list[float], cpu: float, seconds: float) -> float:
    per_move = cpu / max(1, len(latencies)) * 1e6
    rate = len(latencies) / seconds
    print(f"  {label:<26} {len(latencies):>7} moves {rate:>7.{1 if rate < 10 else 0}f}/s   "
          f"p50 {pct(latencies, 0.50):6.2f} ms   p99 {pct(latencies, 0.99):6.2f} ms   "
          f"server CPU {per_move:6.0f} µs/move", flush=True)
    return per_move
