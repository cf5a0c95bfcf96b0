"""One WebSocket per open table: the seat's view, then every change; intents in, refusals back.

The protocol (``GET /ws/{table_id}``; every frame is a JSON object with a ``type``):

1. Within ``hello_timeout`` (10 s) of opening, counted from the upgrade and not restarted
   by anything the client sends (WebSocket pings included), the client sends
   ``{"type": "hello", "init_data": "...", "last_seq": n | null, "session": "...", "stay": bool}``. The
   server validates the initData (``webapp.auth``) and takes the user from it; the seat is
   looked up from that user, never taken from the client. initData older than
   ``initdata_max_age`` is taken with a live session token of the same user: the hello's
   ``session``, else the ``cardroom_session`` cookie (``webapp.caller`` sets it). Bad initData,
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
   reached, which serves it. An owner's address that does not answer as another live process
   (``webapp.addresses``: a wrong ``PROCESS_URL``) is not sent to: the socket is served here,
   and so is one whose hello says ``"stay": true`` (the page followed three redirects without
   a welcome); either is logged and listed in ``/healthz``. Without addresses every process serves every socket, as a
   reverse proxy that routes by table id would have them (``docs/deployment.md``).

7. A process stopping (a deploy's SIGTERM, ``webapp.shutdown``) finishes the moves it accepted, hands its
   tables over, and closes every socket with 1012 ("service restart"); a socket opened meanwhile is closed so
   at once, and a move sent meanwhile is refused (``code: "moving"``) before its socket is. The page
   reconnects at once to its own address, which the load balancer sends to a live process.

Limits, each refused with a close frame 1008 and its reason (after an ``error`` frame
with the same code once the client has signed in): sockets still to say hello, in all
and per remote address (``too_many_pending``); sockets per user (``too_many_sockets``);
sockets per table (``table_crowded``). The numbers are settings (``engine.config``). Behind
a reverse proxy listed in ``trusted_proxies`` the address is the one it forwards (``webapp.limits``).

Every ``error`` and ``refused`` frame is a refusal of ``engine.core.errors``: its ``code``
is the refusal's wire code and its ``message`` the refusal in the reader's language (the
page's, from its cookie, until the hello says who is reading).

Heartbeats are WebSocket pings after 5 s of quiet; a peer that does not answer within 2.5 s is dropped, so a phone
that fell off the network leaves the table (and is sent its turn message) within about 10 s. The page pings too
(``{"type": "ping"}`` after 2.5 s of quiet) and reconnects after 3 s without an answer; every pong carries the
table's seq, so a page that missed an update notices and resyncs.

permessage-deflate is off: for frames of a few KB its memory per socket costs more than it saves
(docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from aiohttp import WSCloseCode, WSMsgType, web

from engine.core.errors import Refusal, RefusalCode
from engine.i18n import refusal_text
from webapp.addresses import ADDRESSES, Addresses, addresses_ctx
from webapp.auth import WebUser
from webapp.caller import cookie_language, reader_language, signed_in
from webapp.keys import CLOCK, GATE, PUBLIC, ROOMS, SERVICE, SESSION_COOKIE, SETTINGS, SOCKETS, VERIFIER
from webapp.limits import Gate
from webapp.protocol import (
    ErrorFrame,
    FrameError,
    parse_client_frame,
    parse_hello,
    redirect_frame,
)
from webapp.readiness import STOPPING
from webapp.rooms import Rooms, send
from webapp.shutdown import restart
from webapp.table_socket import CLOSE_POLICY, CLOSE_UNAUTHORIZED, MAX_FRAME, TableSocket, error_of, failed

log = logging.getLogger(__name__)
HEARTBEAT = 5.0  # seconds of quiet before a WebSocket ping; one unanswered for half as long drops the socket
CLOSE_TIMEOUT = 3.0  # seconds to wait for the peer's answer to our close frame
HARD_LIMIT = 64 * 1024  # larger ones close the socket (aiohttp answers 1009)
CLOSE_NOT_FOUND = 4404
CLOSE_REDIRECT = 4307  # the table lives on another process: the redirect frame before it names where
CLOSE_TRY_AGAIN = WSCloseCode.TRY_AGAIN_LATER  # 1013: the database failed; the same may work a moment later
MAX_CLOSE_REASON = 123  # bytes a close frame's reason may hold (RFC 6455)


def close_reason(refusal: Refusal, lang: str | None) -> bytes:
    """A close frame's reason for a refusal: its code and words, cut to what a close frame holds."""
    return f"{refusal.code}: {refusal_text(refusal, lang)}".encode()[:MAX_CLOSE_REASON].decode(errors="ignore").encode()


