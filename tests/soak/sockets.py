"""Players' sockets on real ``python -m webapp`` processes: signing in, opening a table, reading its frames."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import aiohttp

from tests.soak.harness import Server

TAKEOVER = 60.0  # seconds: several supervisor rounds, on a machine busy with other work
MOVES = ("started", "moved", "finished")  # the updates that move a game on (others, a reminder say, keep its seq)


class Seat:
    """One player's socket on one process; ``seqs`` lists every move it got, a resync as ``-seq - 1``."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, you: int, view: dict[str, Any], *,
                 wait: float = TAKEOVER) -> None:
        self.ws, self.you, self.view, self.wait = ws, you, view, wait
        self.seqs: list[int] = []
        self.answers: dict[str, dict[str, Any]] = {}  # acks (an ack frame, or the mover's update) and refusals by ref

    async def until_seq(self, seq: int) -> dict[str, Any]:
        """Read frames until the view reaches ``seq`` with the game dealt; the view then."""
        while self.view["seq"] < seq or self.view["state"] is None:
            await self._read()
        return self.view

    async def answer(self, ref: str) -> dict[str, Any]:
        """Read frames until the intent ``ref`` is acknowledged or refused; that frame."""
        while ref not in self.answers:
            await self._read()
        return self.answers[ref]

    async def play_first_legal(self, ref: str) -> None:
        """Send the first legal card of the view this socket has now, against its seq."""
        await self.ws.send_json({"type": "act", "ref": ref, "seq": self.view["seq"],
                                 "action": {"type": "play", "card": self.view["state"]["legal"][0]}})

    async def _read(self) -> None:
        # a move may wait for the supervisor round (10 s) of the process that takes a dead one's table over
        frame = await asyncio.wait_for(self.ws.receive_json(), timeout=self.wait)
        if frame["type"] == "update":
            if frame["view"]["state"] is not None and frame["kind"] in MOVES:
                self.seqs.append(frame["seq"])
            self.view = frame["view"]
            if "ref" in frame:  # the mover's own update acknowledges the move
                self.answers[frame["ref"]] = {"type": "ack", "ref": frame["ref"], "seq": frame["seq"]}
        elif frame["type"] == "welcome":
            self.seqs.append(-frame["view"]["seq"] - 1)  # a resync: marked, so a gap can never hide
            self.view = frame["view"]
        elif frame["type"] in ("ack", "refused"):
            self.answers[frame["ref"]] = frame


async def sign_in(session: aiohttp.ClientSession, server: Server, name: str) -> dict[str, str]:
    """Sign in locally; the Authorization header of that person."""
    async with session.post(server.url + "/api/local/signin", json={"name": name}) as resp:
        return {"Authorization": f"tma {(await resp.json())['init_data']}"}


async def open_socket(session: aiohttp.ClientSession, server: Server, table_id: str, auth: dict[str, str], *,
                      wait: float = TAKEOVER) -> Seat:
    """Open the table's socket on ``server`` and take its welcome."""
    ws = await session.ws_connect(f"{server.url}/ws/{table_id}")
    await ws.send_json({"type": "hello", "init_data": auth["Authorization"][4:], "last_seq": None})
    welcome = await asyncio.wait_for(ws.receive_json(), timeout=15)
    assert welcome["type"] == "welcome", welcome
    return Seat(ws, welcome["you"], welcome["view"], wait=wait)


async def coins_table(session: aiohttp.ClientSession, host: tuple[Server, dict[str, str]],
                      guest: tuple[Server, dict[str, str]]) -> str:
    """A Coins table of the host and the guest (each through their own process) and an AI, the AI dealing first."""
    (first, ann), (second, bob) = host, guest
    async with session.post(first.url + "/api/tables", json={"game": "coins", "options": {
            "first_dealer": "seat:2"}}, headers=ann) as resp:
        table_id: str = (await resp.json())["id"]
    assert (await session.post(f"{second.url}/api/tables/{table_id}/join", headers=bob)).status == 200
    assert (await session.post(f"{first.url}/api/tables/{table_id}/add_ai", headers=ann)).status == 200
    return table_id


async def play_until(seats: dict[int, Seat], seq: int, done: Callable[[dict[str, Any]], bool]) -> int:
    """Play the people's turns from ``seq`` (the first legal card) and wait out the AI's, until ``done(view)``.

    Every socket must reach each seq before the next move; the seq reached is returned.
    """
    while True:
        views = [await socket.until_seq(seq) for socket in seats.values()]
        view = views[0]
        assert all(v["seq"] == seq for v in views), [v["seq"] for v in views]
        if done(view) or view["table"]["status"] != "playing":
            return seq
        (seat,) = view["table"]["to_act"]
        if seat in seats:
            await seats[seat].play_first_legal(f"m{seq}")
        seq += 1


def person_to_act(seats: dict[int, Seat], view: dict[str, Any]) -> bool:
    """Whether one of these sockets' players is to act in ``view``."""
    return any(seat in seats for seat in view["table"]["to_act"])
