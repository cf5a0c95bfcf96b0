"""Behind a reverse proxy: sockets waiting to sign in are counted by the client's address the proxy forwards."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import aiohttp
from aiohttp import WSMsgType

from engine.config import Settings
from tests.waiting import until
from tests.web.conftest import Client, ClientFactory, local_signin, tma
from tests.web.sockets import Peer, connect
from webapp.keys import GATE
from webapp.limits import Proxies, door_key


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


async def _waiting(client: Client, table_id: str, headers: dict[str, str]) -> Peer:
    """A socket that opened and is still to say hello."""
    return Peer(await client.ws_connect(f"/ws/{table_id}", headers=headers))


def test_settings_read_trusted_proxies_as_a_list() -> None:
    settings = Settings.from_env({"TRUSTED_PROXIES": " 10.0.0.0/8, 127.0.0.1 ,,::1"})
    assert settings.trusted_proxies == ("10.0.0.0/8", "127.0.0.1", "::1")
    assert Settings.from_env({}).trusted_proxies == ()


def test_the_client_is_the_right_most_hop_no_trusted_proxy_added() -> None:
    proxies = Proxies(["10.0.0.0/8", "127.0.0.1"])
    # the client wrote the first two hops itself; nginx appended the address it saw, then a second proxy its own
    assert proxies.client("127.0.0.1", ["6.6.6.6, 1.2.3.4", "203.0.113.9, 10.1.2.3"]) == "203.0.113.9"
    assert proxies.client("::ffff:127.0.0.1", ["203.0.113.9"]) == "203.0.113.9"
    assert proxies.client("127.0.0.1", [], ['for=6.6.6.6, for="203.0.113.9:4711";proto=https']) == "203.0.113.9"
    assert proxies.client("127.0.0.1", [], ['For="[2001:db8::17]:4711"']) == "2001:db8::17"
    assert proxies.client("127.0.0.1") == "127.0.0.1"  # nothing forwarded: the proxy itself
    assert proxies.client("198.51.100.7", ["203.0.113.9"]) == "198.51.100.7"  # not our proxy: not believed
    assert Proxies([]).client("127.0.0.1", ["203.0.113.9"]) == "127.0.0.1"  # the default trusts nobody


async def test_forwarded_address_is_ignored_from_an_untrusted_peer(
    make_client: ClientFactory, settings: Settings
) -> None:
    client = await make_client(replace(settings, max_unauthenticated_per_address=2, trusted_proxies=("10.0.0.0/8",)))
    tid, _ = await _table(client)
    waiting = [await _waiting(client, tid, {"X-Forwarded-For": f"203.0.113.{n}"}) for n in (1, 2)]
    third = await _waiting(client, tid, {"X-Forwarded-For": "203.0.113.3", "Forwarded": "for=203.0.113.3"})
    code, reason = await _closed_with(third)  # all three came from 127.0.0.1, whatever they say
    assert code == 1008 and "too_many_pending" in reason
    for peer in waiting:
        await peer.close()


async def test_pending_caps_apply_per_client_behind_a_trusted_proxy(
    make_client: ClientFactory, settings: Settings
) -> None:
    client = await make_client(replace(settings, max_unauthenticated_per_address=2, trusted_proxies=("127.0.0.1",)))
    tid, ann = await _table(client)
    crowd = [await _waiting(client, tid, {"X-Forwarded-For": f"203.0.113.{n}"}) for n in range(1, 21)]
    again = [await _waiting(client, tid, {"X-Forwarded-For": f"6.6.6.6, 203.0.113.{n}"}) for n in range(1, 21)]
    gate = client.app[GATE]  # twenty phones, two sockets each: every one admitted, waiting for its hello
    await until(lambda: gate.pending_total == 40)
    assert gate.pending == {f"203.0.113.{n}": 2 for n in range(1, 21)}
    third = await _waiting(client, tid, {"X-Forwarded-For": "1.1.1.1, 203.0.113.5"})  # a forged hop changes nothing
    code, reason = await _closed_with(third)
    assert code == 1008 and "too_many_pending" in reason
    forwarded = await _waiting(client, tid, {"Forwarded": 'for="[2001:db8::5]:4711"'})
    await forwarded.send({"type": "hello", "init_data": ann, "last_seq": None})
    assert (await forwarded.receive())["type"] == "welcome"
    peer, _ = await connect(client, tid, ann)  # the proxy's own address is a client like any other
    for each in (*crowd, *again, forwarded, peer):
        await each.close()


def test_the_door_counts_an_ipv6_client_by_its_64() -> None:
    assert door_key("2001:db8:1:2:aaaa::1") == door_key("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert door_key("2001:db8:1:3::1") == "2001:db8:1:3::/64"  # the next block is someone else
    assert door_key("::ffff:203.0.113.9") == door_key("203.0.113.9") == "203.0.113.9"
    assert door_key("unknown") == "unknown"


async def test_a_flood_of_silent_sockets_keeps_no_other_address_out(
    make_client: ClientFactory, settings: Settings
) -> None:
    client = await make_client(replace(settings, max_unauthenticated_sockets=256, max_unauthenticated_per_address=16,
                                       trusted_proxies=("127.0.0.1",), hello_timeout=60.0))
    tid, ann = await _table(client)
    gate = client.app[GATE]
    url = client.make_url(f"/ws/{tid}")
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:  # as many as it takes

        async def waiting(address: str) -> Peer:
            return Peer(await session.ws_connect(url, headers={"X-Forwarded-For": address}))

        # 16 addresses hold 16 silent sockets each: the whole cap
        flood = await asyncio.gather(*(waiting(f"198.51.100.{a}") for a in range(16) for _ in range(16)))
        await until(lambda: gate.pending_total == 256)
        code, reason = await _closed_with(await waiting("198.51.100.3"))
        assert code == 1008 and "too_many_pending" in reason  # a flooder gets no more
        first = await waiting("2001:db8:7:7::1")
        await until(lambda: gate.pending_total == 257)  # an address with nothing waiting still gets in ...
        for n in range(2, 6):  # ... but one /64's addresses are one client: past the cap, the others are refused
            code, reason = await _closed_with(await waiting(f"2001:db8:7:7::{n:x}"))
            assert code == 1008 and "too_many_pending" in reason
        seventeenth = await waiting("203.0.113.17")
        await seventeenth.send({"type": "hello", "init_data": ann, "last_seq": None})
        assert (await seventeenth.receive())["type"] == "welcome"  # a 17th address signs in
        assert gate.pending == {**{f"198.51.100.{a}": 16 for a in range(16)}, "2001:db8:7:7::/64": 1}
        for peer in (*flood, first, seventeenth):
            await peer.close()
