"""The notifier's other members built alone: turn messages from a TableInfo, table homes, the turn book."""

from __future__ import annotations

from typing import Any, cast

import pytest
from telegram import InlineKeyboardButton

from engine.core.errors import Refusal, RefusalCode
from engine.service.live import SeatInfo, Snapshot, TableInfo
from engine.service.people import Person
from tests.bot.notifier_fakes import ANN, BOB, GROUP, SUPERGROUP, Parts, table
from tests.fakes.botapi.model import shown
from tgbot.homes import TableHomes
from tgbot.priority import Lane
from tgbot.records import HOME, SENT, SUMMARY, TABLE, Record, turn_purpose
from tgbot.turn_book import TurnBook
from tgbot.turn_messages import TurnMessages


@pytest.fixture
def parts() -> Parts:
    return Parts()


class FakeSnapshot:
    """What a turn message reads of a snapshot: a seat's view."""

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"state": {"scores": [3, 4]}}


class People:
    """People by id, counting reads."""

    def __init__(self, *people: Person) -> None:
        self.known = {p.user_id: p for p in people}
        self.reads: list[int] = []

    async def person(self, user_id: int) -> Person | None:
        self.reads.append(user_id)
        return self.known.get(user_id)


def person(user_id: int, *, can_message: bool = True, notify: bool = True, language: str | None = None) -> Person:
    return Person(user_id, f"user {user_id}", notify, can_message, language, None)


