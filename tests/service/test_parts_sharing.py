"""Sharing built alone: other processes' notices heard by a process holding tables in a fake."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence

import pytest

from engine.service.live import LiveTable
from engine.service.peers import LocalPeers, Notice
from engine.service.sharing import Sharing, fresh_on_conflict
from engine.store.database import StaleRow
from engine.store.rows import LoggedAction
from tests.service.parts import FakeSchedule, FakeStore, FakeTables, race_row, race_table

STEP = {"type": "step"}


def sharing_over(*tables: object) -> tuple[Sharing, FakeTables, FakeStore, FakeSchedule]:
    source, schedule, store = FakeTables(*tables), FakeSchedule(), FakeStore()  # type: ignore[arg-type]
    return Sharing(store, LocalPeers(), source, schedule), source, store, schedule  # type: ignore[arg-type]


async def test_a_notice_carrying_a_move_is_applied_without_reading_the_store_and_published() -> None:
    row = race_row(people=(1, 2))
    row.seats[1].is_ai, row.seats[1].user_id = True, None
    sharing, source, store, schedule = sharing_over(race_table(row))
    carried = json.dumps({"seat": 0, "action": STEP})
    await sharing.heard(Notice("t1", 1, "moved", row.version, carried))
    assert store.loads == []
    (update,) = source.published
    assert update.kind == "moved" and update.info.seq == 1 and update.events[0].data == {"type": "stepped", "seat": 0}
    assert schedule.kicked == ["t1"]  # the other process's move left this process's AI to act
    await sharing.heard(Notice("t1", 1, "moved", row.version, carried))  # heard twice: applied once
    assert len(source.published) == 1


async def test_a_notice_of_a_table_not_in_memory_reads_nothing() -> None:
    sharing, source, store, _ = sharing_over()
    await sharing.heard(Notice("elsewhere", 5, "moved", 3, ""))
    assert store.loads == [] and source.published == []


async def test_missed_moves_are_read_from_the_log_and_published_in_order_up_to_the_finish() -> None:
    table = race_table(race_row(lesson=False))
    sharing, source, store, _ = sharing_over(table)
    store.rows["t1"] = race_row(lesson=False)
    store.actions["t1"] = [LoggedAction(i, (i - 1) % 2, STEP) for i in (1, 2, 3)]
    await sharing.catch_up("t1")
    assert [(u.kind, u.info.seq) for u in source.published] == [("moved", 1), ("moved", 2), ("finished", 3)]
    assert source.published[-1].events[-1].data["type"] == "finished" and table.seq == 3


async def test_a_failed_catch_up_is_kept_behind_until_the_supervisor_retries_it() -> None:
    table = race_table()
    sharing, source, store, _ = sharing_over(table)
    store.rows["t1"] = race_row()

    async def out_of_reach(table_id: str) -> None:
        raise OSError("the database is out of reach")

    store.tables.load_table = out_of_reach  # type: ignore[method-assign]
    await sharing.heard(Notice("t1", 0, "lobby", table.row.version + 1, ""))
    assert sharing.behind == {"t1"}
    del store.tables.load_table
    store.rows["t1"].version = table.row.version + 1
    await sharing.catch_up_behind()
    assert sharing.behind == set() and table.row.version == store.rows["t1"].version
    assert [u.kind for u in source.published] == ["seat_changed"]  # found by looking: say what the table is now


class Changes:
    """A change that meets another process's write the first ``conflicts`` times."""

    def __init__(self, conflicts: int) -> None:
        self.conflicts = conflicts
        self.caught_up: list[str] = []
        self.tries = 0

    async def catch_up(self, table_id: str) -> None:
        self.caught_up.append(table_id)

    @fresh_on_conflict
    async def change(self, table_id: str, value: int) -> int:
        self.tries += 1
        if self.tries <= self.conflicts:
            raise StaleRow(table_id)
        return value


