"""Limits on table sockets: an absolute hello deadline; caps on waiting, per-user and per-table sockets; floods."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

from aiohttp import WSMsgType

from engine.config import Settings
from engine.service.tables import TableService
from tests.clock import ManualClock
from tests.waiting import until
from tests.web.conftest import Client, ClientFactory, local_signin, tma
from tests.web.sockets import Peer, connect
from webapp.keys import GATE
from webapp.limits import TokenBucket


async def _table(client: Client) -> tuple[str, str]:
    ann, _ = await local_signin(client, "Ann")
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json()
    return table["id"], ann


async def _closed_with(peer: Peer, wait: float = 3.0) -> tuple[int | None, str]:
    """Read until the socket closes; its close code and reason."""
    async with asyncio.timeout(wait):
        while True:
            msg = await peer.ws.receive()
            if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING):
                return peer.ws.close_code, str(msg.extra or "")


async def test_hello_deadline_is_not_restarted_by_websocket_pings(
    make_client: ClientFactory, settings: Settings
) -> None:
    client = await make_client(replace(settings, hello_timeout=0.5))
    tid, _ = await _table(client)
    ws = await client.ws_connect(f"/ws/{tid}", autoping=True)
    opened = time.monotonic()

    async def keep_pinging() -> None:
        while not ws.closed:
            await ws.ping()
            await asyncio.sleep(0.1)

    pinger = asyncio.create_task(keep_pinging())
    try:
        async with asyncio.timeout(3.0):
            msg = await ws.receive()
            assert msg.type is WSMsgType.TEXT and '"unauthorized"' in msg.data
            while msg.type not in (WSMsgType.CLOSE, WSMsgType.CLOSED):
                msg = await ws.receive()
    finally:
        pinger.cancel()
    assert time.monotonic() - opened < 2.0
    assert ws.close_code == 4401


async def test_sockets_waiting_for_hello_are_capped_per_address(make_client: ClientFactory, settings: Settings) -> None:
    client = await make_client(replace(settings, max_unauthenticated_per_address=2))
    tid, ann = await _table(client)
    waiting = [Peer(await client.ws_connect(f"/ws/{tid}")) for _ in range(2)]
    third = Peer(await client.ws_connect(f"/ws/{tid}"))
    code, reason = await _closed_with(third)
    assert code == 1008 and "too_many_pending" in reason
    await waiting[0].send({"type": "hello", "init_data": ann, "last_seq": None})
    assert (await waiting[0].receive())["type"] == "welcome"  # signed in: its place is free again
    again, _ = await connect(client, tid, ann)
    for peer in (*waiting, again):
        await peer.close()


async def test_sockets_waiting_for_hello_are_capped_in_all(make_client: ClientFactory, settings: Settings) -> None:
    client = await make_client(replace(settings, max_unauthenticated_sockets=3, max_unauthenticated_per_address=10))
    tid, _ = await _table(client)
    waiting = [Peer(await client.ws_connect(f"/ws/{tid}")) for _ in range(3)]
    code, reason = await _closed_with(Peer(await client.ws_connect(f"/ws/{tid}")))
    assert code == 1008 and "too_many_pending" in reason
    await waiting[0].close()
    await until(lambda: client.app[GATE].pending_total == 2)  # the server saw it close
    fourth = Peer(await client.ws_connect(f"/ws/{tid}"))
    assert await fourth.silent(0.2)  # admitted: waiting for its hello
    for peer in (*waiting, fourth):
        await peer.close()


async def test_sockets_per_user_are_capped(make_client: ClientFactory, settings: Settings) -> None:
    client = await make_client(replace(settings, max_sockets_per_user=2))
    tid, ann = await _table(client)
    first, _ = await connect(client, tid, ann)
    second, _ = await connect(client, tid, ann)
    third = Peer(await client.ws_connect(f"/ws/{tid}"))
    await third.send({"type": "hello", "init_data": ann, "last_seq": None})
    error = await third.receive()
    assert (error["type"], error["code"]) == ("error", "too_many_sockets") and error["message"]
    assert (await _closed_with(third))[0] == 1008
    await first.close()
    await until(lambda: sum(client.app[GATE].users.values()) == 1)  # the server saw it close
    fourth, _ = await connect(client, tid, ann)  # a closed socket gives its place back
    for peer in (second, fourth):
        await peer.close()


async def test_sockets_per_table_are_capped(make_client: ClientFactory, settings: Settings) -> None:
    client = await make_client(replace(settings, max_sockets_per_table=2))
    tid, ann = await _table(client)
    bob, _ = await local_signin(client, "Bob")
    eve, _ = await local_signin(client, "Eve")
    peers = [(await connect(client, tid, ann))[0], (await connect(client, tid, bob))[0]]
    crowd = Peer(await client.ws_connect(f"/ws/{tid}"))
    await crowd.send({"type": "hello", "init_data": eve, "last_seq": None})
    assert (await crowd.receive())["code"] == "table_crowded"
    assert (await _closed_with(crowd))[0] == 1008
    for peer in peers:
        await peer.close()


# floods -------------------------------------------------------------------------


def test_token_bucket_refills_with_time() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=10, burst=5, clock=lambda: now[0])
    assert [bucket.take() for _ in range(6)] == [True] * 5 + [False]
    now[0] += 0.25  # 2.5 tokens
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    now[0] += 100
    assert sum(bucket.take() for _ in range(10)) == 5  # never more than a burst


async def _started(client: Client, service: TableService) -> tuple[str, str, int]:
    """A Coins table of Ann and two AIs, started; Ann's initData and the seq."""
    tid, ann = await _table(client)
    for op in ("add_ai", "add_ai", "start"):
        assert (await client.post(f"/api/tables/{tid}/{op}", headers=tma(ann))).status == 200
    await service.autoplay.idle()
    live = service.live(tid)
    assert live is not None
    return tid, ann, live.seq


