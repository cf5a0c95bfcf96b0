"""One WebSocket per open table: the seat's view, then every change; intents in, refusals back.

The protocol (``GET /ws/{table_id}``; every frame is a JSON object with a ``type``):

1. Within ``hello_timeout`` (10 s) of opening, counted from the upgrade and not restarted
   by anything the client sends (WebSocket pings included), the client sends
   ``{"type": "hello", "init_data": "...", "last_seq": n | null, "session": "..."}``. The
   server validates the initData (``webapp.auth``) and takes the user from it; the seat is
   looked up from that user, never taken from the client. initData older than
   ``initdata_max_age`` is taken with a live session token of the same user: the hello's
   ``session``, else the ``cardroom_session`` cookie (``webapp.api`` sets it). Bad initData,
   stale initData with no session or a forged or expired one, or no hello in time,
   gets ``{"type": "error", "code": "unauthorized"}`` and the socket is closed (4401); so
   does an unknown table (``code: "table_not_found"``, 4404), and a table the database
   failed to load (out of reach, or its connection broken mid-call: ``code: "unavailable"``,
   1013, "try again later").
2. The server answers ``{"type": "welcome", "you": seat | null, "seq": n, "view": {...}}``:
   the whole view for that seat (a spectator's, with no hand, when not seated), and
   ``watching``: how many people have the table open without a seat. A socket's first
   welcome carries ``session``, a fresh session token to send in the next hello. A client
   that reconnects sends its ``last_seq`` and gets a fresh welcome, which covers whatever
   it missed. ``view.table`` names each seat's player and an opaque ``handle``, and the
   host as ``host_seat``; never a Telegram user id or chat id (``webapp.public``).
3. Then every change at the table: ``{"type": "update", "seq": n, "kind": ..., "events":
   [...], "view": {...}}``, the events as this seat may see them (others' private events
   are shadows) and the fresh view. A client that sees ``seq`` jump by more than one, or
   a server that finds this socket too far behind, resyncs: the server sends a welcome.
   Updates carry ``watching`` too; when it changes between updates (a spectator opens or
   closes the table) every socket gets ``{"type": "watching", "watching": n}``.
4. The client sends intents: ``{"type": "act", "ref": "r1", "seq": n, "action": {...}}``,
   made against ``seq``; ``{"type": "lobby", "ref": "r2", "op": "join|leave|add_ai|start|
   options|cancel", "changes": {...}}``; ``{"type": "resync"}``; ``{"type": "ping", "t": x}``
   (answered by ``{"type": "pong", "t": x}``); ``{"type": "presence", "active": bool}``
   (whether the table is in front of the person: the service's ``presence`` counts a socket
   as there from its welcome until it says otherwise or closes; the bot writes turn messages
   only to people away). An applied move is acknowledged by the
   mover's own copy of its update, which carries the move's ``"ref"`` (a socket that gets
   no update of its own, being resynced, gets ``{"type": "ack", "ref", "seq"}`` instead);
   an applied lobby intent gets that ack frame. A refused intent gets ``{"type":
   "refused", "ref", "code", "message"}``, sent to the sender only, and nothing changed (a
   move against an old seq: ``code: "stale"``; any intent the database fails: ``code:
   "unavailable"``). Whatever else fails on a socket's path is answered by an error frame
   (``unavailable`` for the database, ``server_error`` for a bug) before the socket is closed
   (1011): never a bare drop.
5. A frame that cannot be taken gets ``{"type": "error", "code", "message"}`` and changes
   nothing: ``malformed_frame`` (not JSON, nested over 16 levels, a string that is not
   valid Unicode, an unknown type, wrong fields), ``too_large`` (over 4 KB; over 64 KB
   closes the socket with 1009). Frames beyond ``flood_rate`` a second on average (a token
   bucket holding ``flood_burst``) are not taken: an intent gets ``refused`` with its
   ``ref`` and ``code: "flood"``, any other frame an ``error`` with ``code: "flood"``; a
   client that keeps flooding is closed with 1008 ("flood").

6. Several processes on one PostgreSQL database: each table lives on one process at a time,
   the one holding its lease (``engine.service.pg_peers``). When this process has an address
   (``PROCESS_URL``) and a signed-in hello reaches it for a table another live process owns
   that has an address too, it answers ``{"type": "redirect", "url": "<owner's address>"}``
   and closes the socket (4307); the client connects to ``<url>/ws/{table_id}`` and, if that
   fails (the owner died: another process takes the table once its lease is free), comes
   back to its first address. A table whose lease is free is taken by the process the hello
   reached, which serves it. Without addresses every process serves every socket, as a
   reverse proxy that routes by table id would have them (``docs/deployment.md``).

Limits, each refused with a close frame 1008 and its reason (after an ``error`` frame
with the same code once the client has signed in): sockets still to say hello, in all
and per remote address (``too_many_pending``); sockets per user (``too_many_sockets``);
sockets per table (``table_crowded``). The numbers are settings (``engine.config``). Behind
a reverse proxy listed in ``trusted_proxies`` the address is the one it forwards (``webapp.limits``).

Every ``error`` and ``refused`` frame is a refusal of ``engine.core.errors``: its ``code``
is the refusal's wire code and its ``message`` the refusal in the reader's language (the
page's, from its cookie, until the hello says who is reading).

Heartbeats are WebSocket pings every 30 s (a peer that does not answer is dropped).
permessage-deflate is off: for frames of a few KB its memory per socket costs more than it saves
(docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from engine.config import Settings
from engine.core.errors import Refusal, RefusalCode
from engine.i18n import refusal_text
from engine.service.tables import TableService
from webapp.api import cookie_language, is_database_error, lobby_op, log_database_error, reader_language
from webapp.auth import AuthError, WebUser
from webapp.keys import CLOCK, GATE, PUBLIC, ROOMS, SERVICE, SESSION_COOKIE, SETTINGS, SOCKETS, VERIFIER
from webapp.limits import STRIKE_RATE, STRIKES_PER_BURST, Gate, TokenBucket
from webapp.protocol import (
    ActFrame,
    ErrorFrame,
    FrameError,
    LobbyFrame,
    ack_frame,
    error_frame,
    parse_client_frame,
    parse_hello,
    pong_frame,
    redirect_frame,
    refused_frame,
    welcome_frame,
)
from webapp.public import PublicTables
from webapp.rooms import Room, Rooms, send

log = logging.getLogger(__name__)
HEARTBEAT = 30.0
CLOSE_TIMEOUT = 3.0  # seconds to wait for the peer's answer to our close frame
MAX_FRAME = 4 * 1024  # larger frames are refused with an error frame
HARD_LIMIT = 64 * 1024  # larger ones close the socket (aiohttp answers 1009)
CLOSE_UNAUTHORIZED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_POLICY = WSCloseCode.POLICY_VIOLATION  # 1008: limits and floods
CLOSE_REDIRECT = 4307  # the table lives on another process: the redirect frame before it names where
CLOSE_TRY_AGAIN = WSCloseCode.TRY_AGAIN_LATER  # 1013: the database failed; the same may work a moment later
MAX_CLOSE_REASON = 123  # bytes a close frame's reason may hold (RFC 6455)


def error_of(refusal: Refusal, lang: str | None) -> ErrorFrame:
    """The error frame of a refusal, in the reader's language; a refused sign-in says its kind as ``reason``."""
    if isinstance(refusal, AuthError):
        return error_frame(refusal.code, refusal_text(refusal, lang), refusal.kind)
    if refusal.reason is RefusalCode.NO_HELLO:
        return error_frame(refusal.code, refusal_text(refusal, lang), refusal.reason)
    return error_frame(refusal.code, refusal_text(refusal, lang))


