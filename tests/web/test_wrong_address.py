"""A wrong ``PROCESS_URL`` is noticed, said, and costs no table: sockets are served instead of bouncing for ever.

Two processes (two apps, two table services) on one PostgreSQL database; the table's owner
advertises an address where nothing answers. A socket opened at the other process, by a
client that follows redirects as the page does (``webapp/static/shell/net.js``: at most
``MAX_HOPS`` redirects without a welcome, then served where it is), is welcomed within a
bound after a bounded number of redirects; both processes say what is wrong in ``/healthz``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer, unused_port

from engine.config import Settings
from engine.service.loading import peers_for
from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.postgres import database as database
from tests.web.conftest import templates_dir
from webapp import addresses
from webapp.app import make_app

MAX_HOPS = 3  # net.js: redirects followed without a welcome before the page asks to be served where it is
WELCOMED_WITHIN = 5.0  # seconds from opening the table to its welcome (the issue asks a table to move within 10)
Process = tuple[TestServer, TableService]
Start = Callable[[str, int], Awaitable[Process]]


@pytest.fixture
async def start(database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Start]:
    """Starts 'processes' on the shared database, each with the given PROCESS_URL (its own port)."""
    monkeypatch.setattr(addresses, "SELF_CHECK_FOR", 1.0)  # a wrong own address is said within a second
    started: list[tuple[TestServer, TableService]] = []

    async def process(url: str, port: int) -> Process:
        store = Store(database_url(database, tmp_path))
        await store.open()
        service = TableService(store, ai_delay=0.0, heal_every=None, peers=peers_for(store, url))
        await service.start()
        settings = replace(Settings(data_dir=tmp_path, ai_delay=0.0), process_url=url)
        server = TestServer(make_app(settings, service=service, bot=False, templates_dir=templates_dir()),
                            port=port)
        await server.start_server()
        started.append((server, service))
        return server, service

    yield process
    for server, service in started:
        await server.close()
        await service.close()
        await service.store.close()


async def open_like_the_page(session: aiohttp.ClientSession, own: str, table_id: str,
                             init_data: str) -> tuple[dict[str, Any], int]:
    """Open the table's socket as net.js does; its welcome and the redirects it followed on the way."""
    at, hops, redirects = own, 0, 0
    while True:
        try:
            ws = await session.ws_connect(f"{at}/ws/{table_id}")
        except (aiohttp.ClientError, OSError):
            at = own  # the owner cannot be reached: back to the page's own address, the hops kept
            continue
        await ws.send_json({"type": "hello", "init_data": init_data, "last_seq": None, "stay": hops >= MAX_HOPS})
        frame = await ws.receive_json()
        if frame["type"] == "welcome":
            await ws.close()
            return frame, redirects
        await ws.close()
        assert frame["type"] == "redirect", frame
        redirects += 1
        assert hops < MAX_HOPS, "redirected again after asking to stay"
        at, hops = frame["url"], hops + 1


async def signed_in(session: aiohttp.ClientSession, url: str) -> str:
    async with session.post(f"{url}/api/local/signin", json={"name": "Ann"}) as resp:
        assert resp.status == 200
        init_data: str = (await resp.json())["init_data"]
        return init_data


async def health(session: aiohttp.ClientSession, url: str) -> dict[str, Any]:
    async with session.get(f"{url}/healthz") as resp:
        found: dict[str, Any] = (await resp.json()).get("addresses", {})
        return found


@pytest.mark.parametrize("wrong_address", ["nowhere", "the other process"])
async def test_a_socket_sent_towards_an_owner_whose_address_is_wrong_is_welcomed_where_it_landed(
    start: Start, wrong_address: str
) -> None:
    port = unused_port()
    own = f"http://127.0.0.1:{port}"
    await start(own, port)
    # nothing listens at the first; the second is the first process's address, copied by mistake
    dead = f"http://127.0.0.1:{unused_port()}" if wrong_address == "nowhere" else own
    wrong, owner = await start(dead, unused_port())
    async with aiohttp.ClientSession() as session:
        ann = await signed_in(session, own)
        async with session.post(f"{own}/api/tables", json={"game": "coins"},
                                headers={"Authorization": f"tma {ann}"}) as resp:
            table_id = (await resp.json())["id"]
        assert await owner.claim(table_id)  # the process with the wrong address owns the table
        began = time.monotonic()
        welcome, redirects = await asyncio.wait_for(open_like_the_page(session, own, table_id, ann), WELCOMED_WITHIN)
        took = time.monotonic() - began
        assert welcome["you"] == 0 and redirects <= MAX_HOPS
        if wrong_address == "nowhere":  # (an owner advertising this process's own address is served here anyway)
            assert dead in (await health(session, own))["unreachable_peers"]
        async with asyncio.timeout(5):  # the wrong process says so of itself once its check gives up
            while "own_address" not in await health(session, str(wrong.make_url("")).rstrip("/")):  # noqa: ASYNC110
                await asyncio.sleep(0.1)
        print(f"welcomed after {redirects} redirect(s) in {took:.2f} s")


async def test_a_page_that_followed_its_redirects_without_a_welcome_is_served_where_it_asks_to_stay(
    start: Start,
) -> None:
    port, other_port = unused_port(), unused_port()
    own, other = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{other_port}"
    await start(own, port)
    _, owner = await start(other, other_port)
    async with aiohttp.ClientSession() as session:
        ann = await signed_in(session, own)
        async with session.post(f"{own}/api/tables", json={"game": "coins"},
                                headers={"Authorization": f"tma {ann}"}) as resp:
            table_id = (await resp.json())["id"]
        assert await owner.claim(table_id)
        for stay, expected in ((False, "redirect"), (True, "welcome")):
            async with session.ws_connect(f"{own}/ws/{table_id}") as ws:
                await ws.send_json({"type": "hello", "init_data": ann, "last_seq": None, "stay": stay})
                frame = await asyncio.wait_for(ws.receive_json(), WELCOMED_WITHIN)
                assert frame["type"] == expected, frame
        assert frame["you"] == 0 and (await health(session, own))["redirect_loops"] == 1


async def test_processes_whose_addresses_are_right_find_themselves_and_each_other_there(start: Start) -> None:
    port, other_port = unused_port(), unused_port()
    urls = [f"http://127.0.0.1:{port}", f"http://127.0.0.1:{other_port}"]
    processes = [await start(urls[0], port), await start(urls[1], other_port)]
    async with asyncio.timeout(5):  # each asks its own address until it answers as itself
        while any(checker_of(server).report.own_ok is None for server, _ in processes):  # noqa: ASYNC110
            await asyncio.sleep(0.05)
    async with aiohttp.ClientSession() as session:
        for url in urls:
            found = await health(session, url)
            assert "own_address" not in found and "unreachable_peers" not in found, found
    first = checker_of(processes[0][0])
    assert await first.answers(urls[1])  # the other process, answering as itself
    assert not await first.answers(urls[0])  # its own address, advertised as a peer's, is not sent to
    assert "own address" in first.report.unreachable[urls[0]]


def checker_of(server: TestServer) -> addresses.Addresses:
    """The address checker of a started test process."""
    return server.app[addresses.ADDRESSES]
