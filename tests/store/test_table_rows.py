"""Tables, seats, the move log, deadlines and snapshots, with the table repository built alone over a writer."""

from __future__ import annotations

import pytest

from engine.core.errors import Refusal
from engine.store.row_writes import StaleRow
from engine.store.rows import LoggedAction, SeatRow
from engine.store.table_rows import TableRows
from engine.store.writer import Writer
from tests.store.conftest import table


async def test_table_rows_keep_a_table_with_its_seats_and_its_version(writer: Writer) -> None:
    rows = TableRows(writer)
    await rows.create_table(table("t1"))
    stored = await rows.load_table("t1")
    assert stored is not None and stored.version == 0
    assert [(s.seat, s.name, s.user_id) for s in stored.seats] == [(0, "P1", 1), (1, "P2", 2), (2, "P3", 3)]
    stored.deadline, stored.seats[1] = 50.0, SeatRow(1, "AI", None, is_ai=True, ai_level="hard")
    await rows.save_table(stored)
    assert stored.version == 1
    again = await rows.load_table("t1")
    assert again is not None and again.version == 1 and again.deadline == 50.0
    assert (again.seats[1].is_ai, again.seats[1].ai_level, again.seats[1].user_id) == (True, "hard", None)
    assert await rows.load_table("nope") is None


async def test_table_rows_refuse_a_save_over_a_row_another_process_changed(writer: Writer) -> None:
    rows = TableRows(writer)
    await rows.create_table(table("t1"))
    first, second = await rows.load_table("t1"), await rows.load_table("t1")
    assert first is not None and second is not None
    await rows.save_table(first, with_seats=False)
    with pytest.raises(StaleRow):
        await rows.save_table(second, with_seats=False)


async def test_table_rows_append_moves_in_order_and_refuse_one_twice(writer: Writer) -> None:
    rows = TableRows(writer)
    await rows.create_table(table("t1"))
    for seq in (1, 2, 3):
        await rows.append("t1", LoggedAction(seq, seq % 3, {"type": "play", "card": f"{seq}-cups"}, auto=seq == 2))
    with pytest.raises(Refusal):
        await rows.append("t1", LoggedAction(2, 0, {"type": "play", "card": "A-cups"}))
    logged = await rows.load_actions("t1")
    assert [(a.seq, a.seat, a.action["card"], a.auto) for a in logged] == [
        (1, 1, "1-cups", False), (2, 2, "2-cups", True), (3, 0, "3-cups", False)]
    assert [a.seq for a in await rows.load_actions("t1", after=2)] == [3]
    assert await rows.count_actions() == 3
    assert set(await rows.last_moves(["t1", "t2"])) == {"t1"}
    assert await rows.last_moves([]) == {}


async def test_table_rows_append_a_move_with_its_tables_new_row(writer: Writer) -> None:
    rows = TableRows(writer)
    await rows.create_table(table("t1"))
    row = await rows.load_table("t1")
    assert row is not None
    row.status, row.result = "finished", {"winners": [0]}
    await rows.append("t1", LoggedAction(1, 0, {"type": "play"}), row)
    stored = await rows.load_table("t1")
    assert stored is not None and (stored.status, stored.result, stored.version) == ("finished", {"winners": [0]}, 1)
    assert row.version == 1


async def test_table_rows_find_deadlines_ai_turns_and_a_chats_or_persons_tables(writer: Writer) -> None:
    rows = TableRows(writer)
    for n, (chat, status, deadline, ai_turn) in enumerate(
            ((-100, "playing", 30.0, True), (-100, "lobby", None, False), (-200, "playing", 10.0, False),
             (-100, "finished", 5.0, True))):
        row = table(f"t{n}", chat_id=chat, status=status, created_at=float(n))
        row.deadline, row.ai_turn, row.timer = deadline, ai_turn, "fast"
        await rows.create_table(row)
    assert [(d[0], d[2]) for d in await rows.deadlines_before(40.0)] == [("t2", 10.0), ("t0", 30.0)]
    assert await rows.ai_turn_tables() == ["t0"]
    assert await rows.table_ids_in_chat(-100, ("lobby", "playing")) == ["t1", "t0"]
    assert await rows.table_ids_of_user(2, ("playing", "finished")) == ["t3", "t2", "t0"]
    assert await rows.table_ids_of_user(2, ("playing", "finished"), before="t3") == ["t2", "t0"]
    assert await rows.count_tables_of_user(2, ("playing",)) == 2
    assert sorted(r.id for r in await rows.unfinished_tables()) == ["t0", "t1", "t2"]


async def test_table_rows_keep_only_the_latest_snapshot(writer: Writer) -> None:
    rows = TableRows(writer)
    await rows.create_table(table("t1"))
    assert await rows.load_snapshot("t1") is None
    await rows.save_snapshot("t1", 4, {"phase": "play"})
    await rows.save_snapshot("t1", 9, {"phase": "scoring"})
    assert await rows.load_snapshot("t1") == (9, {"phase": "scoring"})


async def test_table_rows_store_a_seat_name_without_a_nul_character(writer: Writer) -> None:
    rows = TableRows(writer)
    row = table("t1")
    row.seats[0].name = "A\x00nn"
    await rows.create_table(row)
    stored = await rows.load_table("t1")
    assert stored is not None and stored.seats[0].name == "Ann"
