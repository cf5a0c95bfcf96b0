"""Hostile clients of the real ``python -m webapp``: ``run_fuzz`` sends hostile frames and HTTP bodies while a healthy
client measures its ping round trip, and returns what each got."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field

import aiohttp

from tests.soak.harness import Server, tracebacks

DEEP = "[" * 1000 + "]" * 1000
HOSTILE_FRAMES: tuple[str, ...] = (
    DEEP,
    '{"type": "act", "ref": "d", "seq": 0, "action": {"type": "play", "x": ' + DEEP + "}}",
    '{"type": "act", "ref": "\\ud800", "seq": 0, "action": {"type": "play"}}',
    '{"type": "ping", "t": "\\ud800"}',
    '{"type": "lobby", "ref": "k", "op": "options", "changes": {"\\udc00": 1}}',
    '{"type": "lobby", "ref": "o", "op": "options", "changes": {"timer": []}}',
    '{"type": "lobby", "ref": "p", "op": "options", "changes": {"players": "\u00b2"}}',
    '{"type": "lobby", "ref": "s", "op": "steal"}',
    '{"type": "act", "ref": "q", "seq": "x", "action": {"type": "play"}}',
    '{"type": "act", "ref": "n", "seq": 99999999999999999999, "action": {"type": "play", "card": 5}}',
    '{"type": "act", "ref": {"x": 1}, "seq": 0, "action": {"type": "play"}}',
    '{"type": "act", "ref": "a", "seq": 0, "action": {"type": "play", "card": "Z-stars"}}',
    '{"type": 5}', "null", "[]", '"text"', "1e999", "{", "not json", '{"type": "dance"}',
    '{"type": "ping", "t": [1, 2]}',
    '{"type": "act", "ref": "big", "seq": 0, "action": {"type": "play", "pad": "' + "x" * 5000 + '"}}',
)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


@dataclass
class FuzzFigures:
    """What the hostile clients sent and got."""

    frames: int = 0
    answered: int = 0  # an error or refused frame, or a close with a reason
    closes: dict[int, int] = field(default_factory=dict)
    bodies: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    quiet_p99_ms: float = 0.0
    loaded_p99_ms: float = 0.0
    loaded_pings: int = 0
    tracebacks: int = 0
    problems: list[str] = field(default_factory=list)


async def _signin(session: aiohttp.ClientSession, server: Server, name: str) -> tuple[str, str]:
    async with session.post(server.url + "/api/local/signin", json={"name": name}) as resp:
        init_data = (await resp.json())["init_data"]
    headers = {"Authorization": f"tma {init_data}"}
    async with session.post(server.url + "/api/tables", json={"game": "coins"}, headers=headers) as resp:
        table_id = (await resp.json())["id"]
    return init_data, table_id


async def _pinger(server: Server, samples: list[float], stop: asyncio.Event, every: float) -> None:
    """A healthy client: one ping a ``every`` seconds, its round trips in ``samples`` (seconds)."""
    async with aiohttp.ClientSession() as session:
        init_data, table_id = await _signin(session, server, "Healthy")
        async with session.ws_connect(server.url.replace("http", "ws") + f"/ws/{table_id}") as ws:
            await ws.send_json({"type": "hello", "init_data": init_data, "last_seq": None})
            await ws.receive_json()
            n = 0
            while not stop.is_set():
                n += 1
                began = time.perf_counter()
                await ws.send_json({"type": "ping", "t": n})
                while True:
                    frame = await ws.receive_json(timeout=10)
                    if frame.get("type") == "pong" and frame.get("t") == n:
                        break
                samples.append(time.perf_counter() - began)
                await asyncio.sleep(every)


async def _hostile_socket(server: Server, rng: random.Random, count: int, figures: FuzzFigures) -> None:
    """Send ``count`` hostile frames, one at a time (and now and then a burst), each answered or closed on."""
    async with aiohttp.ClientSession() as session:
        init_data, table_id = await _signin(session, server, "Mallory")
        url = server.url.replace("http", "ws") + f"/ws/{table_id}"
        sent = 0
        while sent < count:
            async with session.ws_connect(url, max_msg_size=0) as ws:
                before_hello = rng.random() < 0.1
                if not before_hello:
                    await ws.send_json({"type": "hello", "init_data": init_data, "last_seq": None})
                    await ws.receive_json(timeout=10)
                while sent < count and not ws.closed:
                    burst = 1 if before_hello or rng.random() > 0.02 else 60
                    texts = [rng.choice(HOSTILE_FRAMES) for _ in range(burst)]
                    for text in texts:
                        if rng.random() < 0.03:
                            await ws.send_bytes(text.encode())
                        else:
                            await ws.send_str(text)
                    sent += burst
                    figures.frames += burst
                    await _answers(ws, burst, figures)
                    if before_hello:
                        break


async def _answers(ws: aiohttp.ClientWebSocketResponse, expected: int, figures: FuzzFigures) -> None:
    got = 0
    while got < expected:
        msg = await ws.receive(timeout=10)
        if msg.type is aiohttp.WSMsgType.TEXT:
            frame = json.loads(msg.data)
            if frame["type"] in ("error", "refused"):
                got += 1
                figures.answered += 1
            continue
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            code = ws.close_code or 0
            figures.closes[code] = figures.closes.get(code, 0) + 1
            if got < expected and code not in (1007, 1008, 1009, 4401):
                figures.problems.append(f"a hostile frame went unanswered; the socket closed with {code}")
            figures.answered += expected - got
            return
        figures.problems.append(f"unexpected message {msg.type}")
        return


def _local_token(server: Server) -> str:
    return (server.data_dir / "local-signin.key").read_text().strip()


def _signed_fields(token: str, **fields: str) -> str:
    import hashlib
    import hmac
    from urllib.parse import urlencode

    from webapp.auth import data_check_string, secret_key

    digest = hmac.new(secret_key(token), data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def hostile_requests(server: Server, init_data: str) -> list[tuple[str, str, bytes | None, dict[str, str]]]:
    """Hostile HTTP requests: method, path, body, headers."""
    auth = {"Authorization": f"tma {init_data}", "Content-Type": "application/json"}
    token = _local_token(server)
    now = str(int(time.time()))
    odd_date = _signed_fields(token, auth_date="\u00b2", user='{"id":5,"first_name":"A"}')
    odd_name = _signed_fields(token, auth_date=now, user='{"id":5,"first_name":"\\ud800"}')
    deep_user = _signed_fields(token, auth_date=now, user="[" * 900 + "]" * 900)
    bodies = [b'{"options": {"timer": []}}', b"{}", b'{"game": "coins", "options": {"timer": []}}',
              b'{"game": "coins", "options": {"timer": {}}}', b'{"game": "coins", "options": {"players": "\xc2\xb2"}}',
              ('{"a": ' + DEEP + "}").encode(), b'{"game": "\\ud800"}', b"\xff\xfe", b"[]", b"null",
              b'{"game": "coins", "options": ' + b"[" * 200 + b"]" * 200 + b"}", b"{" + b" " * 20_000 + b"}"]
    out: list[tuple[str, str, bytes | None, dict[str, str]]] = [("POST", "/api/tables", b, auth) for b in bodies]
    out += [("POST", "/api/local/signin", b, {"Content-Type": "application/json"})
            for b in (b'{"name": "\\ud800"}', b'{"name": 7}', ('{"name": ' + DEEP + "}").encode(), b'{"name": ""}')]
    out += [("GET", "/api/me", None, {"Authorization": f"tma {x}"}) for x in (odd_date, odd_name, deep_user, "%%%")]
    out += [("GET", "/api/me?limit=abc", None, auth), ("GET", "/api/me?before=nosuch", None, auth),
            ("GET", "/api/tables/" + "x" * 300, None, auth), ("POST", "/api/tables/abc/steal", b"{}", auth),
            ("POST", "/api/tables/abc/options", b'{"changes": {"timer": []}}', auth)]
    return out


async def _slow_body(server: Server, init_data: str) -> int:
    """A body promised by Content-Length and never sent: the status the server answers (0 if none)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(f"POST /api/tables HTTP/1.1\r\nHost: x\r\nAuthorization: tma {init_data}\r\n"
                 "Content-Type: application/json\r\nContent-Length: 900\r\n\r\n{".encode())
    await writer.drain()
    try:
        line = await asyncio.wait_for(reader.readline(), 30)
    finally:
        writer.close()
    parts = line.split()
    return int(parts[1]) if len(parts) > 1 else 0


