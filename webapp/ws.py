"""One WebSocket per open table: the seat's view, then every change; intents in, refusals back.

The protocol (``GET /ws/{table_id}``; every frame is a JSON object with a ``type``):

1. Within 10 s the client sends ``{"type": "hello", "init_data": "...", "last_seq": n | null}``.
   The server validates the initData (``webapp.auth``) and takes the user from it; the seat
   is looked up from that user, never taken from the client. Bad or stale initData gets
   ``{"type": "error", "code": "unauthorized"}`` and the socket is closed; so does an unknown
   table (``code: "table_not_found"``).
2. The server answers ``{"type": "welcome", "you": seat | null, "seq": n, "view": {...}}``:
   the whole view for that seat (a spectator's, with no hand, when not seated). A client
   that reconnects sends its ``last_seq`` and gets a fresh welcome, which covers whatever
   it missed.
3. Then every change at the table: ``{"type": "update", "seq": n, "kind": ..., "events":
   [...], "view": {...}}``, the events as this seat may see them (others' private events
   are shadows) and the fresh view. A client that sees ``seq`` jump by more than one, or
   a server that finds this socket too far behind, resyncs: the server sends a welcome.
4. The client sends intents: ``{"type": "act", "ref": "r1", "seq": n, "action": {...}}``,
   made against ``seq``; ``{"type": "lobby", "ref": "r2", "op": "join|leave|add_ai|start|
   options|cancel", "changes": {...}}``; ``{"type": "resync"}``; ``{"type": "ping", "t": x}``
   (answered by ``{"type": "pong", "t": x}``). An applied intent gets ``{"type": "ack",
   "ref", "seq"}``; a refused one ``{"type": "refused", "ref", "code", "message"}`` sent to
   the sender only, and nothing changed (a move against an old seq: ``code: "stale"``).
5. A frame that cannot be taken gets ``{"type": "error", "code", "message"}`` and changes
   nothing: ``malformed_frame`` (not JSON, unknown type, wrong fields), ``too_large``
   (over 4 KB; over 64 KB closes the socket with 1009), ``flood`` (over 20 frames a
   second; a client that keeps flooding is disconnected).

Heartbeats are WebSocket pings every 30 s (a peer that does not answer is dropped).
permessage-deflate is off: it would cost about 0.2 MB per socket for frames of a few KB.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from engine.core.errors import Refusal, RefusalCode
from engine.i18n import Gettext, gettext_for
from engine.service.tables import TableService
from webapp.api import lobby_op
from webapp.auth import AuthError, WebUser
from webapp.keys import ROOMS, SERVICE, SOCKETS, VERIFIER
from webapp.protocol import (
    ActFrame,
    ErrorFrame,
    FrameError,
    LobbyFrame,
    parse_client_frame,
    parse_hello,
)
from webapp.rooms import Room, Rooms, send

log = logging.getLogger(__name__)
HELLO_TIMEOUT = 10.0
HEARTBEAT = 30.0
MAX_FRAME = 4 * 1024  # larger frames are refused with an error frame
HARD_LIMIT = 64 * 1024  # larger ones close the socket (aiohttp answers 1009)
FLOOD_RATE = 20.0  # frames per second, with bursts of as many
FLOOD_CLOSE = 60  # frames refused for flooding before the socket is closed
CLOSE_UNAUTHORIZED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_FLOOD = 4429


class TokenBucket:
    """At most ``rate`` frames a second on average, bursts of ``rate``."""

    def __init__(self, rate: float, clock: Any = time.monotonic) -> None:
        self.rate = rate
        self.tokens = rate
        self.clock = clock
        self.last = clock()

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = self.clock()
        self.tokens = min(self.rate, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def error_frame(code: str, message: str) -> ErrorFrame:
    """An error frame."""
    return {"type": "error", "code": code, "message": message}


class TableSocket:
    """One authenticated socket at one table: reads its intents; its room sends it the table's updates."""

    def __init__(self, ws: web.WebSocketResponse, service: TableService, table_id: str, user: WebUser) -> None:
        self.ws = ws
        self.service = service
        self.table_id = table_id
        self.user = user
        self.user_id = user.id
        self._: Gettext = gettext_for(user.language_code or None)
        self.bucket = TokenBucket(FLOOD_RATE)
        self.flooded = 0
        self.skip = 0
        self.lagging = False
        self.room: Room | None = None

    def seat(self) -> int | None:
        """The user's seat now (it changes when they join or leave)."""
        snapshot = self.service.snapshot(self.table_id)
        return snapshot.info.seat_of(self.user_id) if snapshot is not None else None

    async def welcome(self) -> None:
        """Send the whole view; the room skips the updates queued so far, which it covers."""
        snapshot = self.service.snapshot(self.table_id)
        if snapshot is None:
            raise Refusal(RefusalCode.TABLE_NOT_FOUND)
        if self.room is not None:
            self.skip = self.room.covered()
        seat = snapshot.info.seat_of(self.user_id)
        view = snapshot.view(seat)
        await send(self.ws, {"type": "welcome", "you": seat, "seq": view["seq"], "view": view})

    async def come_back(self) -> None:
        """Opening the table is coming back: a seat on autopilot waits for its owner again."""
        snapshot = self.service.snapshot(self.table_id)
        if snapshot is None or snapshot.info.status != "playing":
            return
        seat = snapshot.info.seat_of(self.user_id)
        if seat is not None and not snapshot.info.seats[seat].is_ai:
            await self.service.back(self.table_id, self.user_id)

    async def run(self, rooms: Rooms, transport: Any) -> None:
        """Serve the socket until it closes."""
        self.room = rooms.join(self.table_id, self, transport)
        try:
            await self.come_back()
            await self.welcome()
            await self._read()
        finally:
            await rooms.leave(self.table_id, self)

    async def _read(self) -> None:
        ws = self.ws
        while not ws.closed:
            msg = await ws.receive()
            if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                return
            if not self.bucket.take():
                self.flooded += 1
                if self.flooded >= FLOOD_CLOSE:
                    await send(ws, error_frame("flood", self._("Too many messages; disconnected.")))
                    await ws.close(code=CLOSE_FLOOD, message=b"flood")
                    return
                if self.flooded == 1 or self.flooded % 10 == 0:
                    await send(ws, error_frame("flood", self._("Too many messages; slow down.")))
                continue
            if msg.type is not WSMsgType.TEXT:
                await send(ws, error_frame("malformed_frame", self._("Frames must be JSON text.")))
                continue
            if len(msg.data) > MAX_FRAME:
                await send(ws, error_frame("too_large", self._("That message is too large.")))
                continue
            await self._handle(msg.data)

    async def _handle(self, text: str) -> None:
        try:
            frame = parse_client_frame(text)
        except FrameError as exc:
            await send(self.ws, error_frame(exc.code, self._(exc.message)))
            return
        if frame["type"] == "act":
            await self._act(frame)
        elif frame["type"] == "lobby":
            await self._lobby(frame)
        elif frame["type"] == "ping":
            await send(self.ws, {"type": "pong", "t": frame["t"]})
        else:  # resync, or a repeated hello
            await self.welcome()

    async def _act(self, frame: ActFrame) -> None:
        try:
            result = await self.service.act(self.table_id, self.user.id, frame["action"], frame["seq"])
        except Refusal as refusal:
            await self._refused(frame["ref"], refusal)
            return
        except Exception:
            log.exception("move failed at table %s", self.table_id)
            await self._refused(frame["ref"], Refusal(RefusalCode.SERVER_ERROR))
            return
        await send(self.ws, {"type": "ack", "ref": frame["ref"], "seq": result.seq})

    async def _lobby(self, frame: LobbyFrame) -> None:
        try:
            info = await lobby_op(self.service, self.table_id, self.user, frame["op"], frame["changes"])
        except Refusal as refusal:
            await self._refused(frame["ref"], refusal)
            return
        except Exception:
            log.exception("lobby %s failed at table %s", frame["op"], self.table_id)
            await self._refused(frame["ref"], Refusal(RefusalCode.SERVER_ERROR))
            return
        await send(self.ws, {"type": "ack", "ref": frame["ref"], "seq": info.seq})

    async def _refused(self, ref: str, refusal: Refusal) -> None:
        await send(self.ws, {"type": "refused", "ref": ref, "code": refusal.code, "message": self._(refusal.message)})