def close_reason(refusal: Refusal, lang: str | None) -> bytes:
    """A close frame's reason for a refusal: its code and words, cut to what a close frame holds."""
    return f"{refusal.code}: {refusal_text(refusal, lang)}".encode()[:MAX_CLOSE_REASON].decode(errors="ignore").encode()


class TableSocket:
    """One authenticated socket at one table: reads its intents; its room sends it the table's updates."""

    def __init__(
        self, ws: web.WebSocketResponse, service: TableService, table_id: str, user: WebUser, settings: Settings,
        public: PublicTables, lang: str | None = None, clock: Callable[[], float] = time.monotonic,
        session: str | None = None,
    ) -> None:
        self.ws = ws
        self.service = service
        self.table_id = table_id
        self.user = user
        self.user_id = user.id
        self.settings = settings
        self.public = public
        self.lang = lang or user.language_code or None
        self.bucket = TokenBucket(settings.flood_rate, settings.flood_burst, clock)
        # refused frames; a client that keeps flooding runs out of these and is closed
        self.strikes = TokenBucket(settings.flood_rate * STRIKE_RATE, settings.flood_burst * STRIKES_PER_BURST, clock)
        self.skip = sys.maxsize  # until its welcome, which covers them, the socket gets no update
        self.lagging = False
        self.ref: str | None = None
        self.room: Room | None = None
        self.session = session  # handed out with the first welcome

    def seat(self) -> int | None:
        """The user's seat now (it changes when they join or leave)."""
        snapshot = self.service.snapshot(self.table_id)
        return snapshot.info.seat_of(self.user_id) if snapshot is not None else None

    async def welcome(self) -> None:
        """Send the whole view; the room skips the updates queued so far, which it covers."""
        snapshot = self.service.snapshot(self.table_id)
        if snapshot is None:  # unloaded before this socket followed it (another process changed it): load it again
            await self.service.info(self.table_id)
            snapshot = self.service.snapshot(self.table_id)
        if snapshot is None:
            raise Refusal(RefusalCode.TABLE_NOT_FOUND)
        if self.room is not None:
            self.skip = self.room.covered()
        seat = snapshot.info.seat_of(self.user_id)
        watching = self.room.watching(snapshot.info) if self.room is not None else 0
        session, self.session = self.session, None
        await send(self.ws, welcome_frame(seat, self.public.view(snapshot, seat), watching, session))

    async def come_back(self) -> None:
        """Opening the table is coming back: a seat on autopilot waits for its owner again.

        The look and the service's ``back`` are not one step: the game may end (its last move an
        AI's, or another process's), be abandoned or lose this seat in between, and ``back`` is then
        refused for the table as it is now. That is no failure: there is nothing to come back to,
        and the welcome that follows shows the table as it is.
        """
        snapshot = self.service.snapshot(self.table_id)
        if snapshot is None or snapshot.info.status != "playing":
            return
        seat = snapshot.info.seat_of(self.user_id)
        if seat is not None and not snapshot.info.seats[seat].is_ai:
            with contextlib.suppress(Refusal):
                await self.service.back(self.table_id, self.user_id)

    async def run(self, rooms: Rooms, transport: Any) -> None:
        """Serve the socket until it closes."""
        room = self.room = rooms.join(self.table_id, self, transport)
        try:
            try:
                await self.come_back()
            except Exception as error:  # the seat stays on autopilot; the table is still shown
                await send(self.ws, error_of(_failed(error, "coming back", self.table_id), self.lang))
            await self.welcome()
            self.service.presence.report(self.table_id, self.user_id, self, True)  # open: in front until it says not
            await room.announce(self)  # the others learn of a new spectator
            await self._read()
        finally:
            self.service.presence.closed(self.table_id, self.user_id, self)
            await rooms.leave(self.table_id, self)

    async def _read(self) -> None:
        ws = self.ws
        while not ws.closed:
            msg = await ws.receive()
            if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                return
            if not self.bucket.take():
                if not await self._flooded(msg.data if msg.type is WSMsgType.TEXT else None):
                    return
                continue
            if msg.type is not WSMsgType.TEXT:
                await send(ws, error_of(Refusal(RefusalCode.FRAME_NOT_TEXT), self.lang))
                continue
            if len(msg.data) > MAX_FRAME:
                await send(ws, error_of(Refusal(RefusalCode.TOO_LARGE), self.lang))
                continue
            await self._handle(msg.data)

    async def _flooded(self, text: str | None) -> bool:
        """Answer a frame that came too fast without acting on it; False once the socket is closed for flooding."""
        if not self.strikes.take():
            await send(self.ws, error_of(Refusal(RefusalCode.FLOOD_DISCONNECTED), self.lang))
            await self.ws.close(code=CLOSE_POLICY, message=b"flood")
            return False
        flood = Refusal(RefusalCode.FLOOD)
        try:
            frame = parse_client_frame(text) if text is not None and len(text) <= MAX_FRAME else None
        except FrameError:
            frame = None
        if frame is not None and (frame["type"] == "act" or frame["type"] == "lobby"):
            await send(self.ws, refused_frame(frame["ref"], flood.code, refusal_text(flood, self.lang)))
        else:
            await send(self.ws, error_of(flood, self.lang))
        return True

    async def _handle(self, text: str) -> None:
        try:
            frame = parse_client_frame(text)
        except FrameError as refusal:
            await send(self.ws, error_of(refusal, self.lang))
            return
        if frame["type"] == "act":
            await self._act(frame)
        elif frame["type"] == "lobby":
            await self._lobby(frame)
        elif frame["type"] == "ping":
            await send(self.ws, pong_frame(frame["t"]))
        elif frame["type"] == "presence":
            self.service.presence.report(self.table_id, self.user_id, self, frame["active"])
        else:  # resync, or a repeated hello
            await self.welcome()

    async def _act(self, frame: ActFrame) -> None:
        self.ref = frame["ref"]  # the room puts it on this socket's copy of the move's update: that is the ack
        try:
            result = await self.service.act(self.table_id, self.user.id, frame["action"], frame["seq"], cause=self)
        except Refusal as refusal:
            self.ref = None
            await self._refused(frame["ref"], refusal)
            return
        except Exception as error:
            self.ref = None
            await self._refused(frame["ref"], _failed(error, "move", self.table_id))
            return
        if self.ref is not None:  # this socket got no update (it was lagging, or a welcome covered it)
            self.ref = None
            await send(self.ws, ack_frame(frame["ref"], result.seq))

    async def _lobby(self, frame: LobbyFrame) -> None:
        try:
            info = await lobby_op(self.service, self.table_id, self.user, frame["op"], frame["changes"])
        except Refusal as refusal:
            await self._refused(frame["ref"], refusal)
            return
        except Exception as error:
            await self._refused(frame["ref"], _failed(error, f"lobby {frame['op']}", self.table_id))
            return
        await send(self.ws, ack_frame(frame["ref"], info.seq))

    async def _refused(self, ref: str, refusal: Refusal) -> None:
        snapshot = self.service.snapshot(self.table_id)
        spanish = snapshot is not None and snapshot.info.game == "coins"
        await send(self.ws, refused_frame(ref, refusal.code, refusal_text(refusal, self.lang, spanish=spanish)))