async def test_every_intent_in_a_burst_gets_a_reply_naming_its_ref(client: Client, service: TableService) -> None:
    tid, ann, seq = await _started(client, service)
    peer, _ = await connect(client, tid, ann)
    refs = [f"r{i}" for i in range(70)]
    for ref in refs:  # stale moves: each must be refused by name, by the rules or for flooding
        await peer.send({"type": "act", "ref": ref, "seq": seq - 1, "action": {"type": "play", "card": "A-coins"}})
    replies: dict[str, list[str]] = {}
    async with asyncio.timeout(5):
        while sum(len(v) for v in replies.values()) < len(refs):
            frame = await peer.receive()
            if frame["type"] in ("ack", "refused") or "ref" in frame:  # a move's own update acknowledges it
                replies.setdefault(frame["ref"], []).append(frame["code"] if frame["type"] == "refused" else "ack")
    assert sorted(replies) == sorted(refs) and all(len(v) == 1 for v in replies.values())
    codes = [v[0] for v in replies.values()]
    assert codes.count("flood") == 30 and codes.count("stale") == 40
    assert await peer.silent(0.2)
    await peer.close()


async def test_bursty_client_under_the_average_rate_is_never_disconnected(
    make_client: ClientFactory, settings: Settings
) -> None:
    clock = ManualClock()
    client = await make_client(replace(settings, flood_rate=50, flood_burst=20), clock=clock)
    tid, ann = await _table(client)
    peer, _ = await connect(client, tid, ann)
    for burst in range(4):  # 40 frames a second on average, in bursts of twice the bucket
        for i in range(40):
            await peer.send({"type": "ping", "t": f"{burst}-{i}"})
        answered = [await peer.receive() for _ in range(40)]
        assert sum(f["type"] == "pong" for f in answered) == 20  # the bucket's burst, with no time passing
        assert all(f["type"] == "pong" or f["code"] == "flood" for f in answered)
        clock.now += 1.0
    await peer.send({"type": "ping", "t": "still here"})
    assert await peer.receive() == {"type": "pong", "t": "still here"}
    await peer.close()


async def test_client_that_keeps_flooding_is_closed_with_1008(make_client: ClientFactory, settings: Settings) -> None:
    client = await make_client(replace(settings, flood_rate=10, flood_burst=10))
    tid, ann = await _table(client)
    peer, _ = await connect(client, tid, ann)
    for i in range(200):
        await peer.send({"type": "ping", "t": i})
    frames = []
    async with asyncio.timeout(5):
        while True:
            msg = await peer.ws.receive()
            if msg.type is not WSMsgType.TEXT:
                break
            frames.append(msg.data)
    assert peer.ws.close_code == 1008
    assert "disconnected" in frames[-1]
