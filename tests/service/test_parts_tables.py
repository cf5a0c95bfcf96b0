"""Tables built alone: a store fake holding rows and logs, a schedule that records, the real in-memory bus."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine import games
from engine.core.events import public
from engine.service.bus import MemoryBus
from engine.service.kinds import UpdateKind
from engine.service.loading import Tables
from engine.service.peers import LocalPeers
from engine.store.rows import LoggedAction
from tests.clock import ManualClock
from tests.service.parts import RACE, FakeSchedule, FakeStore, race_row

STEP = {"type": "step"}


@pytest.fixture(autouse=True)
def race_is_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    known = games.get
    monkeypatch.setattr(games, "get", lambda name: RACE if name == "race" else known(name))


def tables_over(store: FakeStore, max_loaded: int = 10) -> tuple[Tables, FakeSchedule, MemoryBus]:
    schedule, bus = FakeSchedule(), MemoryBus()
    tables = Tables(store, bus, schedule, peers=LocalPeers(), clock=ManualClock(),  # type: ignore[arg-type]
                    max_loaded=max_loaded)
    return tables, schedule, bus


async def test_a_table_asked_for_at_once_by_many_is_loaded_once_with_its_log_replayed() -> None:
    store = FakeStore(write_delay=0.01)
    store.rows["t1"] = race_row(people=(1, 2))
    store.actions["t1"] = [LoggedAction(1, 0, STEP), LoggedAction(2, 1, STEP)]
    tables, schedule, _ = tables_over(store)
    found = await asyncio.gather(*(tables.get("t1") for _ in range(10)))
    assert store.loads == ["t1"] and all(t is found[0] for t in found)
    assert found[0].seq == 2 and found[0].state.steps == 2 and found[0].info().to_act == (0,)
    assert schedule.armed == [("t1", None)]  # a game being played has its deadline armed when loaded


async def test_a_missing_table_is_refused_and_nothing_stays_loading() -> None:
    tables, _, _ = tables_over(FakeStore())
    for table_id in ("nope", "x" * 33, ""):
        with pytest.raises(Exception) as refused:
            await tables.get(table_id)
        assert getattr(refused.value, "code", None) == "table_not_found"
    assert tables.all() == []


async def test_a_game_stored_as_playing_past_its_end_is_finished_when_loaded() -> None:
    store = FakeStore()
    store.rows["t1"] = race_row(people=(1, 2))
    store.actions["t1"] = [LoggedAction(i, (i - 1) % 2, STEP) for i in (1, 2, 3)]
    tables, _, bus = tables_over(store)
    updates = bus.subscribe("t1")
    table = await tables.get("t1")
    assert table.row.status == "finished" and store.saved[-1][0].result is not None
    update = updates.queue.get_nowait()
    assert update.kind == "finished" and update.events[-1].data["winners"] == [0]


async def test_idle_tables_beyond_the_limit_are_unloaded_least_recently_used_first() -> None:
    store = FakeStore()
    for name in ("a", "b", "c", "d"):
        store.rows[name] = race_row(name, status="lobby")
    tables, _, bus = tables_over(store, max_loaded=2)
    await tables.get("a")
    await tables.get("b")
    watched = bus.subscribe("a")  # a table someone watches stays
    await tables.get("b")
    await tables.get("c")
    assert tables.ids() == ["a", "c"]
    watched.close()
    await tables.get("d")
    assert tables.ids() == ["c", "d"]


async def test_a_publish_hands_every_subscriber_the_change_with_its_snapshot_and_cause() -> None:
    store = FakeStore()
    store.rows["t1"] = race_row(people=(1, 2))
    tables, _, bus = tables_over(store)
    updates = bus.subscribe("t1")
    table = await tables.get("t1")
    event = public({"type": "stepped", "seat": 0})
    info = await tables.publish(table, UpdateKind.MOVED, [event], cause="me")
    update: Any = updates.queue.get_nowait()
    assert (update.kind, update.seq, update.events, update.cause) == ("moved", 0, (event,), "me")
    assert update.info == info and update.snapshot.view(1)["state"] == {"steps": 0, "legal": []}
