"""A table that lives in an inline message, built alone: its home in TableHomes, and Postings that only ever edit
it by inline_message_id (a "send" is an edit, a delete forgets it)."""

from __future__ import annotations

import pytest
from telegram.error import BadRequest, NetworkError, RetryAfter

from engine.core.errors import Refusal, RefusalCode
from engine.service.live import TableInfo
from tests.bot.notifier_fakes import ANN, BOB, GROUP, Parts, table
from tgbot.homes import TableHomes
from tgbot.records import HOME, INLINE_CHAT, SENDING, SENT, SUMMARY, TABLE, UNCERTAIN, Record, inline_home

INLINE = "AgAAAAEAAAA"


@pytest.fixture
def parts() -> Parts:
    return Parts()


async def no_table(table_id: str) -> TableInfo:
    raise Refusal(RefusalCode.TABLE_NOT_FOUND)


def lobby(table_id: str = "t1", *, rematch_of: str | None = None, host: int = ANN) -> TableInfo:
    """A lobby of no chat (opened from an invitation, or in the Mini App)."""
    return table(status="lobby", turn_began=(None, None), chat_id=None, table_id=table_id, rematch_of=rematch_of,
                 host=host)


# postings -------------------------------------------------------------------------------------------------


async def test_postings_send_into_an_inline_message_edits_it_by_its_id(parts: Parts) -> None:
    home = inline_home(INLINE, locale="ru")

    sent = await parts.postings.send("t1", home.posting(TABLE), "Lobby", None)

    assert parts.bot.calls == [("edit_inline", INLINE, "Lobby")]
    assert parts.bot.kept_at_send == []  # nothing was sent
    assert sent is not None and (sent.state, sent.chat_id, sent.message_id, sent.inline_id) == (
        SENT, INLINE_CHAT, None, INLINE)
    assert parts.chats.kept[("t1", TABLE)]["data"] == {"inline": INLINE}


async def test_postings_edit_an_inline_message_only_when_it_changes(parts: Parts) -> None:
    sent = await parts.postings.send("t1", inline_home(INLINE, locale=None).posting(TABLE), "Lobby", None)
    assert sent is not None

    assert await parts.postings.edit(sent, "Lobby", None)
    assert await parts.postings.edit(sent, "Status", None)
    summary = await parts.postings.send("t1", inline_home(INLINE, locale=None).posting(SUMMARY), "Over", None)

    assert summary is not None
    assert parts.bot.calls == [("edit_inline", INLINE, t) for t in ("Lobby", "Status", "Over")]


async def test_postings_never_delete_an_inline_message(parts: Parts) -> None:
    record = Record(TABLE, INLINE_CHAT, None, None, SENT, {"inline": INLINE})

    assert await parts.postings.delete(record, "over")

    assert parts.bot.calls == []


async def test_postings_an_inline_message_telegram_will_not_edit_is_forgotten(parts: Parts) -> None:
    parts.bot.fail["edit"] = BadRequest("MESSAGE_ID_INVALID")

    assert await parts.postings.send("t1", inline_home(INLINE, locale=None).posting(TABLE), "Lobby", None) is None

    assert parts.chats.kept == {} and parts.refused == []


async def test_postings_an_inline_edit_under_flood_control_is_tried_again_later(parts: Parts) -> None:
    parts.bot.fail["edit"] = RetryAfter(3)

    with pytest.raises(RetryAfter):
        await parts.postings.send("t1", inline_home(INLINE, locale=None).posting(TABLE), "Lobby", None)

    assert parts.chats.kept == {}


async def test_postings_settle_an_inline_record_whose_answer_was_lost(parts: Parts) -> None:
    uncertain = Record(TABLE, INLINE_CHAT, None, None, UNCERTAIN, {"inline": INLINE})
    await parts.records.put("t1", uncertain)

    settled = await parts.postings.settle("t1", uncertain)

    assert settled is not None and settled.state == SENT and parts.bot.calls == []  # no probing in any chat
    assert await parts.postings.edit(settled, "Lobby", None)
    assert parts.bot.calls == [("edit_inline", INLINE, "Lobby")]


async def test_postings_a_lost_inline_answer_reaches_the_pass(parts: Parts) -> None:
    parts.bot.fail["edit"] = NetworkError("lost")

    with pytest.raises(NetworkError):
        await parts.postings.send("t1", inline_home(INLINE, locale=None).posting(TABLE), "Lobby", None)

    assert parts.chats.kept[("t1", TABLE)]["state"] == SENDING


# homes -----------------------------------------------------------------------------------------------------


async def test_homes_a_table_of_no_chat_lives_in_its_inline_message_once_told(parts: Parts) -> None:
    homes = TableHomes(parts.records, no_table)
    assert await homes.home_of(lobby()) is None

    assert await homes.live_inline("t1", INLINE, locale="lv") == "t1"

    home = await homes.home_of(lobby())
    assert home == Record(HOME, INLINE_CHAT, None, None, SENT, {"inline": INLINE, "locale": "lv"})
    assert await homes.home_of(lobby()) == home and parts.chats.kept[("t1", HOME)]["data"]["inline"] == INLINE
    assert await homes.inline_table(INLINE) == "t1" and await homes.inline_table("other") is None
    assert await homes.home_of(lobby("t2")) is None, "another table of no chat has no home"


async def test_homes_the_first_table_opened_in_an_inline_message_keeps_it(parts: Parts) -> None:
    here, there = TableHomes(parts.records, no_table), TableHomes(parts.records, no_table)  # two processes
    assert await there.live_inline("t1", INLINE, locale=None) == "t1"

    assert await here.inline_table(INLINE) == "t1", "known to a process that did not open it"
    assert await here.live_inline("t2", INLINE, locale=None) == "t1"
    assert await here.home_of(lobby("t2")) is None and ("t2", HOME) not in parts.chats.kept


async def test_homes_a_rematch_of_an_inline_table_lives_in_the_same_message(parts: Parts) -> None:
    finished = table(status="finished", turn_began=(None, None), chat_id=None, table_id="old", host=ANN)

    async def info(table_id: str) -> TableInfo:
        return finished

    homes = TableHomes(parts.records, info)
    await parts.records.put("old", inline_home(INLINE, locale="ko"))

    home = await homes.home_of(lobby("new", rematch_of="old", host=BOB))

    assert home is not None and home.inline_id == INLINE and home.chat_id == INLINE_CHAT
    assert home.data == {"inline": INLINE, "locale": "ko", "invited": [[ANN, "Ann"]]}
    assert await homes.home_of(lobby("plain", rematch_of="gone")) is None


async def test_homes_a_group_table_never_takes_an_inline_home_by_chance(parts: Parts) -> None:
    homes = TableHomes(parts.records, no_table)
    await homes.live_inline("t9", INLINE, locale=None)

    home = await homes.home_of(table(status="lobby", turn_began=(None, None)))

    assert home == Record(HOME, GROUP)
