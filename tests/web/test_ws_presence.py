"""The presence frame: a socket counts its person at the table from its welcome until it says otherwise or closes."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from engine.service.tables import TableService
from tests.web.conftest import Client, local_signin, tma
from tests.web.sockets import Peer, connect


async def _table(client: Client) -> tuple[str, str, int]:
    """A Coins lobby of Ann's; her initData and user id."""
    ann, user_id = await local_signin(client, "Ann")
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json()
    return table["id"], ann, user_id


async def _until(check: Callable[[], bool], tries: int = 400) -> None:
    """Wait (up to 2 s) until the server has taken the frames sent so far."""
    for _ in range(tries):
        if check():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the server never took the frame")


async def test_presence_frames_count_each_socket_and_a_closed_socket_is_away(
    client: Client, service: TableService
) -> None:
    tid, ann, user_id = await _table(client)
    presence = service.presence
    heard: list[tuple[str, int, bool]] = []
    presence.follow(lambda table, user, present: heard.append((table, user, present)))
    assert not presence.is_present(tid, user_id)

    phone, _ = await connect(client, tid, ann)
    await _until(lambda: presence.is_present(tid, user_id))
    laptop, _ = await connect(client, tid, ann)
    await _until(lambda: presence.sockets(tid, user_id) == 2)

    await phone.send({"type": "presence", "active": False})  # the phone went to the background
    await _until(lambda: presence.sockets(tid, user_id) == 1)
    assert presence.is_present(tid, user_id), "the laptop still shows the table"
    await laptop.close()
    await _until(lambda: not presence.is_present(tid, user_id))
    assert presence.left_at(tid, user_id) is not None
    await phone.send({"type": "presence", "active": True})  # back in front of the phone
    await _until(lambda: presence.is_present(tid, user_id))
    await phone.close()
    await _until(lambda: not presence.is_present(tid, user_id))
    assert heard == [(tid, user_id, True), (tid, user_id, False), (tid, user_id, True), (tid, user_id, False)]


async def test_presence_frame_without_a_yes_or_no_is_refused_and_changes_nothing(
    client: Client, service: TableService
) -> None:
    tid, ann, user_id = await _table(client)
    peer, _ = await connect(client, tid, ann)
    await _until(lambda: service.presence.is_present(tid, user_id))
    await peer.send({"type": "presence", "active": "no"})
    error = await peer.receive()
    assert (error["type"], error["code"]) == ("error", "malformed_frame")
    assert service.presence.is_present(tid, user_id)
    await peer.close()


async def test_a_phone_that_fell_off_the_network_leaves_the_table_within_ten_seconds(
    client: Client, service: TableService
) -> None:
    tid, ann, user_id = await _table(client)
    phone = Peer(await client.ws_connect(f"/ws/{tid}", autoping=False))  # answers no WebSocket ping: gone silent
    await phone.send({"type": "hello", "init_data": ann, "last_seq": None})
    assert (await phone.receive())["type"] == "welcome"
    silent_since = time.monotonic()
    await _until(lambda: service.presence.is_present(tid, user_id))
    await _until(lambda: not service.presence.is_present(tid, user_id), tries=2400)  # up to 12 s
    assert time.monotonic() - silent_since < 10.0  # was 45 s and more
    await phone.close()


async def test_a_pong_carries_the_tables_seq_so_a_page_behind_can_tell(client: Client, service: TableService) -> None:
    tid, ann, _ = await _table(client)
    peer, _ = await connect(client, tid, ann)
    await peer.send({"type": "ping", "t": 1})
    assert await peer.receive() == {"type": "pong", "t": 1}  # no update sent yet: nothing to compare with
    await peer.send({"type": "lobby", "ref": "a", "op": "add_ai"})
    while (frame := await peer.receive())["type"] != "update":
        pass
    await peer.send({"type": "ping", "t": 2})
    while (pong := await peer.receive())["type"] != "pong":
        pass
    assert pong == {"type": "pong", "t": 2, "seq": frame["seq"]}
    await peer.close()
