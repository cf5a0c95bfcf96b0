"""Each table lives on one process: three real ``python -m webapp`` processes with addresses of their own.

Three people open one table, each through a different process; the process that owns
the table (its lease holder) serves all three sockets, the others send theirs there with
a redirect frame. Killing the owner mid-game hands the table to another process: the
sockets come back through their own processes, one of which takes the table, and no
acknowledged move is lost.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import aiohttp

from engine.store.database import Store, database_url
from tests.soak.harness import Server
from tests.soak.sockets import Seat, play_until, sign_in

LANDING = 30.0  # seconds a socket may take to reach the owner (a dead owner's lease is freed a moment after it died)


async def hello(session: aiohttp.ClientSession, url: str, table_id: str,
                auth: dict[str, str]) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]:
    """Open the table's socket at ``url`` and say hello; the socket and its first frame."""
    ws = await session.ws_connect(f"{url}/ws/{table_id}")
    await ws.send_json({"type": "hello", "init_data": auth["Authorization"][4:], "last_seq": None})
    return ws, await asyncio.wait_for(ws.receive_json(), timeout=15)


async def open_at_owner(session: aiohttp.ClientSession, url: str, table_id: str,
                        auth: dict[str, str]) -> tuple[Seat, str, int]:
    """Open the table's socket as the page does: at ``url``, following a redirect to the owner and coming back to
    ``url`` when the owner cannot be reached; the seat, where it landed and the redirects it followed."""
    redirects, began = 0, time.monotonic()
    at = url
    while time.monotonic() - began < LANDING:
        try:
            ws, frame = await hello(session, at, table_id, auth)
        except (aiohttp.ClientError, OSError):
            at = url  # the owner is gone: back to the page's own address
            await asyncio.sleep(0.1)
            continue
        if frame["type"] == "welcome":
            return Seat(ws, frame["you"], frame["view"]), at, redirects
        await ws.close()
        assert frame["type"] == "redirect" and ws.close_code == 4307, frame
        assert frame["url"] != at
        at, redirects = frame["url"], redirects + 1
    raise AssertionError(f"no welcome at table {table_id} within {LANDING} s")


async def started_table(session: aiohttp.ClientSession, servers: list[Server]) -> tuple[str, list[dict[str, str]]]:
    """A Coins game of three people, each signed in and joining through a process of their own; its id, their
    sign-ins."""
    people = [await sign_in(session, server, name) for server, name in zip(servers, ("Ann", "Bob", "Cat"),
                                                                           strict=True)]
    async with session.post(servers[0].url + "/api/tables", json={"game": "coins", "options": {
            "target_score": 2, "first_dealer": "seat:2"}}, headers=people[0]) as resp:
        table_id: str = (await resp.json())["id"]
    for server, person in zip(servers[1:], people[1:], strict=True):
        assert (await session.post(f"{server.url}/api/tables/{table_id}/join", headers=person)).status == 200
    assert (await session.post(f"{servers[2].url}/api/tables/{table_id}/start", headers=people[0])).status == 200
    return table_id, people


def three_servers(database: str, tmp_path: Path) -> list[Server]:
    """Three processes on one database, each with its own address (``PROCESS_URL``)."""
    servers = [Server(tmp_path / "data", database) for _ in range(3)]
    for server, name in zip(servers, ("first", "second", "third"), strict=True):
        server.log_path = tmp_path / f"{name}.log"
        server.extra_env["PROCESS_URL"] = server.url
    return servers


async def stored_log(database: str, tmp_path: Path, table_id: str) -> list[tuple[int, int, dict[str, Any]]]:
    store = Store(database_url(database, tmp_path))
    await store.open()
    log = await store.tables.load_actions(table_id)
    await store.close()
    return [(a.seq, a.seat, a.action) for a in log]


async def test_three_people_on_three_processes_are_sent_to_the_owner_and_play_the_whole_game(
    database: str, tmp_path: Path
) -> None:
    servers = three_servers(database, tmp_path)
    await asyncio.gather(*(server.start() for server in servers))
    try:
        async with aiohttp.ClientSession() as session:
            table_id, people = await started_table(session, servers)
            landed = [await open_at_owner(session, server.url, table_id, person)
                      for server, person in zip(servers, people, strict=True)]
            seats = {seat: socket for seat, (socket, _, _) in enumerate(landed)}
            owner = landed[0][1]
            assert [at for _, at, _ in landed] == [owner] * 3  # one process serves every socket of the table
            assert sorted(redirects for _, _, redirects in landed) == [0, 1, 1]  # the two others were sent there
            assert [socket.you for socket in seats.values()] == [0, 1, 2]
            last = await play_until(seats, 0, lambda view: False)
            assert all(s.view["table"]["status"] == "finished" and s.view["seq"] == last for s in seats.values())
            for socket in seats.values():  # every move, in order, once (seq 0 is the deal)
                assert socket.seqs == list(range(socket.seqs[0], last + 1)) and socket.seqs[0] <= 1, socket.seqs
        log = await stored_log(database, tmp_path, table_id)
        assert [seq for seq, _, _ in log] == list(range(1, last + 1))
    finally:
        for server in servers:
            server.stop()


async def test_killing_the_owner_mid_game_hands_the_table_and_its_sockets_to_another_process(
    database: str, tmp_path: Path
) -> None:
    servers = three_servers(database, tmp_path)
    await asyncio.gather(*(server.start() for server in servers))
    try:
        async with aiohttp.ClientSession() as session:
            table_id, people = await started_table(session, servers)
            pages = [server.url for server in servers]  # where each person's page opens the socket
            landed = [await open_at_owner(session, page, table_id, person)
                      for page, person in zip(pages, people, strict=True)]
            seats = {seat: socket for seat, (socket, _, _) in enumerate(landed)}
            owner = next(server for server in servers if server.url == landed[0][1])
            acked: list[tuple[int, int, dict[str, Any]]] = []
            seq = 0
            while len(acked) < 8:  # moves acknowledged by the owner
                views = [await socket.until_seq(seq) for socket in seats.values()]
                (seat,) = views[0]["table"]["to_act"]
                action = {"type": "play", "card": views[seat]["state"]["legal"][0]}
                await seats[seat].ws.send_json({"type": "act", "ref": f"m{seq}", "seq": seq, "action": action})
                answer = await seats[seat].answer(f"m{seq}")
                assert answer["type"] == "ack", answer
                seq = answer["seq"]
                acked.append((seq, seat, action))
            owner.kill()  # the owner dies right after acknowledging a move
            alive = [server for server in servers if server is not owner]
            for page_index, page in enumerate(pages):
                if page == owner.url:  # that person's page now reaches a live process
                    pages[page_index] = alive[0].url
            landed = [await open_at_owner(session, page, table_id, person)
                      for page, person in zip(pages, people, strict=True)]
            seats = {seat: socket for seat, (socket, _, _) in enumerate(landed)}
            new_owner = landed[0][1]
            assert new_owner != owner.url and [at for _, at, _ in landed] == [new_owner] * 3
            assert all(socket.view["seq"] == seq for socket in seats.values())  # nothing acknowledged was lost
            last = await play_until(seats, seq, lambda view: False)
            assert all(s.view["table"]["status"] == "finished" for s in seats.values())
            for socket in seats.values():
                assert socket.seqs == list(range(seq + 1, last + 1)), socket.seqs
        log = await stored_log(database, tmp_path, table_id)
        assert [seq for seq, _, _ in log] == list(range(1, last + 1))
        assert log[:len(acked)] == acked  # each acknowledged move stored at its seq, once
    finally:
        for server in servers:
            server.stop()