def _failed(error: BaseException, what: str, table_id: str) -> Refusal:
    """The refusal for what failed on the server: the database (out of reach, or its connection broken), or a bug.

    Either way it is logged; a database error is ``unavailable`` (the same may work a moment later).
    """
    if is_database_error(error):
        log_database_error(error, f"{what} at table {table_id}", log)
        return Refusal(RefusalCode.UNAVAILABLE)
    log.error("%s failed at table %s", what, table_id, exc_info=error)
    return Refusal(RefusalCode.SERVER_ERROR)


async def _hello(ws: web.WebSocketResponse, request: web.Request) -> WebUser | None:
    """Wait for the hello frame and return its validated user, or close the socket.

    The deadline is absolute: ``asyncio.timeout`` around the whole wait, because
    ``receive(timeout=...)`` starts its timeout again after every ping it answers.
    """
    lang = cookie_language(request)  # nobody has signed in yet: the page's language
    try:
        async with asyncio.timeout(request.app[SETTINGS].hello_timeout):
            msg = await ws.receive()
    except TimeoutError:
        await _reject(ws, error_of(Refusal(RefusalCode.NO_HELLO), lang))
        return None
    if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
        return None
    if msg.type is not WSMsgType.TEXT:
        await _reject(ws, error_of(Refusal(RefusalCode.FRAME_NOT_TEXT), lang))
        return None
    try:
        frame = parse_client_frame(msg.data) if len(msg.data) <= MAX_FRAME else None
        if frame is None or frame["type"] != "hello":
            raise FrameError(RefusalCode.HELLO_FIRST)
        hello = parse_hello(dict(frame))
        session = hello["session"] or request.cookies.get(SESSION_COOKIE) or None
        return request.app[VERIFIER].verify(hello["init_data"], session=session)
    except Refusal as refusal:  # a frame that is no hello, or sign-in data refused
        await _reject(ws, error_of(refusal, lang))
    return None


