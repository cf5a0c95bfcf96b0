"""A test peer on the table WebSocket: sends frames, reads them, and remembers its latest view."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from aiohttp import ClientWebSocketResponse, WSMsgType

from tests.web.conftest import Client

Frame = dict[str, Any]


class Peer:
    """One client socket at a table."""

    def __init__(self, ws: ClientWebSocketResponse) -> None:
        self.ws = ws
        self.view: Frame | None = None

    async def send(self, frame: Frame) -> None:
        """Send a frame."""
        await self.ws.send_json(frame)

    async def receive(self, wait: float = 5.0) -> Frame:
        """The next frame (fails on close or timeout)."""
        msg = await self.ws.receive(timeout=wait)
        assert msg.type is WSMsgType.TEXT, (msg.type, msg.data, msg.extra)
        frame: Frame = json.loads(msg.data)
        if "view" in frame:
            self.view = frame["view"]
        return frame

    async def until(self, accept: Callable[[Frame], bool], wait: float = 5.0) -> Frame:
        """The first frame that ``accept`` takes, skipping the others."""
        async with asyncio.timeout(wait):
            while True:
                frame = await self.receive(wait)
                if accept(frame):
                    return frame

    async def caught_up(self, seq: int) -> Frame:
        """The latest view once the game is at ``seq`` (reading frames until it is; lobby views carry seq 0 too)."""
        while self.view is None or self.view["seq"] != seq or self.view["state"] is None:
            await self.until(lambda f: "view" in f)
        return self.view

    async def silent(self, wait: float = 0.2) -> bool:
        """Whether no frame arrives within ``wait`` seconds."""
        try:
            msg = await self.ws.receive(timeout=wait)
        except TimeoutError:
            return True
        raise AssertionError(f"unexpected frame {msg.data!r}")

    async def close(self) -> None:
        """Close the socket."""
        await self.ws.close()


async def connect(client: Client, table_id: str, init_data: str, last_seq: int | None = None) -> tuple[Peer, Frame]:
    """Open the table's socket, say hello, and return the peer with its welcome frame."""
    peer = Peer(await client.ws_connect(f"/ws/{table_id}"))
    await peer.send({"type": "hello", "init_data": init_data, "last_seq": last_seq})
    welcome = await peer.receive()
    assert welcome["type"] == "welcome", welcome
    return peer, welcome
