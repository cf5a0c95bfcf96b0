"""The socket's refusals and resyncs: each refused frame changes nothing and goes to its sender only."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from aiohttp import WSMsgType

from engine.config import Settings
from engine.service.tables import TableService
from tests.clock import ManualClock
from tests.web.conftest import Client, ClientFactory, local_signin, signed, tma
from tests.web.sockets import Peer, connect


async def _started(client: Client, service: TableService) -> tuple[str, dict[int, str], str]:
    """A Coins table with Ann (seat 0), Bob (seat 1) and an AI, started, waiting for a person; and Eve's initData."""
    ann, _ = await local_signin(client, "Ann")
    bob, _ = await local_signin(client, "Bob")
    eve, _ = await local_signin(client, "Eve")
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json()
    tid = table["id"]
    for init_data, op in ((bob, "join"), (ann, "add_ai"), (ann, "start")):
        assert (await client.post(f"/api/tables/{tid}/{op}", headers=tma(init_data))).status == 200
    await service.autoplay.idle()
    return tid, {0: ann, 1: bob}, eve


def _to_act(service: TableService, tid: str) -> tuple[int, int]:
    live = service.live(tid)
    assert live is not None
    (seat,) = live.to_act()
    return seat, live.seq


async def test_act_against_an_old_seq_is_refused_stale_and_changes_nothing(
    client: Client, service: TableService
) -> None:
    tid, people, _ = await _started(client, service)
    seat, seq = _to_act(service, tid)
    mover, _ = await connect(client, tid, people[seat])
    other, _ = await connect(client, tid, people[1 - seat])
    assert mover.view is not None
    card = mover.view["state"]["legal"][0]
    await mover.send({"type": "act", "ref": "old", "seq": seq - 1, "action": {"type": "play", "card": card}})
    refused = await mover.receive()
    assert (refused["type"], refused["ref"], refused["code"]) == ("refused", "old", "stale")
    assert refused["message"]
    assert _to_act(service, tid) == (seat, seq)
    assert await other.silent()  # the refusal went to its sender only
    await mover.close()
    await other.close()


async def test_act_for_a_seat_not_on_turn_is_refused_even_when_naming_that_seat(
    client: Client, service: TableService
) -> None:
    tid, people, _ = await _started(client, service)
    seat, seq = _to_act(service, tid)
    waiting, welcome = await connect(client, tid, people[1 - seat])
    assert welcome["you"] == 1 - seat
    card = welcome["view"]["state"]["hand"][0]
    await waiting.send({"type": "act", "ref": "x", "seq": seq, "action": {"type": "play", "card": card, "seat": seat},
                        "seat": seat})
    refused = await waiting.receive()
    assert (refused["type"], refused["code"]) == ("refused", "not_your_turn")
    assert _to_act(service, tid) == (seat, seq)
    await waiting.close()


async def test_spectator_gets_no_hand_and_cannot_act(client: Client, service: TableService) -> None:
    tid, people, eve = await _started(client, service)
    seat, seq = _to_act(service, tid)
    spectator, welcome = await connect(client, tid, eve)
    assert welcome["you"] is None
    assert "hand" not in welcome["view"]["state"] and "legal" not in welcome["view"]["state"]
    await spectator.send({"type": "act", "ref": "s", "seq": seq, "action": {"type": "play", "card": "A-coins"}})
    refused = await spectator.receive()
    assert (refused["type"], refused["code"]) == ("refused", "not_seated")
    assert _to_act(service, tid) == (seat, seq)
    mover, _ = await connect(client, tid, people[seat])
    assert mover.view is not None
    card = mover.view["state"]["legal"][0]
    await mover.send({"type": "act", "ref": "m", "seq": seq, "action": {"type": "play", "card": card}})
    update = await spectator.until(lambda f: f["type"] == "update")
    assert {"type": "played", "seat": seat, "card": card} in update["events"]
    assert "hand" not in update["view"]["state"]
    await spectator.close()
    await mover.close()


@pytest.mark.parametrize("text", [
    "not json", "[1, 2]", '{"type": "dance"}', '{"type": "act", "ref": "r", "action": {"type": "play"}}',
    '{"type": "act", "ref": "r", "seq": 3, "action": "play"}', '{"type": "lobby", "ref": "r", "op": "steal"}',
    '{"type": "act", "ref": {"x": 1}, "seq": 0, "action": {"type": "play"}}',
])
async def test_malformed_frame_gets_an_error_frame_and_changes_nothing(
    client: Client, service: TableService, text: str
) -> None:
    tid, people, _ = await _started(client, service)
    before = _to_act(service, tid)
    peer, _ = await connect(client, tid, people[0])
    await peer.ws.send_str(text)
    error = await peer.receive()
    assert (error["type"], error["code"]) == ("error", "malformed_frame")
    assert _to_act(service, tid) == before
    await peer.send({"type": "ping", "t": 1})
    assert (await peer.receive())["type"] == "pong"  # still connected
    await peer.close()


async def test_binary_frame_gets_a_malformed_frame_error(client: Client, service: TableService) -> None:
    tid, people, _ = await _started(client, service)
    peer, _ = await connect(client, tid, people[0])
    await peer.ws.send_bytes(b'{"type": "ping"}')
    assert (await peer.receive())["code"] == "malformed_frame"
    await peer.close()