async def _hello(ws: web.WebSocketResponse, request: web.Request) -> tuple[WebUser, bool] | None:
    """Wait for the hello frame and return its validated user and whether it asks to be served here (``stay``), or
    close the socket.

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
        user = await signed_in(request.app, request.app[VERIFIER].verify(hello["init_data"], session=session))
        return user, hello["stay"]
    except Refusal as refusal:  # a frame that is no hello, or sign-in data refused
        request.app[SERVICE].metrics.refused(refusal.code)
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
    if _stopping(request.app):  # the process is stopping: the page comes back at once, to a live one
        sockets.discard(ws)
        await restart(ws)
        return ws
    try:
        address = gate.proxies.client(request.remote or "", request.headers.getall("X-Forwarded-For", ()),
                                      request.headers.getall("Forwarded", ()))
        with gate.unauthenticated(address) as refused:
            if refused is not None:
                await ws.close(code=CLOSE_POLICY, message=close_reason(refused, cookie_language(request)))
                return ws
            hello = await _hello(ws, request)
        if hello is not None:
            await _serve(ws, request, *hello)
    except Exception as error:  # never a bare drop: the client is told in words, and the socket closed
        if ws.closed:
            raise
        table_id = request.match_info.get("table_id", "?")
        said = error if isinstance(error, Refusal) else failed(error, "socket", table_id)
        with contextlib.suppress(Exception):  # the peer may be gone by now
            await _reject(ws, error_of(said, cookie_language(request)), WSCloseCode.INTERNAL_ERROR)
    finally:
        sockets.discard(ws)
        if not ws.closed:
            await ws.close()
    return ws


async def _serve(ws: web.WebSocketResponse, request: web.Request, user: WebUser, stay: bool = False) -> None:
    """Serve a signed-in socket at its table, within the limits per user and per table."""
    app = request.app
    service, rooms, settings = app[SERVICE], app[ROOMS], app[SETTINGS]
    lang = reader_language(request, user)
    table_id = request.match_info["table_id"]
    try:
        info = await service.info(table_id)  # loads the table into memory, or refuses
        await service.daily.check_watcher(info, user.id)  # a deal of the day is seen early by nobody else
    except Refusal as refusal:
        await _reject(ws, error_of(refusal, lang), CLOSE_NOT_FOUND)
        return
    except Exception as error:  # the database failed while loading it: the client tries again in a moment
        said = failed(error, "loading", table_id)
        await _reject(ws, error_of(said, lang), CLOSE_TRY_AGAIN if said.reason is RefusalCode.UNAVAILABLE
                      else WSCloseCode.INTERNAL_ERROR)
        return
    if settings.process_url is not None:
        owner = await service.owner_elsewhere(table_id)
        if owner is not None and stay:  # redirected again and again without a welcome: served here
            app[ADDRESSES].looped(owner)
        elif owner is not None and await app[ADDRESSES].answers(owner):
            service.metrics.redirected()
            await send(ws, redirect_frame(owner))
            await ws.close(code=CLOSE_REDIRECT, message=b"redirect")
            return
        await service.info(table_id)  # served here: loaded again if a notice unloaded it meanwhile (no wait if not)
    if rooms.count(table_id) >= settings.max_sockets_per_table:
        await _reject(ws, error_of(Refusal(RefusalCode.TABLE_CROWDED), lang), CLOSE_POLICY)
        return
    if _stopping(app):  # stopped while this socket signed in
        await restart(ws)
        return
    with app[GATE].signed_in(user.id) as admitted:
        if not admitted:
            await _reject(ws, error_of(Refusal(RefusalCode.TOO_MANY_SOCKETS), lang), CLOSE_POLICY)
            return
        socket = TableSocket(ws, service, table_id, user, settings, app[PUBLIC], lang, app[CLOCK],
                             app[VERIFIER].session_for(user), app.get(STOPPING))
        await socket.run(rooms, request.transport)


async def _rooms_ctx(app: web.Application) -> AsyncIterator[None]:
    rooms = app[ROOMS] = Rooms(app[SERVICE], app[PUBLIC])
    yield
    await rooms.close()


def _stopping(app: web.Application) -> bool:
    stopping = app.get(STOPPING)
    return stopping is not None and stopping.is_set()


def _origin(app: web.Application) -> str:
    service = app.get(SERVICE)
    return service.peers.origin if service is not None else ""


def setup_ws(app: web.Application) -> None:
    """Add the WebSocket route (after the service's own start-up)."""
    app[SOCKETS] = set()
    app[GATE] = Gate(app[SETTINGS])
    app[ADDRESSES] = Addresses(app[SETTINGS].process_url, lambda: _origin(app))
    app.cleanup_ctx.append(_rooms_ctx)
    app.cleanup_ctx.append(addresses_ctx)
    app.router.add_get("/ws/{table_id}", table_socket)