async def run_fuzz(server: Server, *, frames: int, rounds_of_bodies: int = 2, sockets: int = 3, seed: int = 7,
                   quiet_pings: int = 40, ping_every: float = 0.06) -> FuzzFigures:
    """Hostile frames and bodies against a running server while a healthy client pings."""
    rng = random.Random(seed)
    figures = FuzzFigures()
    samples: list[float] = []
    stop = asyncio.Event()
    pinger = asyncio.create_task(_pinger(server, samples, stop, ping_every))
    while len(samples) < quiet_pings:
        if pinger.done():
            pinger.result()
        await asyncio.sleep(0.05)
    quiet = samples[:]
    samples.clear()
    async with aiohttp.ClientSession() as session:
        init_data, _ = await _signin(session, server, "Mallory")

        async def bodies() -> None:
            for _ in range(rounds_of_bodies):
                for method, path, body, headers in hostile_requests(server, init_data):
                    async with session.request(method, server.url + path, data=body, headers=headers) as resp:
                        figures.bodies += 1
                        figures.statuses[resp.status] = figures.statuses.get(resp.status, 0) + 1
                        if resp.status >= 500 or resp.status < 400:
                            figures.problems.append(f"{method} {path} {body!r:.60} answered {resp.status}")
                status = await _slow_body(server, init_data)
                figures.bodies += 1
                figures.statuses[status] = figures.statuses.get(status, 0) + 1
                if status != 408:
                    figures.problems.append(f"a body that never came was answered {status}")

        share = frames // sockets
        await asyncio.gather(bodies(), *(_hostile_socket(server, random.Random(rng.random()), share, figures)
                                         for _ in range(sockets)))
    stop.set()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(pinger, 15)
    figures.quiet_p99_ms = _percentile(quiet, 0.99) * 1000
    figures.loaded_p99_ms = _percentile(samples, 0.99) * 1000
    figures.loaded_pings = len(samples)
    figures.tracebacks = len(tracebacks(server.log()))
    if figures.answered < figures.frames:
        figures.problems.append(f"{figures.frames - figures.answered} hostile frames got no answer")
    if figures.tracebacks:
        figures.problems.append(f"{figures.tracebacks} tracebacks in the server log")
    return figures