class Turns:
    """Turn messages over the postings of ``Parts``."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self.book = TurnBook()
        self.now = 0.0  # the table's clock
        self.messages = TurnMessages(parts.postings, parts.records, self.book, self._button, now=lambda: self.now)

    @staticmethod
    def _button(label: str, table_id: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(label, url=f"https://t.me/cardroom_bot/play?startapp={table_id}")

    async def sync(self, info: TableInfo, people: People) -> None:
        self.book.note(info)
        await self.messages.sync(info, cast(Snapshot, FakeSnapshot()), Record(HOME, GROUP), people.person)

    def calls(self) -> list[tuple[Any, ...]]:
        return [c[:3] for c in self.parts.bot.calls]


async def test_turn_messages_send_one_when_a_turn_begins_and_delete_it_when_it_ends(parts: Parts) -> None:
    turns, people = Turns(parts), People(person(ANN), person(BOB))
    await turns.sync(table(), people)
    [(kind, chat, text, _thread)] = parts.bot.calls
    assert (kind, chat) == ("send", ANN) and "Your turn in Coins" in text and "Ann 3 · Bob 4" in shown(text)
    assert (await parts.records.get("t1", turn_purpose(ANN))) is not None
    assert (await parts.records.get("t1", turn_purpose(ANN))).data["turn"] == 5  # type: ignore[union-attr]
    await turns.sync(table(), people)
    assert len(parts.bot.calls) == 1, "the same turn: nothing more"
    await turns.sync(table(seq=6, turn_began=(None, 6)), people)
    assert turns.calls()[1:] == [("delete", ANN, parts.bot.next_id - 1), ("send", BOB, parts.bot.calls[2][2])]
    assert await parts.records.get("t1", turn_purpose(ANN)) is None


async def test_turn_messages_replace_the_message_when_the_same_seat_begins_a_new_turn(parts: Parts) -> None:
    turns, people = Turns(parts), People(person(ANN), person(BOB))
    await turns.sync(table(), people)
    first = parts.bot.next_id
    await turns.sync(table(seq=6, turn_began=(6, None)), people)  # she won the trick and leads again
    assert turns.calls()[1:] == [("delete", ANN, first), ("send", ANN, parts.bot.calls[2][2])]
    assert (await parts.records.get("t1", turn_purpose(ANN))).data["turn"] == 6  # type: ignore[union-attr]


async def test_turn_messages_none_for_people_the_bot_may_not_write_or_who_turned_them_off(parts: Parts) -> None:
    turns = Turns(parts)
    await turns.sync(table(turn_began=(5, 5)), People(person(ANN, can_message=False), person(BOB, notify=False)))
    assert parts.bot.calls == []
    await turns.sync(table(turn_began=(5, 5)), People())  # never seen: nobody to write to
    assert parts.bot.calls == []


async def test_turn_messages_read_each_person_once_a_pass(parts: Parts) -> None:
    people = People(person(ANN), person(BOB))
    await Turns(parts).sync(table(turn_began=(5, 5)), people)
    assert sorted(people.reads) == [ANN, BOB]


async def test_turn_messages_are_written_in_the_persons_language(parts: Parts) -> None:
    await Turns(parts).sync(table(), People(person(ANN, language="ru"), person(BOB)))
    [(_kind, _chat, text, _thread)] = parts.bot.calls
    assert text.startswith("⏰ Твой ход в игре Монеты.")  # ru: "Your turn in Coins", the game named in Russian too


async def test_turn_messages_adopt_the_message_of_a_turn_first_seen_after_a_restart(parts: Parts) -> None:
    await parts.records.put("t1", Record(turn_purpose(ANN), ANN, None, 77, SENT, {"turn": 3, "reminder": False}))
    turns, people = Turns(parts), People(person(ANN), person(BOB))
    await turns.sync(table(seq=9, turn_began=(9, None)), people)  # the table was loaded at seq 9, mid-turn
    assert parts.bot.calls == [], "the message sent before the restart is this turn's"
    assert turns.book.turn_of(table(seq=9, turn_began=(9, None)), 0) == 3
    await turns.sync(table(seq=10, turn_began=(9, None)), people)
    assert parts.bot.calls == []
    await turns.sync(table(seq=11, turn_began=(11, None)), people)  # her next turn
    assert turns.calls()[0] == ("delete", ANN, 77) and turns.calls()[1][:2] == ("send", ANN)


async def test_turn_messages_replace_a_stored_message_of_another_turn_seen_later(parts: Parts) -> None:
    turns, people = Turns(parts), People(person(ANN), person(BOB))
    turns.book.note(table(seq=4, turn_began=(None, 4)))  # followed since before her turn: no restart
    await parts.records.put("t1", Record(turn_purpose(ANN), ANN, None, 77, SENT, {"turn": 3, "reminder": False}))
    await turns.sync(table(), people)
    assert turns.calls()[0] == ("delete", ANN, 77) and turns.calls()[1][:2] == ("send", ANN)


async def test_turn_messages_remind_with_a_fresh_message_in_place_of_the_turns_message(parts: Parts) -> None:
    turns, people = Turns(parts), People(person(ANN), person(BOB))
    turns.now = 1000.0 - 60 * 0.25  # a live turn (a minute) with a quarter of it left: not yet
    await turns.sync(table(deadline=1000.0), people)
    first = parts.bot.next_id
    turns.now = 1000.0 - 60 * 0.2  # four fifths of it passed
    await turns.sync(table(deadline=1000.0), people)
    [_send, delete, (kind, chat, text, _thread)] = parts.bot.calls  # an edit would not make the phone buzz
    assert delete == ("delete", ANN, first)
    assert (kind, chat) == ("send", ANN) and "Time is nearly up" in text
    record = await parts.records.get("t1", turn_purpose(ANN))
    assert record is not None and record.message_id == parts.bot.next_id and record.data["reminder"] is True
    await turns.sync(table(deadline=1000.0), people)
    assert len(parts.bot.calls) == 3, "reminded once"


async def test_turn_messages_removed_when_a_stand_in_or_the_autopilot_plays_the_turn(parts: Parts) -> None:
    turns, people = Turns(parts), People(person(ANN), person(BOB))
    await turns.sync(table(), people)
    turns.book.stood_in("t1", 0)
    await turns.sync(table(), people)
    assert turns.calls()[1] == ("delete", ANN, parts.bot.next_id)
    await turns.sync(table(seq=7, turn_began=(7, None), ann_autopilot=True), people)
    assert len(parts.bot.calls) == 2, "on autopilot: no message for her new turn"
    await turns.sync(table(seq=8, turn_began=(8, None)), people)  # back, and her turn: the stand-in is over
    assert turns.calls()[2][:2] == ("send", ANN)


async def test_turn_messages_hand_each_call_its_lane_and_order(parts: Parts) -> None:
    turns, people = Turns(parts), People(person(ANN), person(BOB))
    await turns.sync(table(), people)
    first = turns.book.began_at("t1", 0)
    await turns.sync(table(seq=6, turn_began=(6, None)), people)  # her new turn: the old message replaced
    second = turns.book.began_at("t1", 0)
    await turns.sync(table(seq=7, turn_began=(None, 7)), people)  # his turn: hers removed, nothing replaces it
    assert [c[0] for c in parts.bot.calls] == ["send", "delete", "send", "delete", "send"]
    given = [g for g in parts.bot.given if g is not None]
    assert [g.lane for g in given] == [Lane.TURN, Lane.TURN, Lane.TURN, Lane.CLEANUP, Lane.TURN]
    assert [g.order for g in given] == [first, second, second, 0.0, turns.book.began_at("t1", 1)]


# homes -------------------------------------------------------------------------------------------------------


async def no_table(table_id: str) -> TableInfo:
    raise Refusal(RefusalCode.TABLE_NOT_FOUND)


async def test_homes_expected_topic_and_language_are_the_tables_home(parts: Parts) -> None:
    homes = TableHomes(parts.records, no_table)
    homes.expect(GROUP, ANN, thread_id=9, locale="lv", title="Cards club")
    home = await homes.home_of(table(status="lobby", turn_began=(None, None)))
    assert home is not None and (home.chat_id, home.thread_id) == (GROUP, 9)
    assert home.data == {"locale": "lv", "title": "Cards club"}
    assert await homes.home("t1") == home
    other = await homes.home_of(table(status="lobby", turn_began=(None, None), table_id="t2"))
    assert other == Record(HOME, GROUP), "a hint is used once"


async def test_homes_unexpected_and_private_tables(parts: Parts) -> None:
    homes = TableHomes(parts.records, no_table)
    homes.expect(GROUP, ANN, thread_id=9, locale="lv")
    homes.unexpect(GROUP, ANN)
    home = await homes.home_of(table(status="lobby", turn_began=(None, None)))
    assert home == Record(HOME, GROUP)
    assert await homes.home_of(table(chat_id=None, table_id="t3")) is None, "an inline table has no chat"


async def test_homes_a_rematch_goes_where_its_table_went_and_invites_who_played(parts: Parts) -> None:
    finished = table(status="finished", turn_began=(None, None), table_id="old", host=BOB)

    async def info(table_id: str) -> TableInfo:
        assert table_id == "old"
        return finished

    homes = TableHomes(parts.records, info)
    await parts.records.put("old", Record(HOME, GROUP, 9, None, SENT, {"locale": "ko", "title": "Club"}))
    home = await homes.home_of(table(status="lobby", turn_began=(None, None), table_id="new", rematch_of="old"))
    assert home is not None and (home.chat_id, home.thread_id) == (GROUP, 9)
    assert home.data == {"locale": "ko", "title": "Club", "invited": [[BOB, "Bob"]]}


async def test_homes_a_rematch_of_a_table_gone_from_the_store_is_a_plain_home(parts: Parts) -> None:
    homes = TableHomes(parts.records, no_table)
    home = await homes.home_of(table(status="lobby", turn_began=(None, None), rematch_of="gone"))
    assert home == Record(HOME, GROUP)


async def test_homes_follow_a_group_upgraded_to_a_supergroup(parts: Parts) -> None:
    homes = TableHomes(parts.records, no_table)
    await parts.records.put("t1", Record(HOME, GROUP, 9, None, SENT, {"locale": "ru"}))
    await parts.records.put("t1", Record(TABLE, GROUP, 9, 40, SENT))
    await parts.records.put("t1", Record(SUMMARY, GROUP, 9, 41, SENT))
    home = await homes.home_of(table(chat_id=SUPERGROUP))
    assert home == Record(HOME, SUPERGROUP, None, None, SENT, {"locale": "ru"})
    assert set(await parts.records.of("t1")) == {HOME}, "the old group's messages are left behind"
    assert parts.chats.kept[("t1", HOME)]["chat_id"] == SUPERGROUP


async def test_homes_a_table_about_to_open_in_a_migrated_group_opens_in_the_supergroup(parts: Parts) -> None:
    homes = TableHomes(parts.records, no_table)
    homes.expect(GROUP, ANN, thread_id=9, locale="lv")
    homes.chat_migrated(GROUP, SUPERGROUP)
    home = await homes.home_of(table(status="lobby", turn_began=(None, None), chat_id=SUPERGROUP))
    assert home is not None and (home.chat_id, home.thread_id, home.data["locale"]) == (SUPERGROUP, None, "lv")


# the turn book ----------------------------------------------------------------------------------------------


def test_turn_book_first_sight_is_only_for_turns_seen_when_the_table_is_first_seen() -> None:
    book = TurnBook()
    book.note(table(seq=9, turn_began=(9, None)))
    assert book.first_sight("t1", 0) and not book.first_sight("t1", 0), "asked once"
    book.note(table(seq=10, turn_began=(None, 10)))
    assert not book.first_sight("t1", 1), "a turn that began while followed"


def test_turn_book_an_adopted_turn_lasts_until_the_table_says_a_new_one_began() -> None:
    book = TurnBook()
    book.note(table(seq=9, turn_began=(9, None)))
    book.adopt("t1", 0, 3)
    assert book.turn_of(table(seq=9, turn_began=(9, None)), 0) == 3
    book.note(table(seq=12, turn_began=(12, None)))
    assert book.turn_of(table(seq=12, turn_began=(12, None)), 0) == 12


def test_turn_book_no_turn_for_ai_seats_or_outside_play() -> None:
    book = TurnBook()
    info = table(turn_began=(5, 5))
    book.note(info)
    assert book.turn_of(info, 0) == 5 and book.turn_of(info, None) is None
    assert book.turn_of(table(status="lobby", turn_began=(5, 5)), 0) is None
    ai = TableInfo("t2", "coins", "Coins", {}, 2, "playing", ANN, GROUP,
                   (SeatInfo(0, "Ann", ANN, False, False), SeatInfo(1, "Ada (AI)", None, True, False)), 5, "h", None,
                   "live", None, (1,), None, "easy", turn_began=(None, 5))
    book.note(ai)
    assert book.turn_of(ai, 1) is None


def test_turn_book_forgets_a_finished_table() -> None:
    book = TurnBook()
    book.note(table(seq=9, turn_began=(9, None)))
    book.stood_in("t1", 0)
    book.forget("t1")
    assert not book.first_sight("t1", 0)
    book.note(table(seq=9, turn_began=(9, None)))
    assert book.turn_of(table(seq=9, turn_began=(9, None)), 0) == 9, "no stand-in left over"
