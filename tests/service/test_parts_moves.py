"""Moves built alone: a table source held in memory, a recording publisher, a store that records appends."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import Refusal
from engine.service.moves import Moves
from tests.clock import ManualClock
from tests.service.parts import FakeSchedule, FakeSharing, FakeStore, FakeTables, race_row, race_table


def moves_over(*tables: Any, store: FakeStore | None = None) -> tuple[Moves, FakeTables, FakeStore, FakeSchedule,
                                                                       FakeSharing]:
    source, schedule, sharing = FakeTables(*tables), FakeSchedule(), FakeSharing()
    store = store or FakeStore()
    moves = Moves(store, source, sharing, schedule, clock=ManualClock())  # type: ignore[arg-type]
    return moves, source, store, schedule, sharing


async def test_a_move_is_stored_then_applied_then_published_with_its_cause() -> None:
    table = race_table()
    moves, source, store, schedule, _ = moves_over(table)
    result = await moves.act("t1", 1, {"type": "step"}, 0, cause="socket 7")
    assert result.seq == 1 and table.seq == 1 and table.state.steps == 1
    ((table_id, entry, row, finish),) = store.appended
    assert (table_id, entry.seq, entry.seat, entry.action, entry.auto) == ("t1", 1, 0, {"type": "step"}, False)
    assert row is None and finish is None  # nothing of the row changed: it is not written
    (update,) = source.published
    assert (update.kind, update.cause, update.info.seq, update.info.to_act) == ("moved", "socket 7", 1, (1,))
    assert update.events[0].data == {"type": "stepped", "seat": 0}
    assert schedule.armed == [("t1", None)]


async def test_a_stale_or_foreign_move_is_refused_and_changes_nothing() -> None:
    table = race_table(steps=1)
    moves, source, store, _, _ = moves_over(table)
    with pytest.raises(Refusal) as stale:
        await moves.act("t1", 2, {"type": "step"}, 0)
    assert stale.value.code == "stale"
    with pytest.raises(Refusal) as stranger:
        await moves.act("t1", 99, {"type": "step"}, 1)
    assert stranger.value.code == "not_seated"
    with pytest.raises(Refusal) as turn:
        await moves.act("t1", 1, {"type": "step"}, 1)  # seat 1 (person 2) is to act
    assert turn.value.code == "not_your_turn"
    assert store.appended == [] and source.published == [] and table.seq == 1


async def test_the_move_that_ends_the_game_stores_the_result_and_publishes_the_finished_event() -> None:
    table = race_table(race_row(lesson=False), steps=2)
    moves, source, store, _, _ = moves_over(table)
    await moves.act("t1", 1, {"type": "step"}, 2)
    ((_, entry, row, finish),) = store.appended
    assert entry.seq == 3
    assert row is not None and row.status == "finished" and row.result is not None
    assert row.result["winners"] == [0] and finish is not None and finish.table_id == "t1"
    (update,) = source.published
    assert update.kind == "finished" and update.info.status == "finished" and update.info.seed == "seed"
    assert update.events[-1].data == {"type": "finished", "scores": [1, 0], "placements": [1, 2], "winners": [0],
                                      "seed": "seed"}


async def test_a_move_that_meets_another_process_write_of_the_row_only_is_tried_again_and_stands() -> None:
    table = race_table()
    moves, source, store, _, sharing = moves_over(table, store=FakeStore(refuse_append=True))
    result = await moves.act("t1", 1, {"type": "step"}, 0)
    assert sharing.reloaded == ["t1"] and result.seq == 1
    assert len(store.appended) == 1 and [u.kind for u in source.published] == ["moved"]


async def test_a_move_that_meets_another_process_move_is_refused_stale_and_applied_nowhere() -> None:
    table = race_table()
    moves, source, store, _, sharing = moves_over(table, store=FakeStore(refuse_append=True))

    async def other_process_moved(live: Any) -> None:  # the catch-up finds the other process's move
        sharing.reloaded.append(live.id)
        live.state, live.seq = live.game.apply(live.state, 0, {"type": "step"})[0], 1

    sharing.reload = other_process_moved  # type: ignore[method-assign, assignment]
    with pytest.raises(Refusal) as refused:
        await moves.act("t1", 1, {"type": "step"}, 0)
    assert refused.value.code == "stale" and sharing.reloaded == ["t1"]
    assert store.appended == [] and source.published == [] and table.state.steps == 1


async def test_an_ai_seat_to_act_after_a_move_is_kicked() -> None:
    row = race_row(people=(1, 2))
    row.seats[1].is_ai, row.seats[1].user_id = True, None
    table = race_table(row)
    moves, _, _, schedule, _ = moves_over(table)
    await moves.act("t1", 1, {"type": "step"}, 0)
    assert schedule.kicked == ["t1"]