async def _reject(ws: web.WebSocketResponse, frame: ErrorFrame, code: int = CLOSE_UNAUTHORIZED) -> None:
    await send(ws, frame)
    await ws.close(code=code, message=frame["code"].encode())


async def table_socket(request: web.Request) -> web.WebSocketResponse:
    """GET /ws/{table_id}: the table's WebSocket."""
    ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=HARD_LIMIT, compress=False, timeout=CLOSE_TIMEOUT)
    await ws.prepare(request)
    sockets, gate = request.app[SOCKETS], request.app[GATE]
    sockets.add(ws)
    try:
        address = gate.proxies.client(request.remote or "", request.headers.getall("X-Forwarded-For", ()),
                                      request.headers.getall("Forwarded", ()))
        with gate.unauthenticated(address) as refused:
            if refused is not None:
                await ws.close(code=CLOSE_POLICY, message=close_reason(refused, cookie_language(request)))
                return ws
            user = await _hello(ws, request)
        if user is not None:
            await _serve(ws, request, user)
    except Exception as error:  # never a bare drop: the client is told in words, and the socket closed
        if ws.closed:
            raise
        table_id = request.match_info.get("table_id", "?")
        failed = error if isinstance(error, Refusal) else _failed(error, "socket", table_id)
        with contextlib.suppress(Exception):  # the peer may be gone by now
            await _reject(ws, error_of(failed, cookie_language(request)), WSCloseCode.INTERNAL_ERROR)
    finally:
        sockets.discard(ws)
        if not ws.closed:
            await ws.close()
    return ws