async def test_a_change_meeting_another_write_is_run_again_after_catching_up_up_to_four_times() -> None:
    twice = Changes(conflicts=2)
    assert await twice.change("t1", 7) == 7 and twice.caught_up == ["t1", "t1"] and twice.tries == 3
    always = Changes(conflicts=10)
    with pytest.raises(StaleRow):
        await always.change("t1", 7)
    assert always.tries == 4 and len(always.caught_up) == 3


class Marks:
    """The store's row versions and seqs of tables, counting the queries asked of it."""

    def __init__(self, stored: dict[str, tuple[int, int]]) -> None:
        self.stored = stored
        self.asked: list[list[str]] = []

    async def __call__(self, table_ids: Sequence[str]) -> dict[str, tuple[int, int]]:
        self.asked.append(list(table_ids))
        return {t: self.stored[t] for t in table_ids if t in self.stored}


async def test_a_check_compares_every_loaded_table_in_one_query_and_catches_up_only_those_behind() -> None:
    tables = [race_table(race_row(f"t{i}")) for i in range(1000)]
    moved, rewritten, over = tables[10], tables[20], race_table(race_row("done", status="finished"))
    source, schedule, store = FakeTables(*tables, over), FakeSchedule(), FakeStore()
    marks = Marks({t.id: (t.row.version, t.seq) for t in tables} | {"done": (over.row.version + 1, 0)})
    marks.stored[moved.id] = (moved.row.version, 1)  # a move stored unheard
    marks.stored[rewritten.id] = (rewritten.row.version + 1, 0)  # a row written unheard
    sharing = Sharing(store, LocalPeers(), source, schedule, marks=marks)  # type: ignore[arg-type]
    store.rows = {t.id: race_row(t.id) for t in (moved, rewritten)}
    store.rows[rewritten.id].version = rewritten.row.version + 1
    store.actions[moved.id] = [LoggedAction(1, 0, STEP)]
    assert await sharing.check(grace=0) == [moved.id, rewritten.id]
    assert len(marks.asked) == 1 and len(marks.asked[0]) == 1000  # the finished table is left alone
    assert sorted(store.loads) == sorted([moved.id, rewritten.id])  # nothing read for the 998 in step
    assert [(u.table_id, u.kind, u.info.seq) for u in source.published] == [(moved.id, "moved", 1),
                                                                           (rewritten.id, "seat_changed", 0)]
    assert await sharing.check(grace=0) == [] and len(marks.asked) == 2  # caught up: the next check finds nothing


async def test_a_notice_heard_while_its_table_loads_is_applied_once_the_load_ends() -> None:
    table = race_table()
    source, schedule, store = FakeTables(), FakeSchedule(), FakeStore()
    sharing = Sharing(store, LocalPeers(), source, schedule)  # type: ignore[arg-type]

    async def loaded(table_id: str) -> LiveTable | None:  # the load read the store just before the move
        source.add(table)
        return table

    source.loaded = loaded  # type: ignore[method-assign]
    await sharing.heard(Notice("t1", 1, "moved", table.row.version, json.dumps({"seat": 0, "action": STEP})))
    assert [(u.kind, u.info.seq) for u in source.published] == [("moved", 1)] and table.seq == 1


async def test_a_table_found_behind_is_left_to_the_notice_that_comes_within_the_grace() -> None:
    table = race_table()
    source, schedule, store = FakeTables(table), FakeSchedule(), FakeStore()
    newer = race_row()
    newer.version = table.row.version + 1
    store.rows["t1"] = newer
    sharing = Sharing(store, LocalPeers(), source, schedule,  # type: ignore[arg-type]
                      marks=Marks({"t1": (newer.version, 0)}))
    told = Notice("t1", 0, "reminder", newer.version, json.dumps([{"type": "reminder", "seat": 0}]))

    async def told_soon() -> None:
        await asyncio.sleep(0.01)
        await sharing.heard(told)

    found, _ = await asyncio.gather(sharing.check(grace=0.2), told_soon())
    assert found == []  # the notice came within the grace: nothing to look at
    assert [(u.kind, [e.data for e in u.events]) for u in source.published] == [
        ("reminder", [{"type": "reminder", "seat": 0}])]  # its events reached the sockets, said once
    assert store.loads == ["t1"]
