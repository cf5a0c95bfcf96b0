"""Lobby built alone: tables held in memory, a recording publisher, a store that records writes, a real cap."""

from __future__ import annotations

import asyncio

import pytest

from engine.core.errors import Refusal
from engine.service.lobby import Lobby
from engine.service.open_tables import OpenTablesCap
from tests.clock import ManualClock
from tests.service.parts import FakeSchedule, FakeSharing, FakeStore, FakeTables, race_row, race_table


def lobby_over(*tables: object, limit: int = 20, store: FakeStore | None = None) -> tuple[Lobby, FakeTables, FakeStore,
                                                                                         FakeSchedule]:
    source, schedule = FakeTables(*tables), FakeSchedule()  # type: ignore[arg-type]
    store = store or FakeStore()
    cap = OpenTablesCap(source.count_open_tables, limit)
    lobby = Lobby(store, source, FakeSharing(), schedule, cap, clock=ManualClock())  # type: ignore[arg-type]
    return lobby, source, store, schedule


async def test_a_new_table_seats_its_host_is_stored_kept_in_memory_and_published() -> None:
    lobby, source, store, _ = lobby_over()
    info = await lobby.create_table("coins", 1, "Ann", {"target_score": 5, "timer": "live"}, chat_id=-7)
    assert info.status == "lobby" and info.seats[0].user_id == 1 and info.timer == "live" and info.chat_id == -7
    assert [r.id for r in store.created] == [info.id] and source.held(info.id) is not None
    assert [(u.table_id, u.kind) for u in source.published] == [(info.id, "lobby")]


async def test_joining_takes_the_first_free_seat_and_tells_other_processes() -> None:
    lobby, source, store, _ = lobby_over(race_table(race_row(people=(1, 2), status="lobby")))
    source.held_tables["t1"].row.seats[1].user_id = None
    info = await lobby.join("t1", 3, "Cat")
    assert info.seats[1].user_id == 3
    ((row, notice),) = store.saved
    assert notice is not None and notice[1] == "lobby" and row.seats[1].name == "Cat"


async def test_the_cap_refuses_a_new_table_and_a_seat_to_a_person_at_the_limit() -> None:
    held = [race_table(race_row(f"t{i}", people=(1, 2), status="lobby")) for i in range(2)]
    free = race_table(race_row("free", people=(5, 6), status="lobby"))
    free.row.seats[1].user_id = None
    lobby, source, store, _ = lobby_over(*held, free, limit=2)
    with pytest.raises(Refusal) as refused:
        await lobby.create_table("coins", 1, "Ann")
    assert refused.value.code == "too_many_tables" and "2" in refused.value.message
    with pytest.raises(Refusal) as refused:
        await lobby.join("free", 2, "Bob")
    assert refused.value.code == "too_many_tables"
    assert store.created == [] and store.saved == [] and source.published == []
    held[0].row.status = "finished"  # one of them is over: there is room again
    info = await lobby.join("free", 2, "Bob")
    assert info.seats[1].user_id == 2


async def test_two_creates_at_once_at_the_limit_give_one_table() -> None:
    lobby, _, store, _ = lobby_over(race_table(race_row(people=(1, 2), status="lobby")), limit=2,
                                    store=FakeStore(write_delay=0.01))
    results = await asyncio.gather(*(lobby.create_table("coins", 1, "Ann") for _ in range(5)),
                                   return_exceptions=True)
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(made) == 1 and len(refused) == 4 and {r.code for r in refused} == {"too_many_tables"}
    assert len(store.created) == 1 and lobby.cap.locks() == 0


async def test_starting_deals_fills_empty_seats_with_ai_and_kicks_the_ai() -> None:
    row = race_row(people=(1, 2), status="lobby")
    row.seats[1].user_id, row.seats[1].name = None, ""
    row.seats.reverse()  # the AI's seat, 0, acts first
    row.seats[0].seat, row.seats[1].seat = 0, 1
    lobby, source, store, schedule = lobby_over(race_table(row))
    info = await lobby.start_game("t1", 1)
    assert info.status == "playing" and info.seats[0].is_ai and info.seats[0].name == "Ada (AI)"
    assert source.published[-1].kind == "started" and store.saved[-1][1] is not None
    assert schedule.armed == [("t1", None)] and schedule.kicked == ["t1"]


async def test_abandoning_stops_the_ai_and_reveals_the_seed() -> None:
    lobby, source, _, schedule = lobby_over(race_table())
    info = await lobby.abandon("t1", 1)
    assert info.status == "abandoned" and info.seed == "seed"
    assert source.published[-1].events[0].data == {"type": "abandoned", "seed": "seed"}
    assert schedule.forgotten == ["t1"] and source.unloaded == ["t1"]
