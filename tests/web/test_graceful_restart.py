"""One process on SQLite, restarted: a graceful stop leaves nothing half-written and the page gets back in by itself.

The process stops as on SIGTERM (aiohttp's shutdown, ``webapp.shutdown``) while a move is on
its way: the socket is closed with 1012 (service restart), every acknowledged move is stored,
the action log has no gap, and a move sent while stopping is either acknowledged (and kept) or
refused as ``moving``. The client then tries again as the page does until the process is back
on the same address, and is welcomed there at the latest seq, and plays on.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestServer, unused_port

from engine.config import Settings
from engine.store.database import Store, database_url
from tests.web.conftest import templates_dir
from tests.web.sockets import Peer
from webapp.app import make_app
from webapp.keys import SERVICE
from webapp.shutdown import STOP

STOP_TIMEOUT = 10.0
BACK_WITHIN = 10.0  # seconds for the process to come back and the client to be welcomed there


async def serve(settings: Settings, port: int) -> TestServer:
    """The web process with its own service over ``settings``' SQLite database, on ``port``."""
    server = TestServer(make_app(settings, templates_dir=templates_dir()), port=port)
    await server.start_server()
    return server


async def reconnect(session: aiohttp.ClientSession, url: str) -> Peer:
    """Open the socket again as the page does: at once, then after a growing pause, until the server answers."""
    pause = 0.0
    async with asyncio.timeout(BACK_WITHIN):
        while True:
            try:
                return Peer(await session.ws_connect(url))
            except (aiohttp.ClientError, OSError):
                await asyncio.sleep(pause)
                pause = min(1.5, max(0.25, pause * 2))


def card_of(view: dict[str, Any]) -> dict[str, Any]:
    return {"type": "play", "card": view["state"]["legal"][0]}


@pytest.mark.parametrize("moment", ["sent", "being stored"])
async def test_a_graceful_stop_keeps_every_acknowledged_move_and_the_page_gets_back_in_once_the_process_is_back(
    tmp_path: Path, moment: str,
) -> None:
    settings = Settings(data_dir=tmp_path, ai_delay=0.0, stop_timeout=STOP_TIMEOUT)
    port = unused_port()
    url = f"http://127.0.0.1:{port}"
    server = await serve(settings, port)
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{url}/api/local/signin", json={"name": "Ann"}) as resp:
            ann = (await resp.json())["init_data"]
        headers = {"Authorization": f"tma {ann}"}
        async with session.post(f"{url}/api/tables", json={"game": "coins", "first_dealer": "seat:2"},
                                headers=headers) as resp:
            table_id = (await resp.json())["id"]
        for op in ("add_ai", "add_ai", "start"):
            async with session.post(f"{url}/api/tables/{table_id}/{op}", headers=headers) as resp:
                assert resp.status == 200
        service = server.app[SERVICE]
        peer = Peer(await session.ws_connect(f"{url}/ws/{table_id}"))
        await peer.send({"type": "hello", "init_data": ann, "last_seq": None})
        await service.autoplay.idle()
        view = await peer.caught_up((await service.info(table_id)).seq)

        storing = asyncio.Event()
        if moment == "being stored":  # the stop begins while the move is being written: it is finished first
            append = service.store.tables.append

            async def slow_append(*args: Any, **kwargs: Any) -> Any:
                storing.set()
                await asyncio.sleep(0.3)
                return await append(*args, **kwargs)

            service.store.tables.append = slow_append  # type: ignore[method-assign]
        await peer.send({"type": "act", "ref": "a1", "seq": view["seq"], "action": card_of(view)})
        if moment == "being stored":
            await asyncio.wait_for(storing.wait(), 5)
        began = time.monotonic()
        stopping = asyncio.create_task(server.close())  # SIGTERM while the move is on its way
        frames, acked = [], 0
        async with asyncio.timeout(STOP_TIMEOUT):
            while (msg := await peer.ws.receive()).type is WSMsgType.TEXT:
                frames.append(frame := msg.json())
                if frame.get("ref") == "a1" and frame["type"] in ("update", "ack"):
                    acked = frame["seq"]
        assert msg.type is WSMsgType.CLOSE and msg.data == 1012, (msg.type, msg.data)
        refused = [f["code"] for f in frames if f["type"] == "refused"]
        assert acked == view["seq"] + 1 or refused == ["moving"], frames  # acknowledged, or refused in words
        assert acked or moment == "sent", frames  # a move the process had accepted is finished before it stops
        await asyncio.wait_for(stopping, STOP_TIMEOUT)
        stopped = time.monotonic() - began
        assert stopped < STOP_TIMEOUT and server.app[STOP].took["sockets"] < STOP_TIMEOUT

        store = Store(database_url(None, tmp_path))  # what the stopped process left: whole moves, in order
        await store.open()
        try:
            logged = [entry.seq for entry in await store.tables.load_actions(table_id, after=0)]
        finally:
            await store.close()
        assert logged == list(range(1, len(logged) + 1)) and len(logged) >= max(acked, view["seq"])

        back_at = asyncio.get_running_loop().create_task(serve(settings, port))  # the restarted process
        again = await reconnect(session, f"{url}/ws/{table_id}")
        server = await back_at
        try:
            await again.send({"type": "hello", "init_data": ann, "last_seq": acked or view["seq"]})
            welcome = await again.receive()
            assert welcome["type"] == "welcome" and welcome["seq"] >= len(logged), welcome
            await server.app[SERVICE].autoplay.idle()
            view = await again.caught_up((await server.app[SERVICE].info(table_id)).seq)
            await again.send({"type": "act", "ref": "b1", "seq": view["seq"], "action": card_of(view)})
            served = await again.until(lambda f: f.get("ref") == "b1")
            assert served["seq"] == view["seq"] + 1
            await again.close()
        finally:
            await server.close()
        print(f"stopped in {stopped:.2f} s; the move sent at the stop was "
              f"{'acknowledged' if acked else 'refused as moving'}")