async def _hello(ws: web.WebSocketResponse, request: web.Request) -> WebUser | None:
    """Wait for the hello frame and return its validated user, or close the socket."""
    _ = gettext_for(None)
    try:
        msg = await ws.receive(timeout=HELLO_TIMEOUT)
    except TimeoutError:
        await send(ws, error_frame("unauthorized", _("Say hello with your sign-in data first.")))
        await ws.close(code=CLOSE_UNAUTHORIZED, message=b"no hello")
        return None
    if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
        return None
    if msg.type is not WSMsgType.TEXT:
        await _reject(ws, error_frame("malformed_frame", _("Frames must be JSON text.")))
        return None
    try:
        frame = parse_client_frame(msg.data) if len(msg.data) <= MAX_FRAME else None
        if frame is None or frame["type"] != "hello":
            raise FrameError("unauthorized", "The first frame must be hello with your sign-in data.")
        hello = parse_hello(dict(frame))
        return request.app[VERIFIER].verify(hello["init_data"])
    except FrameError as exc:
        await _reject(ws, error_frame(exc.code, _(exc.message)))
    except AuthError as exc:
        frame_out = error_frame(exc.code, _(exc.message))
        frame_out["reason"] = exc.reason
        await _reject(ws, frame_out)
    return None


async def _reject(ws: web.WebSocketResponse, frame: ErrorFrame) -> None:
    await send(ws, frame)
    await ws.close(code=CLOSE_UNAUTHORIZED, message=frame["code"].encode())


async def table_socket(request: web.Request) -> web.WebSocketResponse:
    """GET /ws/{table_id}: the table's WebSocket."""
    ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=HARD_LIMIT, compress=False)
    await ws.prepare(request)
    sockets = request.app[SOCKETS]
    sockets.add(ws)
    try:
        user = await _hello(ws, request)
        if user is None:
            return ws
        service = request.app[SERVICE]
        table_id = request.match_info["table_id"]
        try:
            await service.info(table_id)  # loads the table into memory, or refuses
        except Refusal as refusal:
            await send(ws, error_frame(refusal.code, gettext_for(user.language_code or None)(refusal.message)))
            await ws.close(code=CLOSE_NOT_FOUND, message=refusal.code.encode())
            return ws
        await TableSocket(ws, service, table_id, user).run(request.app[ROOMS], request.transport)
    finally:
        sockets.discard(ws)
        if not ws.closed:
            await ws.close()
    return ws


async def close_sockets(app: web.Application) -> None:
    """On shutdown: tell every open socket the server is going away."""
    sockets = app[SOCKETS]
    for ws in list(sockets):
        await ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")


async def _rooms_ctx(app: web.Application) -> AsyncIterator[None]:
    rooms = app[ROOMS] = Rooms(app[SERVICE])
    yield
    await rooms.close()


def setup_ws(app: web.Application) -> None:
    """Add the WebSocket route (after the service's own start-up)."""
    app[SOCKETS] = set()
    app.cleanup_ctx.append(_rooms_ctx)
    app.router.add_get("/ws/{table_id}", table_socket)
    app.on_shutdown.append(close_sockets)
