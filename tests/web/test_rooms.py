"""A table's room: one fan-out per update, and a socket that stops reading never holds up the others."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from engine.service.live import LiveTable
from engine.service.tables import TableService
from webapp.rooms import LAG_BYTES, Rooms


class FakeTransport:
    """A transport whose send buffer size the test sets."""

    def __init__(self) -> None:
        self.buffered = 0

    def get_write_buffer_size(self) -> int:
        return self.buffered


class FakeSocket:
    """A member that records the frames written to it."""

    def __init__(self, user_id: int) -> None:
        self.ws: Any = self
        self.closed = False
        self.user_id = user_id
        self.skip = 0
        self.lagging = False
        self.ref: str | None = None
        self.frames: list[dict[str, Any]] = []
        self.welcomes = 0

    async def send_str(self, text: str) -> None:
        self.frames.append(json.loads(text))

    async def welcome(self) -> None:
        self.welcomes += 1


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_room_sends_each_seat_its_own_events_and_spectators_none(service: TableService) -> None:
    info = await service.create_table("coins", 1, "Ann")
    await service.join(info.id, 2, "Bob")
    rooms = Rooms(service)
    ann, bob, eve = FakeSocket(1), FakeSocket(2), FakeSocket(3)
    for member in (ann, bob, eve):
        rooms.join(info.id, member, FakeTransport())
    await service.add_ai(info.id, 1)
    await service.start_game(info.id, 1)
    await _settle()
    started = next(f for f in ann.frames if f["kind"] == "started")
    assert started["view"]["you"] == 0
    dealt = {e["seat"]: e for e in started["events"] if e["type"] == "dealt"}
    assert len(dealt[0]["cards"]) == 16 and "cards" not in dealt[1]
    spectator = next(f for f in eve.frames if f["kind"] == "started")
    assert spectator["view"]["you"] is None and "hand" not in spectator["view"]["state"]
    assert all("cards" not in e for e in spectator["events"] if e["type"] == "dealt")
    kinds = [f["kind"] for f in bob.frames]
    assert kinds[:2] == ["lobby", "started"] and set(kinds[2:]) <= {"moved"}  # the AI seat may lead at once
    await rooms.close()


async def test_room_skips_a_socket_that_stopped_reading_then_welcomes_it(service: TableService) -> None:
    info = await service.create_table("coins", 1, "Ann")
    rooms = Rooms(service)
    slow, fast = FakeSocket(1), FakeSocket(2)
    slow_transport = FakeTransport()
    rooms.join(info.id, slow, slow_transport)
    rooms.join(info.id, fast, FakeTransport())
    slow_transport.buffered = LAG_BYTES
    await service.join(info.id, 2, "Bob")
    await _settle()
    assert (len(slow.frames), slow.lagging, len(fast.frames)) == (0, True, 1)
    slow_transport.buffered = 0
    await service.add_ai(info.id, 1)
    await _settle()
    assert (len(slow.frames), slow.welcomes, slow.lagging) == (0, 1, False)
    assert len(fast.frames) == 2
    await service.leave(info.id, 2)
    await _settle()
    assert [f["type"] for f in slow.frames] == ["update"]
    await rooms.close()


async def _two_sockets_at_a_lobby(service: TableService) -> tuple[str, Rooms, FakeSocket, FakeSocket]:
    """A Coins lobby hosted by Ann (user 1), with a room where users 1 and 2 each have a socket open."""
    info = await service.create_table("coins", 1, "Ann")
    rooms = Rooms(service)
    one, two = FakeSocket(1), FakeSocket(2)
    rooms.join(info.id, one, FakeTransport())
    rooms.join(info.id, two, FakeTransport())
    return info.id, rooms, one, two


async def test_room_closes_when_its_last_socket_leaves(service: TableService) -> None:
    table_id, rooms, one, two = await _two_sockets_at_a_lobby(service)
    assert (len(rooms), service.bus.listener_count(table_id)) == (1, 1)
    await rooms.leave(table_id, one)
    assert len(rooms) == 1
    await rooms.leave(table_id, two)
    assert (len(rooms), service.bus.listener_count(table_id)) == (0, 0)


async def _a_person_to_move(service: TableService) -> tuple[Rooms, LiveTable, int]:
    """A started Coins table of Ann (user 1), Bob (user 2) and an AI with a person to act, and a room set."""
    info = await service.create_table("coins", 1, "Ann")
    await service.join(info.id, 2, "Bob")
    await service.add_ai(info.id, 1)
    await service.start_game(info.id, 1)
    await service.autoplay.idle()
    live = service.live(info.id)
    assert live is not None
    (seat,) = live.to_act()
    return Rooms(service), live, seat


async def test_the_movers_own_update_acknowledges_its_move_and_no_one_elses_does(service: TableService) -> None:
    rooms, live, seat = await _a_person_to_move(service)
    mover, other = (FakeSocket(1), FakeSocket(2)) if seat == 0 else (FakeSocket(2), FakeSocket(1))
    rooms.join(live.id, mover, FakeTransport())
    rooms.join(live.id, other, FakeTransport())
    card = live.snapshot().view(seat)["state"]["legal"][0]
    mover.ref = "r7"
    result = await service.act(live.id, mover.user_id, {"type": "play", "card": card}, live.seq, cause=mover)
    # written while the move was published, before act returned: nothing is left for a separate ack
    assert mover.ref is None
    assert [(f["seq"], f.get("ref")) for f in mover.frames][:1] == [(result.seq, "r7")]
    assert [(f["seq"], "ref" in f) for f in other.frames][:1] == [(result.seq, False)]
    assert mover.frames[0]["view"]["you"] == seat and card not in mover.frames[0]["view"]["state"]["hand"]
    await rooms.close()


async def test_a_lagging_mover_keeps_its_ref_for_a_separate_ack(service: TableService) -> None:
    rooms, live, seat = await _a_person_to_move(service)
    mover, transport = FakeSocket(1 if seat == 0 else 2), FakeTransport()
    rooms.join(live.id, mover, transport)
    transport.buffered = LAG_BYTES
    mover.ref = "r8"
    card = live.snapshot().view(seat)["state"]["legal"][0]
    await service.act(live.id, mover.user_id, {"type": "play", "card": card}, live.seq, cause=mover)
    assert (mover.ref, mover.frames, mover.lagging) == ("r8", [], True)
    await rooms.close()


async def test_room_counts_a_watcher_who_takes_a_seat_no_more(service: TableService) -> None:
    table_id, rooms, ann, bob = await _two_sockets_at_a_lobby(service)
    await service.set_options(table_id, 1, {"target_score": 7})
    await _settle()
    assert ann.frames[-1]["watching"] == 1  # Bob has the table open without a seat
    await service.join(table_id, 2, "Bob")
    await _settle()
    assert [f["watching"] for f in (ann.frames[-1], bob.frames[-1])] == [0, 0]
    await rooms.leave(table_id, bob)
    await service.leave(table_id, 2)
    await _settle()
    assert ann.frames[-1]["watching"] == 0 and ann.frames[-1]["view"]["table"]["seats"][1]["name"] == ""
    await rooms.close()