async def test_frame_over_4kb_is_refused_too_large_and_connection_stays(client: Client, service: TableService) -> None:
    tid, people, _ = await _started(client, service)
    seat, seq = _to_act(service, tid)
    peer, _ = await connect(client, tid, people[seat])
    assert peer.view is not None
    card = peer.view["state"]["legal"][0]
    frame = {"type": "act", "ref": "big", "seq": seq, "action": {"type": "play", "card": card, "pad": "x" * 5000}}
    await peer.send(frame)
    error = await peer.receive()
    assert (error["type"], error["code"]) == ("error", "too_large")
    assert _to_act(service, tid) == (seat, seq)
    await peer.send({"type": "ping", "t": 2})
    assert (await peer.receive())["type"] == "pong"
    await peer.close()


async def test_frame_over_64kb_closes_the_socket_with_1009(client: Client, service: TableService) -> None:
    tid, people, _ = await _started(client, service)
    peer, _ = await connect(client, tid, people[0])
    await peer.ws.send_str(json.dumps({"type": "ping", "t": "x" * 70_000}))
    msg = await peer.ws.receive(timeout=5)
    assert msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED)
    assert peer.ws.close_code == 1009


async def test_flood_is_refused_and_later_frames_are_served(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    clock = ManualClock()
    client = await make_client(settings, clock=clock)
    tid, people, _ = await _started(client, service)
    peer, _ = await connect(client, tid, people[0])
    for i in range(60):
        await peer.send({"type": "ping", "t": i})
    frames = []
    while True:
        try:
            frames.append(await peer.receive(wait=0.5))
        except TimeoutError:
            break
    pongs = [f for f in frames if f["type"] == "pong"]
    floods = [f for f in frames if f["type"] == "error" and f["code"] == "flood"]
    assert len(pongs) == settings.flood_burst == 40  # a burst of 40, and no time passed to refill it
    assert len(pongs) + len(floods) == 60  # every frame was answered
    clock.now += 1.0  # 20 more a second
    await peer.send({"type": "ping", "t": "after"})
    assert await peer.receive() == {"type": "pong", "t": "after"}
    await peer.close()


async def test_reconnect_with_last_seq_gets_a_fresh_welcome(client: Client, service: TableService) -> None:
    tid, people, _ = await _started(client, service)
    seat, seq = _to_act(service, tid)
    away, _ = await connect(client, tid, people[1 - seat])
    await away.close()
    mover, _ = await connect(client, tid, people[seat])
    assert mover.view is not None
    card = mover.view["state"]["legal"][0]
    await mover.send({"type": "act", "ref": "m", "seq": seq, "action": {"type": "play", "card": card}})
    assert (await mover.until(lambda f: f.get("ref") == "m"))["seq"] == seq + 1
    await service.autoplay.idle()
    _, now = _to_act(service, tid)
    back, welcome = await connect(client, tid, people[1 - seat], last_seq=seq)
    assert now > seq
    assert (welcome["seq"], welcome["you"], welcome["view"]["seq"]) == (now, 1 - seat, now)
    assert {"seat": seat, "card": card} in welcome["view"]["state"]["trick"] + welcome["view"]["state"]["last_trick"]
    live = service.live(tid)
    assert live is not None
    expected = live.snapshot().view(1 - seat)
    assert welcome["view"]["state"] == expected["state"] and welcome["view"]["table"]["seq"] == now
    await back.send({"type": "resync"})
    again = await back.receive()
    assert (again["type"], again["seq"]) == ("welcome", now)
    await back.close()
    await mover.close()


async def test_socket_for_an_unknown_table_gets_an_error_and_closes(client: Client) -> None:
    ann, _ = await local_signin(client, "Ann")
    peer = Peer(await client.ws_connect("/ws/nosuchtable"))
    await peer.send({"type": "hello", "init_data": ann, "last_seq": None})
    error = await peer.receive()
    assert (error["type"], error["code"]) == ("error", "table_not_found")
    assert (await peer.ws.receive(timeout=5)).type in (WSMsgType.CLOSE, WSMsgType.CLOSED)


@pytest.mark.parametrize("hello", [
    {"type": "hello", "init_data": signed(42), "last_seq": None},
    {"type": "hello", "last_seq": None},
    {"type": "ping", "t": 1},
], ids=["foreign_token", "no_init_data", "not_hello"])
async def test_socket_without_valid_hello_is_refused_unauthorized(
    client: Client, service: TableService, hello: dict[str, object]
) -> None:
    ann, _ = await local_signin(client, "Ann")
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json()
    peer = Peer(await client.ws_connect(f"/ws/{table['id']}"))
    await peer.send(hello)
    error = await peer.receive()
    assert (error["type"], error["code"]) == ("error", "unauthorized")
    assert (await peer.ws.receive(timeout=5)).type in (WSMsgType.CLOSE, WSMsgType.CLOSED)
    assert peer.ws.close_code == 4401


async def test_socket_that_never_says_hello_is_closed(make_client: ClientFactory, settings: Settings) -> None:
    client = await make_client(replace(settings, hello_timeout=0.2))
    ann, _ = await local_signin(client, "Ann")
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json()
    peer = Peer(await client.ws_connect(f"/ws/{table['id']}"))
    assert (await peer.receive())["code"] == "unauthorized"
    assert (await peer.ws.receive(timeout=5)).type in (WSMsgType.CLOSE, WSMsgType.CLOSED)
