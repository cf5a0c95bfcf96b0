"""Fan-out of a table's updates to its open sockets: one listener per table, not per socket.

A room listens to its table once (``TableService.listen``): the service awaits it with
each update as it publishes, so there is no queue and no task per table. For each
update it builds each seat's frame once from the update's own snapshot (the events as
that seat may see them and its view at that update; spectators share one), never
reading the service's live state, and writes it to every socket of that seat; what the
seats share is encoded once (``webapp.update_texts``). The mover's own copy also
acknowledges the move: it carries the move's ``ref``, so a move costs no separate ack
frame. A socket whose peer stops reading is never waited for: once its send buffer
passes ``LAG_BYTES`` it is skipped and marked lagging, and gets a fresh welcome (the whole
view at the latest update) as soon as it has drained: the room looks every ``LAG_LOOK``
seconds while a socket lags, never waiting for a next update that may not come (a finished
game has none), so one slow phone cannot hold up a table nor be left behind by it.
A room closes when its last socket leaves.

Every welcome and update says how many people are ``watching``: people with the table open
and no seat at it (one person with two sockets open counts once). When that changes between
updates (a spectator arrives or leaves), the room tells every socket in a ``watching`` frame.
The count is of this process's sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

from aiohttp import web

from engine.service.bus import Listening, Update
from engine.service.live import SeatInfo, TableInfo
from engine.service.tables import TableService
from webapp.protocol import ServerFrame, acknowledging, dump, watching_frame
from webapp.public import PublicTables
from webapp.update_texts import UpdateTexts

log = logging.getLogger(__name__)
LAG_BYTES = 32 * 1024  # below asyncio's 64 KiB high-water mark, so a write never has to wait
LAG_LOOK = 0.2  # seconds between two looks at the lagging sockets' buffers (only while one lags)


class Member(Protocol):
    """What a room needs of a socket."""

    ws: web.WebSocketResponse
    user_id: int
    skip: int  # updates up to this room count are already covered by a welcome
    lagging: bool
    ref: str | None  # the move this socket sent and waits to hear acknowledged, if any

    async def welcome(self) -> None:
        """Send the whole view."""


def can_write(ws: web.WebSocketResponse, transport: Any) -> bool:
    """Whether a frame can be written now without waiting on a slow peer."""
    return not ws.closed and transport is not None and transport.get_write_buffer_size() < LAG_BYTES


async def write(ws: web.WebSocketResponse, text: str) -> None:
    """Write one text frame, unless the socket is closing."""
    if not ws.closed:
        try:  # not contextlib.suppress: every frame of every seat passes here, and a try costs nothing
            await ws.send_str(text)
        except (ConnectionError, RuntimeError):  # the socket closed meanwhile: it is leaving its room
            return


async def send(ws: web.WebSocketResponse, frame: ServerFrame) -> None:
    """Send one frame, unless the socket is closing."""
    await write(ws, dump(frame))


class Room:
    """The open sockets of one table."""

    def __init__(self, rooms: Rooms, service: TableService, table_id: str) -> None:
        self.rooms = rooms
        self.service = service
        self.public = rooms.public
        self.table_id = table_id
        self.members: dict[Member, Any] = {}  # member -> its transport
        self.count = 0  # updates heard so far
        self.seq: int | None = None  # the table's seq at the last update heard (a pong carries it)
        self.told = 0  # the number watching that the sockets were last told
        self.joins = 0  # sockets that came or went: the count of watchers is kept while this and the seats stay
        self._watching: tuple[int, tuple[SeatInfo, ...], int] | None = None
        self._seated: tuple[tuple[SeatInfo, ...], dict[int, int]] | None = None
        self.listening: Listening = service.listen(table_id, self.deliver)
        self._catching: asyncio.Task[None] | None = None  # welcomes the lagging sockets once drained

    def watching(self, info: TableInfo | None = None) -> int:
        """How many people have the table open without a seat (at ``info``, else now)."""
        if info is None:
            snapshot = self.service.snapshot(self.table_id)
            if snapshot is None:
                return 0
            info = snapshot.info
        kept = self._watching
        if kept is not None and kept[0] == self.joins and kept[1] is info.seats:  # the seats as last counted
            return kept[2]
        seated = self.seated(info)
        count = len({m.user_id for m in self.members if m.user_id not in seated})
        self._watching = (self.joins, info.seats, count)
        return count

    def seated(self, info: TableInfo) -> dict[int, int]:
        """Each seated person's seat at ``info``: kept while the table's seats are the same (the same tuple)."""
        kept = self._seated
        if kept is None or kept[0] is not info.seats:
            # reversed: a person in two seats is found in the first, as ``TableInfo.seat_of`` finds them
            kept = self._seated = info.seats, {s.user_id: s.seat for s in reversed(info.seats) if s.user_id is not None}
        return kept[1]

    async def announce(self, welcomed: Member | None = None) -> None:
        """Tell every socket how many are watching, if that changed since they were last told.

        ``welcomed`` has just been told in its welcome.
        """
        watching = self.watching()
        if watching == self.told:
            return
        self.told = watching
        text = dump(watching_frame(watching))
        for member, transport in tuple(self.members.items()):
            if member is not welcomed and not member.lagging and can_write(member.ws, transport):
                await write(member.ws, text)

    def covered(self) -> int:
        """The room count a welcome sent now covers: every update heard so far."""
        return self.count

    async def deliver(self, update: Update) -> None:
        """Write an update to every socket at once (the service awaits this as it publishes)."""
        self.count += 1
        self.seq = update.seq if self.seq is None else max(self.seq, update.seq)
        snapshot = update.snapshot
        texts: dict[int | None, str] = {}
        watching = self.told = self.watching(snapshot.info)
        frames = UpdateTexts(update, self.public, watching)  # what the seats share is encoded once
        seated = self.seated(snapshot.info)
        for member, transport in tuple(self.members.items()):
            if member.skip >= self.count:
                continue
            if not can_write(member.ws, transport):
                member.lagging = True
                self._catch_up_later()
                continue
            if member.lagging:
                member.lagging = False
                member.skip = self.covered()
                await member.welcome()
                continue
            seat = seated.get(member.user_id)
            text = texts.get(seat)
            if text is None:
                text = texts[seat] = frames.text(seat)
            if update.cause is member and member.ref is not None:
                text, member.ref = acknowledging(text, member.ref), None
            await write(member.ws, text)

    def _catch_up_later(self) -> None:
        if self._catching is None or self._catching.done():
            self._catching = asyncio.get_running_loop().create_task(self._catch_up(), name=f"lagging-{self.table_id}")

    async def _catch_up(self) -> None:
        """While a socket lags, look at its buffer every ``LAG_LOOK`` seconds; once drained, welcome it."""
        while any(member.lagging for member in self.members):
            await asyncio.sleep(LAG_LOOK)
            for member, transport in tuple(self.members.items()):
                if member.lagging and can_write(member.ws, transport):
                    await self.rewelcome(member)

    async def rewelcome(self, member: Member) -> None:
        """A lagging socket that drained: the whole view at the latest update (a failure is tried again later)."""
        member.lagging = False
        member.skip = self.covered()
        try:
            await member.welcome()
        except Exception as error:  # the table could not be read just now: the next look tries again
            member.lagging = not member.ws.closed
            log.warning("could not welcome a lagging socket at table %s again (%s: %s)", self.table_id,
                        type(error).__name__, error)

    async def close(self) -> None:
        """Stop receiving the table's updates."""
        self.listening.close()
        catching, self._catching = self._catching, None
        if catching is not None:
            catching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await catching


class Rooms:
    """Every room of the process, by table id."""

    def __init__(self, service: TableService, public: PublicTables | None = None) -> None:
        self.service = service
        self.public = public or PublicTables()
        self._rooms: dict[str, Room] = {}

    def count(self, table_id: str) -> int:
        """How many sockets a table has open."""
        room = self._rooms.get(table_id)
        return len(room.members) if room is not None else 0

    def join(self, table_id: str, member: Member, transport: Any) -> Room:
        """Add a socket to its table's room (opening the room if needed)."""
        room = self._rooms.get(table_id)
        if room is None:
            room = self._rooms[table_id] = Room(self, self.service, table_id)
        room.members[member] = transport
        room.joins += 1
        return room

    async def leave(self, table_id: str, member: Member) -> None:
        """Remove a socket; the last one out closes the room."""
        room = self._rooms.get(table_id)
        if room is None:
            return
        room.members.pop(member, None)
        room.joins += 1
        if not room.members:
            del self._rooms[table_id]
            await room.close()
        else:
            await room.announce()

    def __len__(self) -> int:
        return len(self._rooms)

    async def close(self) -> None:
        """Close every room."""
        rooms, self._rooms = list(self._rooms.values()), {}
        for room in rooms:
            await room.close()
