"""A deploy drops nobody: a process stopping gracefully hands its tables over and sends its sockets elsewhere at once.

Two processes (two apps, two table services) on one PostgreSQL database, each with its own
address. A player's socket is at the first, which owns the table; the first stops as on
SIGTERM (aiohttp's shutdown, ``webapp.shutdown``). The socket is closed with 1012 (service
restart); the client reconnects as the page does, to the address the load balancer sends to
a live process (here the second), and is welcomed there at the latest seq within
``WELCOMED_WITHIN``, with every acknowledged move in it; the second serves the next move at
once (its AI answers too: it drives the table), not after the heartbeat's ``STALE_AFTER``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestServer, unused_port

from engine.config import Settings
from engine.service.loading import peers_for
from engine.service.pg_peers import STALE_AFTER
from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.postgres import database as database
from tests.waiting import until
from tests.web.conftest import templates_dir
from tests.web.sockets import Frame, Peer
from webapp.app import make_app

WELCOMED_WITHIN = 3.0  # seconds from the stop's start until the socket is welcomed at the other process
SERVED_WITHIN = 2.0  # seconds the other process takes to answer a move there (far below STALE_AFTER)
STOP_TIMEOUT = 10.0
Process = tuple[TestServer, TableService, str]
Start = Callable[[], Awaitable[Process]]


@pytest.fixture
async def start(database: str, tmp_path: Path) -> AsyncIterator[Start]:
    """Starts 'processes' on the shared database, each with its own address; stopped (if still running) after."""
    started: list[tuple[TestServer, TableService]] = []

    async def process() -> Process:
        port = unused_port()
        url = f"http://127.0.0.1:{port}"
        store = Store(database_url(database, tmp_path))
        await store.open()
        service = TableService(store, ai_delay=0.0, peers=peers_for(store, url))
        await service.start()
        settings = replace(Settings(data_dir=tmp_path, ai_delay=0.0, stop_timeout=STOP_TIMEOUT), process_url=url)
        app = make_app(settings, service=service, bot=False, templates_dir=templates_dir(), hand_over=True)
        server = TestServer(app, port=port)
        await server.start_server()
        started.append((server, service))
        return server, service, url

    yield process
    for server, service in started:
        await server.close()
        await service.close()
        await service.store.close()


def her_turn(service: TableService, table_id: str) -> bool:
    """Whether Ann (seat 0) is to act at the table as this process has it (the AIs have answered her)."""
    snapshot = service.snapshot(table_id)
    return snapshot is not None and 0 in snapshot.info.to_act


async def latest(peer: Peer, service: TableService, table_id: str) -> Frame:
    """The view once the AIs have played and it is Ann's turn again, as her socket heard it."""
    await until(lambda: her_turn(service, table_id))
    snapshot = service.snapshot(table_id)
    assert snapshot is not None
    return await peer.caught_up(snapshot.info.seq)


async def move(peer: Peer, view: Frame, ref: str, within: float = 5.0) -> Frame:
    """Play the first legal card; its acknowledgement (the update carrying ``ref``)."""
    card = view["state"]["legal"][0]
    await peer.send({"type": "act", "ref": ref, "seq": view["seq"], "action": {"type": "play", "card": card}})
    return await peer.until(lambda f: f.get("ref") == ref, within)


async def test_a_stopping_process_sends_its_socket_to_another_which_welcomes_it_and_serves_moves_at_once(
    start: Start,
) -> None:
    first, owner, own = await start()
    _, other, other_url = await start()
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{own}/api/local/signin", json={"name": "Ann"}) as resp:
            ann = (await resp.json())["init_data"]
        headers = {"Authorization": f"tma {ann}"}
        async with session.post(f"{own}/api/tables", json={"game": "coins"}, headers=headers) as resp:
            table_id = (await resp.json())["id"]
        for op in ("add_ai", "add_ai", "start"):
            async with session.post(f"{own}/api/tables/{table_id}/{op}", headers=headers) as resp:
                assert resp.status == 200
        assert await owner.claim(table_id) and await other.owner_elsewhere(table_id) == own
        peer = Peer(await session.ws_connect(f"{own}/ws/{table_id}"))
        await peer.send({"type": "hello", "init_data": ann, "last_seq": None})
        acked = (await move(peer, await latest(peer, owner, table_id), "a1"))["seq"]
        seen = await latest(peer, owner, table_id)

        began = time.monotonic()
        stopping = asyncio.create_task(first.close())  # SIGTERM: aiohttp's shutdown runs the graceful stop
        closing = await asyncio.wait_for(peer.ws.receive(), WELCOMED_WITHIN)
        assert closing.type is WSMsgType.CLOSE and closing.data == 1012, (closing.type, closing.data)
        told = time.monotonic() - began

        back = Peer(await session.ws_connect(f"{other_url}/ws/{table_id}"))  # the load balancer's pick: a live one
        await back.send({"type": "hello", "init_data": ann, "last_seq": seen["seq"]})
        welcome = await back.receive(WELCOMED_WITHIN)
        welcomed = time.monotonic() - began
        assert welcome["type"] == "welcome" and welcome["you"] == 0, welcome
        assert welcome["seq"] == seen["seq"] >= acked and welcomed < WELCOMED_WITHIN, (welcome["seq"], welcomed)
        assert other.drives(table_id) and await other.owner_elsewhere(table_id) is None

        served = await move(back, welcome["view"], "b1", SERVED_WITHIN)
        answered = time.monotonic() - began
        assert served["seq"] == welcome["seq"] + 1 and answered < STALE_AFTER, answered
        await until(lambda: her_turn(other, table_id), SERVED_WITHIN)  # the AIs answer there: it drives the table
        now = await other.info(table_id)

        await asyncio.wait_for(stopping, STOP_TIMEOUT)
        stopped = time.monotonic() - began
        assert stopped < STOP_TIMEOUT
        async with session.get(f"{other_url}/api/tables/{table_id}", headers=headers) as resp:
            assert (await resp.json())["seq"] == now.seq  # every move kept, the acknowledged ones too
        await back.close()
        await peer.close()
        print(f"socket told in {told:.2f} s, welcomed at the other process in {welcomed:.2f} s, its move served "
              f"{answered:.2f} s after the stop began; stopped in {stopped:.2f} s")