async def _serve(ws: web.WebSocketResponse, request: web.Request, user: WebUser) -> None:
    """Serve a signed-in socket at its table, within the limits per user and per table."""
    app = request.app
    service, rooms, settings = app[SERVICE], app[ROOMS], app[SETTINGS]
    lang = reader_language(request, user)
    table_id = request.match_info["table_id"]
    try:
        await service.info(table_id)  # loads the table into memory, or refuses
    except Refusal as refusal:
        await _reject(ws, error_of(refusal, lang), CLOSE_NOT_FOUND)
        return
    except Exception as error:  # the database failed while loading it: the client tries again in a moment
        failed = _failed(error, "loading", table_id)
        await _reject(ws, error_of(failed, lang), CLOSE_TRY_AGAIN if failed.reason is RefusalCode.UNAVAILABLE
                      else WSCloseCode.INTERNAL_ERROR)
        return
    if settings.process_url is not None:
        owner = await service.owner_elsewhere(table_id)
        if owner is not None:
            await send(ws, redirect_frame(owner))
            await ws.close(code=CLOSE_REDIRECT, message=b"redirect")
            return
        await service.info(table_id)  # served here: loaded again if a notice unloaded it meanwhile (no wait if not)
    if rooms.count(table_id) >= settings.max_sockets_per_table:
        await _reject(ws, error_of(Refusal(RefusalCode.TABLE_CROWDED), lang), CLOSE_POLICY)
        return
    with app[GATE].signed_in(user.id) as admitted:
        if not admitted:
            await _reject(ws, error_of(Refusal(RefusalCode.TOO_MANY_SOCKETS), lang), CLOSE_POLICY)
            return
        socket = TableSocket(ws, service, table_id, user, settings, app[PUBLIC], lang, app[CLOCK],
                             app[VERIFIER].session_for(user.id))
        await socket.run(rooms, request.transport)


async def close_sockets(app: web.Application) -> None:
    """On shutdown: tell every open socket the server is going away."""
    sockets = app[SOCKETS]
    for ws in list(sockets):
        await ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")


async def _rooms_ctx(app: web.Application) -> AsyncIterator[None]:
    rooms = app[ROOMS] = Rooms(app[SERVICE], app[PUBLIC])
    yield
    await rooms.close()


def setup_ws(app: web.Application) -> None:
    """Add the WebSocket route (after the service's own start-up)."""
    app[SOCKETS] = set()
    app[GATE] = Gate(app[SETTINGS])
    app.cleanup_ctx.append(_rooms_ctx)
    app.router.add_get("/ws/{table_id}", table_socket)
    app.on_shutdown.append(close_sockets)
