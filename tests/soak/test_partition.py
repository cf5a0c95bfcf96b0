"""A process cut off from PostgreSQL (a partition that drops packets) does not freeze its tables or its people.

Three ``python -m webapp`` processes with addresses, each reaching one PostgreSQL database through
a proxy of its own (``FrozenProxy``, as ``tests.soak.cluster`` puts a ``TcpProxy`` before each);
six tables of AI players are opened across them, then Ann's (she and two AI players) on the
process whose lease rows name the most tables, her page's socket there. As her turn begins,
that process's proxy is frozen for ``FROZEN`` seconds: its connections stay open and nothing
passes either way, so it hears no error, only silence, and the server keeps its sessions.
Every table it drove moves on in the store within ``RESUMED_WITHIN`` seconds, written by one of
the other two (told by the change notices); the card Ann plays on it ``THINK`` seconds into her
turn (and again a second after each refusal that leaves her socket open) is answered (refused as
``unavailable`` or ``moving``, or her socket closed with 1013) within ``ANSWERED_WITHIN`` seconds
of sending; her page then reconnects as ``webapp/static/shell/net.js`` does, through another
process, plays that card there at once, and her table plays on. Thawed, the cut-off process comes back in touch and
drives none of its old tables; every move her sockets got acknowledged is stored as sent, and
every table's seqs run 1..n.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import asyncpg

from engine.store.notices import CHANNEL
from tests.fakes.frozen_proxy import FrozenProxy
from tests.soak.harness import Server
from tests.soak.owners import Notices, ai_table, lease_holders, process_origins, stored_seqs, until_reached
from tests.soak.sockets import sign_in

RESUMED_WITHIN = 10.0  # seconds from the freeze to each of its tables' next stored move (the issue's bound)
ANSWERED_WITHIN = 5.0  # seconds from sending a move to the cut-off process to its answer (the bound)
FROZEN = 45.0  # seconds the proxy stays frozen: far past every heartbeat and query bound
NAMES = ("first", "second", "third")
OPENED_ON = (0, 1, 2, 0, 1, 0)  # the process each AI table is opened (and so first driven) on: 3, 2 and 1 tables
THINK = 2.5  # seconds Ann takes over each card once her turn comes: a person's pace
MOVES_BEFORE = 3  # cards Ann plays (each acknowledged) before the freeze
MOVES_AFTER = 3  # moves each table makes once the thawed process is back in touch, before the store is checked
ACCEPTED = ("refused:unavailable", "refused:moving", "closed:1013")  # answers to a move on the cut-off process
MAX_HOPS, RETRY_CAP = 3, 1.5  # net.js: redirects followed before asking to stay; seconds between tries at most
WELCOME_WAIT = 5.5  # net.js: a socket silent this long after its hello (a ping, then its pong's wait) is dropped


class Page:
    """Ann's table page as ``net.js`` keeps its socket: sent on by redirects (three at most, then its own address asked
    to ``stay``), and back to its own address when an owner it was sent to does not welcome it; her moves and their
    answers (``ack``, ``refused:<code>``, or ``closed:<close code>`` for a move whose socket closed unanswered)."""

    def __init__(self, session: aiohttp.ClientSession, table_id: str, auth: dict[str, str], home: str) -> None:
        self.session, self.table_id, self.auth, self.home = session, table_id, auth, home
        self.owner: str | None = None  # where a redirect sent the page; kept after a welcome there, as net.js does
        self.hops = 0
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.at = ""  # the address of the open socket
        self.you = -1
        self.view: dict[str, Any] = {}
        self.sent: dict[str, tuple[int, str, float]] = {}  # ref -> (the seq it was made against, its card, when)
        self.answers: dict[str, tuple[str, float]] = {}  # ref -> (its answer, when)
        self.acked: dict[str, int] = {}  # ref -> the seq its acknowledgement named
        self.welcomes: list[str] = []  # the address of each welcome, in turn

    async def connect(self, within: float = 30.0) -> float:
        """Open a socket as the page does, until a welcome; the seconds it took."""
        began, retry = time.monotonic(), 0
        async with asyncio.timeout(within):
            while True:
                url = self.owner or self.home
                welcomed, redirect = await self._try(url, stay=self.owner is None and self.hops >= MAX_HOPS)
                if welcomed:
                    self.hops = 0
                    return time.monotonic() - began
                if redirect is not None and self.hops < MAX_HOPS:  # the table lives elsewhere: there at once
                    self.owner, self.hops = redirect, self.hops + 1
                    continue
                self.owner = None  # the owner it was sent to did not welcome it: back to its own address
                await asyncio.sleep(min(RETRY_CAP, 0.25 * 2**retry) * random.uniform(0.5, 1.0))
                retry += 1

    async def _try(self, url: str, *, stay: bool) -> tuple[bool, str | None]:
        """One socket to ``url``: whether it was welcomed (then kept as the page's); the address a redirect named."""
        try:
            ws = await self.session.ws_connect(url.replace("http", "ws", 1) + f"/ws/{self.table_id}", heartbeat=None)
        except (aiohttp.ClientError, OSError):
            return False, None
        await ws.send_json({"type": "hello", "init_data": self.auth["Authorization"][4:], "last_seq": None,
                            "stay": stay})
        redirect = None
        while True:
            try:
                msg = await ws.receive(timeout=WELCOME_WAIT)
            except TimeoutError:
                break
            if msg.type is not aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            if frame["type"] == "welcome":
                self.ws, self.at, self.you, self.view = ws, url, frame["you"], frame["view"]
                self.welcomes.append(url)
                return True, None
            if frame["type"] == "redirect":
                redirect = str(frame["url"])
        await ws.close()
        return False, redirect

    async def read(self, wait: float) -> str | None:
        """The next frame's type within ``wait`` seconds (None if none came; ``closed`` once the socket is)."""
        assert self.ws is not None
        try:
            msg = await self.ws.receive(timeout=wait)
        except TimeoutError:
            return None
        now = time.monotonic()
        if msg.type is not aiohttp.WSMsgType.TEXT:
            await self.ws.close()
            for ref in self.sent.keys() - self.answers.keys():
                self.answers[ref] = (f"closed:{self.ws.close_code}", now)
            return "closed"
        frame = json.loads(msg.data)
        if frame["type"] in ("update", "ack") and frame.get("ref") in self.sent:  # the mover's update is the ack
            self.answers[frame["ref"]] = ("ack", now)
            self.acked[frame["ref"]] = frame["seq"]
        elif frame["type"] == "refused" and frame["ref"] in self.sent:
            self.answers[frame["ref"]] = (f"refused:{frame['code']}", now)
        if "view" in frame:
            self.view = frame["view"]
        return str(frame["type"])

    def my_turn(self) -> bool:
        """Whether the view has Ann to play a card."""
        table, state = self.view.get("table") or {}, self.view.get("state") or {}
        return table.get("status") == "playing" and self.you in table.get("to_act", ()) and bool(state.get("legal"))

    async def play(self) -> str:
        """Play her first legal card against the view's seq; the move's ref."""
        assert self.ws is not None
        ref, seq, card = f"ann-{len(self.sent) + 1}", self.view["seq"], self.view["state"]["legal"][0]
        self.sent[ref] = (seq, card, time.monotonic())
        await self.ws.send_json({"type": "act", "ref": ref, "seq": seq, "action": {"type": "play", "card": card}})
        return ref

    async def answer(self, ref: str, within: float = 15.0) -> str:
        """Read until the move ``ref`` is answered; the answer."""
        async with asyncio.timeout(within):
            while ref not in self.answers:
                await self.read(1.0)
        return self.answers[ref][0]

    async def until_my_turn(self, within: float = 15.0) -> None:
        """Read until it is Ann's turn."""
        async with asyncio.timeout(within):
            while not self.my_turn():
                assert await self.read(1.0) != "closed", "her socket closed before her turn"


async def ann_at(session: aiohttp.ClientSession, server: Server) -> tuple[str, dict[str, str]]:
    """Ann's Coins table opened and started on ``server``, with two AI players: its id, and her sign-in."""
    ann = await sign_in(session, server, "Ann")
    async with session.post(server.url + "/api/tables", json={"game": "coins", "options": {"target_score": 99}},
                            headers=ann) as resp:
        table_id: str = (await resp.json())["id"]
    for op in ("add_ai", "add_ai", "start"):
        async with session.post(f"{server.url}/api/tables/{table_id}/{op}", headers=ann) as resp:
            assert resp.status == 200, await resp.text()
    return table_id, ann


async def until_driven(conn: asyncpg.Connection, tables: list[str], moved: list[str], within: float = 15.0) -> None:
    """Wait until every table has a lease naming the process that drives it, and each of ``moved`` has a move."""
    async with asyncio.timeout(within):
        while (min((await stored_seqs(conn, moved)).values()) < 1  # noqa: ASYNC110 (the processes write it)
               or len(await lease_holders(conn, tables)) < len(tables)):
            await asyncio.sleep(0.05)


async def tap_until_closed(page: Page, tries: int = 4) -> list[tuple[str, float]]:
    """Ann plays her card on the cut-off process, again a second after each refusal that leaves her socket open, until
    it is closed (the page then reconnects) or acknowledged; each answer and the seconds it took."""
    answers: list[tuple[str, float]] = []
    for _ in range(tries):
        ref = await page.play()
        answer = await page.answer(ref)
        answers.append((answer, page.answers[ref][1] - page.sent[ref][2]))
        assert page.ws is not None
        if answer == "ack" or page.ws.closed or await page.read(1.0) == "closed":
            break
    return answers


async def play_on(page: Page, stop: asyncio.Event) -> None:
    """Ann plays at her pace until ``stop``, the first card at once (the one she was trying to play), reconnecting
    whenever her socket closes."""
    pending: str | None = None
    think = 0.0
    while not stop.is_set():
        if await page.read(0.2) == "closed":
            await page.connect()
            pending = None
        if (pending is None or pending in page.answers) and page.my_turn():
            await asyncio.sleep(think)
            think = THINK
            pending = await page.play()


async def test_a_process_cut_off_from_postgresql_loses_its_tables_and_answers_its_people_within_seconds(
    database: str, tmp_path: Path
) -> None:
    upstream = urlsplit(database)
    proxies = [FrozenProxy(upstream.hostname or "127.0.0.1", upstream.port or 5432) for _ in NAMES]
    for proxy in proxies:
        await proxy.start()
    servers = [Server(tmp_path / "data", proxy.url_through(database), AI_DELAY="0.2") for proxy in proxies]
    for server, name in zip(servers, NAMES, strict=True):
        server.log_path = tmp_path / f"{name}.log"
        server.extra_env["PROCESS_URL"] = server.url
    conn, watch = await asyncpg.connect(database), await asyncpg.connect(database)  # neither through a proxy
    notices = Notices()
    await conn.add_listener(CHANNEL, notices)
    stop = asyncio.Event()
    player: asyncio.Task[None] | None = None
    resuming: asyncio.Task[dict[str, float]] | None = None
    try:
        await asyncio.gather(*(server.start() for server in servers))
        async with aiohttp.ClientSession() as session:
            tables = [await ai_table(session, servers[on], f"P{i}") for i, on in enumerate(OPENED_ON)]
            await until_driven(conn, tables, tables)
            names = await process_origins(conn, servers, NAMES)
            (origin, _), *_ = Counter((await lease_holders(conn, tables)).values()).most_common()
            cut = NAMES.index(names[origin])
            ann_table, ann = await ann_at(session, servers[cut])
            every = [*tables, ann_table]
            page = Page(session, ann_table, ann, servers[cut].url)
            await page.connect()  # her hello takes the lease of her table, unless an AI player's turn took it first
            await until_driven(conn, every, tables)
            holders = await lease_holders(conn, every)
            driven = Counter(names[o] for o in holders.values())
            print(f"tables driven: {dict(driven)}; Ann's by the {names[holders[ann_table]]}; "
                  f"cutting the {names[origin]} off")
            assert holders[ann_table] == origin, (holders, names)
            assert driven[names[origin]] > max(n for name, n in driven.items() if name != names[origin])
            frozen = [t for t in every if holders[t] == origin]
            assert page.at == servers[cut].url
            for _ in range(MOVES_BEFORE):
                await page.until_my_turn()
                await asyncio.sleep(THINK)
                assert await page.answer(await page.play()) == "ack"
            await page.until_my_turn()
            reconnects = servers[cut].log().count("reconnected to PostgreSQL")
            proxies[cut].freeze()  # her turn has just begun
            cut_at = time.monotonic()
            try:
                await asyncio.sleep(0.5)  # a move already past the proxy lands first
                before = await stored_seqs(conn, frozen)
                resuming = asyncio.create_task(until_reached(watch, {t: s + 1 for t, s in before.items()}, cut_at,
                                                             RESUMED_WITHIN))
                await asyncio.sleep(max(0.0, cut_at + THINK - time.monotonic()))
                taps = await tap_until_closed(page)
                page.home = servers[(cut + 1) % len(servers)].url  # the balancer sends her page to another process
                again = await page.connect()
                print(f"Ann's card on the cut-off process answered {taps}; her page welcomed again "
                      f"{again:.1f} s later, {time.monotonic() - cut_at:.1f} s into the freeze, by {page.welcomes[1:]}")
                player = asyncio.create_task(play_on(page, stop))
                resumed = await resuming
                await asyncio.sleep(max(0.0, cut_at + FROZEN - time.monotonic()))
                during = await stored_seqs(conn, frozen)
                held_during = await lease_holders(conn, frozen)
            finally:
                proxies[cut].thaw()
            thawed = time.monotonic()
            others = set(names) - {origin}
            for table_id in frozen:
                writers = sorted(names.get(o, o) for o in notices.writers(table_id, before[table_id]))
                moves = during[table_id] - before[table_id]
                print(f"table {table_id}{' (Ann)' if table_id == ann_table else ''}: moved on "
                      f"{resumed.get(table_id, float('nan')):.1f} s after the freeze; {moves} moves in the "
                      f"{FROZEN:.0f} s freeze, by {writers}")
            print(f"the cut-off process's {len(frozen)} tables moved on at most "
                  f"{max(resumed.values(), default=float('nan')):.1f} s after the freeze; Ann's card answered in at "
                  f"most {max(s for _, s in taps):.1f} s")
            assert set(resumed) == set(frozen), f"a table did not move within {RESUMED_WITHIN} s: {resumed}"
            assert all(answer in ACCEPTED and seconds <= ANSWERED_WITHIN for answer, seconds in taps), taps
            assert page.ws is not None and not page.ws.closed and page.at != servers[cut].url, page.welcomes
            assert all(held_during.get(t) in others for t in frozen), held_during
            async with asyncio.timeout(15):  # thawed, it finds its session ended, and comes back in touch
                while servers[cut].log().count("reconnected to PostgreSQL") == reconnects:  # noqa: ASYNC110
                    await asyncio.sleep(0.05)
            print(f"thawed, it was back in touch {time.monotonic() - thawed:.1f} s later")
            back = await stored_seqs(conn, frozen)
            went_on = await until_reached(conn, {t: s + MOVES_AFTER for t, s in back.items()}, time.monotonic(), 15)
            assert set(went_on) == set(frozen), f"a table did not go on after the thaw: {went_on}"
            stop.set()
            await asyncio.wait_for(player, 10)
        for table_id in every:  # every move stored once, with no gap
            seqs = [row[0] for row in await conn.fetch("SELECT seq FROM actions WHERE table_id = $1 ORDER BY seq",
                                                       table_id)]
            assert seqs == list(range(1, len(seqs) + 1)), table_id
        stored = {row[0]: (row[1], json.loads(row[2])) for row in await conn.fetch(
            "SELECT seq, seat, action FROM actions WHERE table_id = $1", ann_table)}
        for ref, seq in page.acked.items():  # every move acknowledged to Ann is stored as she made it
            made_at, card, _ = page.sent[ref]
            assert seq == made_at + 1 and stored.get(seq) == (page.you, {"type": "play", "card": card}), ref
        print(f"Ann's moves: {len(page.sent)} sent, {len(page.acked)} acknowledged, every one stored")
        seen = await conn.fetchval("SELECT extract(epoch FROM now()) - seen_at FROM processes WHERE origin = $1",
                                   origin)
        assert seen < 4.0  # the cut-off process is in touch and beating again...
        after = await lease_holders(conn, frozen)
        for table_id in frozen:  # ...yet drives none of its old tables: every move since the freeze is the others'
            since = notices.writers(table_id, before[table_id])
            assert after.get(table_id) in others, (table_id, after.get(table_id))
            assert since and since <= others, (table_id, since)
        assert any("ended the sessions of" in server.log() for server in servers if server is not servers[cut])
        assert not [s.url for s in servers if "does not reach this process" in s.log()]  # every address found right
    finally:
        stop.set()
        for task in (player, resuming):
            if task is not None and not task.done():
                task.cancel()
        for proxy in proxies:
            proxy.thaw()
        await conn.close()
        await watch.close()
        # stopped off the loop: the proxies run on it, and a process whose database went quiet would log timeouts
        await asyncio.gather(*(asyncio.to_thread(server.stop) for server in servers))
        for proxy in proxies:
            await proxy.close()
