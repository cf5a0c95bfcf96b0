"""The people of ``bench.notify``: each at the table on a socket of their own, or away until their turn message comes.

A person at the table keeps one socket open and moves 2-5 s after their turn begins. A
person who is away keeps none: they wait until their private turn message has reached the
fake Bot API (``Arrivals`` reads its record of calls), then open the table, move once their
2-5 s have passed, and close it again. Every move is sent by these people (no AI seats), so
each table's ``Timeline`` knows when each seq came to be: when the move that made it was sent,
or when the host pressed Start.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson

from tests.fakes.botapi import Call, FakeBotApi

TURN_TEXT = "Your turn in Coins"
THINK = (2.0, 5.0)  # seconds from a turn's beginning to the person's move
CATCH_UP = 2.0  # seconds an away person who opened the table waits for it to show their turn


def is_turn_message(call: Call) -> bool:
    """A private turn message the fake accepted."""
    params = call.params
    return (call.method == "sendMessage" and call.status == 200 and int(params.get("chat_id", 0)) > 0
            and TURN_TEXT in str(params.get("text", "")))


class Arrivals:
    """The turn messages that reached the fake, per person, read from its record of calls as they are answered."""

    def __init__(self, fake: FakeBotApi) -> None:
        self.fake = fake
        self.times: dict[int, list[float]] = defaultdict(list)  # user id -> each turn message's arrival (fake clock)
        self._cursor = 0
        self._unanswered: list[Call] = []
        self._tick = asyncio.Event()

    def scan(self) -> None:
        """Take in the calls answered since the last scan."""
        calls = self.fake.calls
        fresh, self._cursor = calls[self._cursor:], len(calls)
        waiting, self._unanswered = self._unanswered + fresh, []
        found = False
        for call in waiting:
            if call.method != "sendMessage":
                continue
            if call.status == 0:
                self._unanswered.append(call)
            elif is_turn_message(call):
                self.times[int(call.params["chat_id"])].append(call.time)
                found = True
        if found:
            self._tick.set()
            self._tick = asyncio.Event()

    async def run(self) -> None:
        """Scan every 20 ms (each arrival keeps the time the fake recorded, not the scan's)."""
        while True:
            self.scan()
            await asyncio.sleep(0.02)

    async def nth(self, user_id: int, index: int) -> float:
        """When the ``index``-th (from 0) turn message to a person arrived, once it has."""
        while len(self.times[user_id]) <= index:
            await self._tick.wait()
        return self.times[user_id][index]


@dataclass
class Timeline:
    """When each seq of one table came to be, and who was to act at it (from the views people saw)."""

    table_id: str
    started: float = 0.0  # when the host pressed Start: the seq the game began at came to be then
    times: dict[int, float] = field(default_factory=dict)  # seq -> when the move that made it was sent
    acting: dict[int, tuple[int, ...]] = field(default_factory=dict)  # seq -> the seats to act at it
    latest: int = -1

    def saw(self, view: dict[str, Any]) -> None:
        """Note what a view says of its seq."""
        table, seq = view["table"], view["seq"]
        if table["status"] != "playing":
            return
        self.acting[seq] = tuple(table["to_act"])
        self.latest = max(self.latest, seq)

    def time_of(self, seq: int) -> float:
        """When a seq came to be."""
        return self.times.get(seq, self.started)

    def is_acting(self, seat: int, at: float) -> bool | None:
        """Whether ``seat`` was to act at a moment (None when no view of that seq was seen)."""
        known = sorted(set(self.times) | set(self.acting))
        moments = [self.time_of(s) for s in known]
        i = bisect.bisect_right(moments, at) - 1
        if i < 0:
            return None
        acting = self.acting.get(known[i])
        return None if acting is None else seat in acting


@dataclass
class Play:
    """What every person of a run shares: where the tables are, when play stops, and what was seen."""

    session: aiohttp.ClientSession
    arrivals: Arrivals
    clock: Any  # the fake's clock: arrivals, starts and moves on one time line
    stop_moving: float = float("inf")
    moves: list[float] = field(default_factory=list)  # when each acknowledged move was sent
    refusals: list[str] = field(default_factory=list)
    away_delays: list[float] = field(default_factory=list)  # turn start -> turn message arrival, away people only
    stale_wakes: int = 0  # an away person's turn message came, and it was not their turn when they looked


class Person:
    """One person at one table: at the table (a socket kept open) or away (a socket only to move)."""

    def __init__(self, play: Play, timeline: Timeline, seat: int, user_id: int, auth: str, ws_url: str, *,
                 away: bool, rng: random.Random) -> None:
        self.play, self.timeline, self.seat, self.user_id = play, timeline, seat, user_id
        self.auth, self.ws_url, self.away, self.rng = auth, ws_url, away, rng
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.acted = -1  # the seq of this person's latest move
        self.served = -1  # away: the seq the latest turn they were told of began at
        self.view: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None
        self.acked = asyncio.Event()
        self.ref = ""

    async def connect(self) -> dict[str, Any]:
        """Open the table and sign in; the welcome's view."""
        self.ws = await self.play.session.ws_connect(self.ws_url, compress=0, max_msg_size=1 << 20)
        await self.ws.send_str(orjson.dumps({"type": "hello", "init_data": self.auth, "last_seq": None}).decode())
        while True:
            msg = await self.ws.receive(timeout=30)
            if msg.type is not aiohttp.WSMsgType.TEXT:
                raise RuntimeError(f"user {self.user_id}: the socket closed before its welcome ({msg.type})")
            frame = orjson.loads(msg.data)
            if frame["type"] == "welcome":
                view: dict[str, Any] = frame["view"]
                self.timeline.saw(view)
                return view
            if frame["type"] == "error":
                raise RuntimeError(f"user {self.user_id}: {frame}")

    def to_act(self, view: dict[str, Any]) -> bool:
        """Whether a view says it is this person's turn, not yet moved in."""
        table = view["table"]
        return table["status"] == "playing" and self.seat in table["to_act"] and view["seq"] > self.acted

    async def move(self, view: dict[str, Any]) -> bool:
        """Wait out the thinking from the turn's start, then play a card; False once play has stopped."""
        assert self.ws is not None
        began = self.timeline.time_of(view["seq"])  # in Coins each card is a turn: it began at this seq
        at = began + self.rng.uniform(*THINK)
        await asyncio.sleep(max(0.0, at - self.play.clock()))
        sent = self.play.clock()
        if sent >= self.play.stop_moving:
            return False
        seq = view["seq"]
        card = self.rng.choice(view["state"]["legal"])
        self.ref, self.acted = f"{self.user_id}-{seq}", seq
        self.acked.clear()
        self.timeline.times[seq + 1] = sent
        await self.ws.send_str(orjson.dumps({"type": "act", "ref": self.ref, "seq": seq,
                                             "action": {"type": "play", "card": card}}).decode())
        await asyncio.wait_for(self.acked.wait(), 30)
        self.play.moves.append(sent)
        return True

    def took(self, frame: dict[str, Any]) -> None:
        """Note a frame from the server: an answer to this person's move, or a fresh view."""
        kind = frame["type"]
        if frame.get("ref") == self.ref and kind in ("update", "ack"):
            self.acked.set()
        elif kind == "refused" and frame.get("ref") == self.ref:
            self.play.refusals.append(str(frame.get("code")))
            self.acked.set()
        if kind in ("update", "welcome"):
            self.view = frame["view"]
            self.timeline.saw(self.view)
            self.changed.set()

    async def at_table(self) -> None:
        """Keep the table open, moving on each turn until play stops (the socket stays open after)."""
        if self.ws is None:
            self.view = await self.connect()
        self.reader = asyncio.create_task(self._read())
        while True:
            while not self.to_act(self.view):
                self.changed.clear()
                await self.changed.wait()
            if not await self.move(self.view):
                return

    async def away_from_table(self) -> None:
        """Open the table only when a turn message comes, move, and close it again."""
        told = 0
        while True:
            arrived = await self.play.arrivals.nth(self.user_id, told)
            told += 1
            self.view = await self.connect()
            assert self.ws is not None
            reader = asyncio.create_task(self._read())
            try:
                # a process other than the one that made the last move may be a moment behind: wait for it
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(CATCH_UP):
                        while not self.to_act(self.view):
                            self.changed.clear()
                            await self.changed.wait()
                view = self.view
                if not self.to_act(view):
                    self.play.stale_wakes += 1
                    continue
                began = view["seq"]
                if began != self.served:
                    self.served = began
                    self.play.away_delays.append(arrived - self.timeline.time_of(began))
                await self.move(view)
            finally:
                reader.cancel()
                await self.ws.close()
                self.ws = None

    async def _read(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            if msg.type is not aiohttp.WSMsgType.TEXT:
                return
            self.took(orjson.loads(msg.data))

    async def close(self) -> None:
        """Close the socket, if one is open."""
        if self.reader is not None:
            self.reader.cancel()
        if self.ws is not None:
            await self.ws.close()

    def never_told(self) -> bool:
        """Away, to act now, and no turn message has come for this turn."""
        seq = self.timeline.latest
        return self.away and self.seat in self.timeline.acting.get(seq, ()) and seq != self.served
