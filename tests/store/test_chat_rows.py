"""Chats' rows (languages, the bot's records, rematch links), with the chat repository built alone over a writer."""

from __future__ import annotations

from engine.store.chat_rows import ChatRows
from engine.store.table_rows import TableRows
from engine.store.writer import Writer
from tests.store.conftest import table


async def test_chat_rows_set_a_groups_language_or_keep_the_one_it_has(writer: Writer) -> None:
    chats = ChatRows(writer)
    assert await chats.chat_language(-100) is None
    assert await chats.set_chat_language(-100, "es", by=None, keep=True) == "es"
    assert await chats.set_chat_language(-100, "ru", by=None, keep=True) == "es"
    assert await chats.set_chat_language(-100, "ru", by=7) == "ru"
    assert await chats.chat_language(-100) == "ru"


async def test_chat_rows_store_a_language_without_a_nul_character(writer: Writer) -> None:
    chats = ChatRows(writer)
    assert await chats.set_chat_language(-100, "e\x00s", by=7) == "es"
    assert await chats.chat_language(-100) == "es"


async def test_chat_rows_keep_replace_and_forget_the_bots_records(writer: Writer) -> None:
    chats = ChatRows(writer)
    await TableRows(writer).create_table(table("t1"))
    await chats.put_bot_message("t1", "lobby", chat_id=-100, thread_id=None, message_id=5, state="open")
    await chats.put_bot_message("t1", "lobby", chat_id=-100, thread_id=3, message_id=6, state="started",
                                data={"seq": 4})
    await chats.put_bot_message("t1", "summary", chat_id=-100, thread_id=None, message_id=None, state="due")
    records = {r["purpose"]: r for r in await chats.bot_messages("t1")}
    assert (records["lobby"]["message_id"], records["lobby"]["thread_id"], records["lobby"]["state"],
            records["lobby"]["data"]) == (6, 3, "started", {"seq": 4})
    assert records["summary"]["data"] == {}
    await chats.drop_bot_message("t1", "summary")
    assert [r["purpose"] for r in await chats.bot_messages_in_chat(-100)] == ["lobby"]
    assert await chats.bot_messages_in_chat(-200) == []


async def test_chat_rows_link_a_rematch_once_and_the_first_wins(writer: Writer) -> None:
    chats = ChatRows(writer)
    for table_id in ("t1", "t2", "t3"):
        await TableRows(writer).create_table(table(table_id))
    assert await chats.rematch_of("t1") is None
    assert await chats.link_rematch("t1", "t2") == "t2"
    assert await chats.link_rematch("t1", "t3") == "t2"
    assert await chats.rematch_of("t1") == "t2"
