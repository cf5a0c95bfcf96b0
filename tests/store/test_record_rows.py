"""The record (results, history, groups, leaderboards, ratings), with its repository built alone over a writer."""

from __future__ import annotations

from engine.store.people_rows import PeopleRows
from engine.store.record_rows import RecordRows
from engine.store.rows import Finish, SeatResult, Skill
from engine.store.table_rows import TableRows
from engine.store.writer import Writer
from tests.store.conftest import table


def unrated(_: dict[int, Skill]) -> dict[int, Skill]:
    return {}


def finish(table_id: str, chat_id: int | None, at: float, people: tuple[int, ...] = (1, 2, 3)) -> Finish:
    """A coins game of ``people`` that the first of them won."""
    return Finish(table_id, "coins", chat_id, at,
                  tuple(SeatResult(seat, user, f"P{user}", seat + 1, 10 - seat) for seat, user in enumerate(people)),
                  unrated)


async def finished(writer: Writer, table_id: str, chat_id: int | None, at: float,
                   people: tuple[int, ...] = (1, 2, 3)) -> None:
    """A finished table and its results on record."""
    await TableRows(writer).create_table(table(table_id, chat_id=chat_id, status="finished", people=people))
    await RecordRows(writer).add_results(finish(table_id, chat_id, at, people))


async def test_record_rows_give_a_persons_history_newest_first_a_page_at_a_time(writer: Writer) -> None:
    record = RecordRows(writer)
    await finished(writer, "t1", -100, 1.0)
    await finished(writer, "t2", None, 2.0, people=(4, 2, 5))
    await record.add_results(finish("t2", None, 9.0, (4, 2, 5)))  # already on record: not counted twice
    history = await record.history(2)
    assert [(g["table_id"], g["finished_at"]) for g in history] == [("t2", 2.0), ("t1", 1.0)]
    assert history[1]["seats"][1] == {"seat": 1, "name": "P2", "placement": 2, "score": 9, "you": True}
    assert history[1]["options"] == {"target_score": 1}
    assert [g["table_id"] for g in await record.history(2, before=2.0)] == ["t1"]
    assert await record.history(99) == []


async def test_record_rows_list_a_persons_groups_and_who_played_there(writer: Writer) -> None:
    record = RecordRows(writer)
    await finished(writer, "t1", -100, 1.0)
    await finished(writer, "t2", -100, 5.0, people=(1, 2, 4))
    await finished(writer, "t3", -200, 3.0)
    await finished(writer, "t4", 1, 4.0)  # a private chat: not a group
    groups = await record.groups(1)
    assert [(g["chat_id"], g["games"], g["first"], g["last"]) for g in groups] == [
        (-100, {"coins": 2}, 1.0, 5.0), (-200, {"coins": 1}, 3.0, 3.0)]
    assert groups[0]["people"] == ["P2", "P3", "P4"]
    assert await record.played_in_chat(4, -100) and not await record.played_in_chat(4, -200)


async def test_record_rows_rank_a_groups_players_by_rating(writer: Writer) -> None:
    record, people = RecordRows(writer), PeopleRows(writer)
    for user in (1, 2, 3):
        await people.upsert_user(user, f"P{user}")
    await finished(writer, "t1", -100, 1.0)
    await record.replace_ratings("coins", {1: (30.0, 2.0, 1, 1), 2: (20.0, 1.0, 1, 0), 3: (28.0, 1.0, 1, 0)}, 2.0)
    assert await record.ratings_of("coins") == {1: (30.0, 2.0, 1, 1), 2: (20.0, 1.0, 1, 0), 3: (28.0, 1.0, 1, 0)}
    board = await record.leaderboard(-100, "coins")
    # by mu, the rating people see is made of (not by mu - 3 sigma, which would put P3 first)
    assert [(r["user_id"], r["name"], r["games"], r["wins"], r["rated"]) for r in board] == [
        (1, "P1", 1, 1, 1), (3, "P3", 1, 0, 1), (2, "P2", 1, 0, 1)]
    await record.retotal_standings()
    assert [r["user_id"] for r in await record.leaderboard(-100, "coins")] == [1, 3, 2]


async def test_record_rows_move_a_groups_record_to_its_new_id(writer: Writer) -> None:
    record = RecordRows(writer)
    await PeopleRows(writer).upsert_user(1, "P1")
    await finished(writer, "t1", -100, 1.0, people=(1,))
    await finished(writer, "t2", -300, 2.0, people=(1,))  # a game already finished at the new id
    await TableRows(writer).create_table(table("t3", chat_id=-100))  # still playing: its chat moves with the table
    await record.replace_ratings("coins", {1: (25.0, 5.0, 2, 2)}, 3.0)
    assert await record.move_record(-100, -300) == ["t1"]
    board = await record.leaderboard(-300, "coins")
    assert [(r["user_id"], r["games"], r["wins"]) for r in board] == [(1, 2, 2)]
    assert await record.leaderboard(-100, "coins") == []
    moved = await TableRows(writer).load_table("t1")
    assert moved is not None and (moved.chat_id, moved.version) == (-300, 1)


async def test_record_rows_page_through_finished_and_unrecorded_tables(writer: Writer) -> None:
    record = RecordRows(writer)
    await finished(writer, "t1", -100, 5.0)
    await finished(writer, "t2", -100, 1.0)
    await TableRows(writer).create_table(table("t3", status="finished"))  # finished before there was a record
    assert [r.id for r in await record.finished_tables()] == ["t2", "t1"]
    assert [r.id for r in await record.finished_tables(offset=1)] == ["t1"]
    assert [r.id for r in await record.unrecorded_finished()] == ["t3"]
    assert await record.unrecorded_finished(after="t3") == []


async def test_record_rows_store_a_result_name_without_a_nul_character(writer: Writer) -> None:
    record = RecordRows(writer)
    await TableRows(writer).create_table(table("t1", status="finished"))
    nul = finish("t1", -100, 1.0)
    await record.add_results(Finish(nul.table_id, nul.game, nul.chat_id, nul.finished_at,
                                    (SeatResult(0, 1, "P\x001", 1, 10), *nul.seats[1:]), unrated))
    history = await record.history(1)
    assert history[0]["seats"][0]["name"] == "P1"
