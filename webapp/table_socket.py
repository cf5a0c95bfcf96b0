"""One signed-in socket at one table: its welcome, the intents it reads, and the refusals it answers.

``webapp.ws`` signs the socket in and admits it within the limits; a ``TableSocket`` then serves it until it
closes: the seat's whole view first, every intent after (moves, lobby intents, resyncs, pings, presence), each
refused one answered to it alone. Its room (``webapp.rooms``) sends it the table's updates.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from collections.abc import Callable
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from engine.config import Settings
from engine.core.errors import Refusal, RefusalCode
from engine.i18n import refusal_text
from engine.service.kinds import TableStatus
from engine.service.tables import TableService
from webapp.auth import AuthError, WebUser
from webapp.http_errors import is_database_error, log_database_error
from webapp.limits import STRIKE_RATE, STRIKES_PER_BURST, TokenBucket
from webapp.protocol import (
    ActFrame,
    ErrorFrame,
    FrameError,
    LobbyFrame,
    ack_frame,
    error_frame,
    parse_client_frame,
    pong_frame,
    refused_frame,
    welcome_frame,
)
from webapp.public import PublicTables
from webapp.rooms import Room, Rooms, send
from webapp.tables_api import lobby_op

log = logging.getLogger("webapp.ws")
MAX_FRAME = 4 * 1024  # larger frames are refused with an error frame
CLOSE_POLICY = WSCloseCode.POLICY_VIOLATION  # 1008: limits and floods
CLOSE_UNAUTHORIZED = 4401  # signed in no more (or never): the page asks to be opened from Telegram again


def error_of(refusal: Refusal, lang: str | None) -> ErrorFrame:
    """The error frame of a refusal, in the reader's language; a refused sign-in says its kind as ``reason``."""
    if isinstance(refusal, AuthError):
        return error_frame(refusal.code, refusal_text(refusal, lang), refusal.kind)
    if refusal.reason is RefusalCode.NO_HELLO:
        return error_frame(refusal.code, refusal_text(refusal, lang), refusal.reason)
    return error_frame(refusal.code, refusal_text(refusal, lang))


class TableSocket:
    """One authenticated socket at one table: reads its intents; its room sends it the table's updates."""

    def __init__(
        self, ws: web.WebSocketResponse, service: TableService, table_id: str, user: WebUser, settings: Settings,
        public: PublicTables, lang: str | None = None, clock: Callable[[], float] = time.monotonic,
        session: str | None = None, stopping: asyncio.Event | None = None,
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
        self.stopping = stopping  # set once the process stops gracefully (``webapp.shutdown``)

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
        if snapshot is None or snapshot.info.status != TableStatus.PLAYING:
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
                await send(self.ws, error_of(failed(error, "coming back", self.table_id), self.lang))
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
            if not await self._still_signed_in():
                return
            await self._handle(msg.data)

    async def _still_signed_in(self) -> bool:
        """Whether the person has not signed out everywhere since this socket signed in (read at most every few
        seconds; the page's pings bring a quiet socket here too); if they have, the socket is told why and closed.
        The store out of reach keeps the socket: a sign-out is seen once it answers again."""
        try:
            if await self.service.sign_outs.still_signed_in(self.user_id, self.user.signed_at):
                return True
        except Exception:
            return True
        await send(self.ws, error_of(AuthError(RefusalCode.SIGN_IN_ENDED), self.lang))
        await self.ws.close(code=CLOSE_UNAUTHORIZED, message=b"sign_in_ended")
        return False

    async def _flooded(self, text: str | None) -> bool:
        """Answer a frame that came too fast without acting on it; False once the socket is closed for flooding."""
        if not self.strikes.take():
            await send(self.ws, error_of(Refusal(RefusalCode.FLOOD_DISCONNECTED), self.lang))
            await self.ws.close(code=CLOSE_POLICY, message=b"flood")
            return False
        flood = Refusal(RefusalCode.FLOOD)
        self.service.metrics.refused(flood.code)
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
            await send(self.ws, pong_frame(frame["t"], self.room.seq if self.room is not None else None))
        elif frame["type"] == "presence":
            self.service.presence.report(self.table_id, self.user_id, self, frame["active"])
        else:  # resync, or a repeated hello
            await self.welcome()

    async def _act(self, frame: ActFrame) -> None:
        if self.stopping is not None and self.stopping.is_set():
            # the process is stopping: the move is made again where the page reconnects, at once (1012)
            await self._refused(frame["ref"], Refusal(RefusalCode.MOVING))
            await self.ws.close(code=WSCloseCode.SERVICE_RESTART, message=b"service restart")
            return
        if self._cut_off():
            await self._moving(frame["ref"])
            return
        self.ref = frame["ref"]  # the room puts it on this socket's copy of the move's update: that is the ack
        try:
            result = await self.service.act(self.table_id, self.user.id, frame["action"], frame["seq"], cause=self)
        except Refusal as refusal:
            self.ref = None
            if refusal.code == RefusalCode.UNAVAILABLE and self._cut_off():  # cut off while the move waited
                await self._moving(frame["ref"])
            else:
                await self._refused(frame["ref"], refusal)
            return
        except Exception as error:
            self.ref = None
            await self._refused(frame["ref"], failed(error, "move", self.table_id))
            return
        if self.ref is not None:  # this socket got no update (it was lagging, or a welcome covered it)
            self.ref = None
            await send(self.ws, ack_frame(frame["ref"], result.seq))

    def _cut_off(self) -> bool:
        """Whether this process, one of several, is out of touch with the others (another takes its tables)."""
        return self.settings.process_url is not None and not self.service.peers.in_touch()

    async def _moving(self, ref: str) -> None:
        """Refuse a move as ``moving`` and close (1013): the page reconnects, is sent to the table's new owner and
        sends the move again there with its seq (stored here after all, it is refused there as stale)."""
        await self._refused(ref, Refusal(RefusalCode.MOVING))
        await self.ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"moving")

    async def _lobby(self, frame: LobbyFrame) -> None:
        try:
            info = await lobby_op(self.service, self.table_id, self.user, frame["op"], frame["changes"])
        except Refusal as refusal:
            await self._refused(frame["ref"], refusal)
            return
        except Exception as error:
            await self._refused(frame["ref"], failed(error, f"lobby {frame['op']}", self.table_id))
            return
        await send(self.ws, ack_frame(frame["ref"], info.seq))

    async def _refused(self, ref: str, refusal: Refusal) -> None:
        self.service.metrics.refused(refusal.code)
        snapshot = self.service.snapshot(self.table_id)
        spanish = snapshot is not None and snapshot.info.game == "coins"
        await send(self.ws, refused_frame(ref, refusal.code, refusal_text(refusal, self.lang, spanish=spanish)))


def failed(error: BaseException, what: str, table_id: str) -> Refusal:
    """The refusal for what failed on the server: the database (out of reach, or its connection broken), or a bug.

    Either way it is logged; a database error is ``unavailable`` (the same may work a moment later).
    """
    if is_database_error(error):
        log_database_error(error, f"{what} at table {table_id}", log)
        return Refusal(RefusalCode.UNAVAILABLE)
    log.error("%s failed at table %s", what, table_id, exc_info=error, extra={"table_id": table_id})
    return Refusal(RefusalCode.SERVER_ERROR)
