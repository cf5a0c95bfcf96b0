"""The fake refuses what Telegram refuses, in Telegram's words: topics, migration, membership, blocking, button
answers, deletion limits, text limits, and the faults a test injects."""

from __future__ import annotations

import datetime as dtm
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, TimedOut
from telegram.request import HTTPXRequest

from tests.fakes.botapi import FakeBotApi
from tests.fakes.botapi.model import JSON

ANA, BEN = 42, 43
GROUP = -1001234567890
FORUM = -1009876543210
BASIC = -4001
HOUR = 3600.0


@pytest.fixture
async def bot(botapi: FakeBotApi) -> AsyncIterator[Bot]:
    botapi.user_starts_bot(ANA, "Ana")
    botapi.add_group(GROUP, "Card night")
    botapi.add_group(FORUM, "Card club", is_forum=True)
    botapi.add_group(BASIC, "Kitchen table", chat_type="group")
    botapi.flood.chat.limit = 0  # these tests are about refusals, not flood control
    botapi.flood.group.limit = 0
    async with Bot(botapi.token, base_url=botapi.base_url) as real_bot:
        yield real_bot


@pytest.fixture
async def impatient(bot: Bot, botapi: FakeBotApi) -> AsyncIterator[Bot]:
    """A second client of the same bot that gives up waiting for an answer after a quarter of a second."""
    async with Bot(botapi.token, base_url=botapi.base_url, request=HTTPXRequest(read_timeout=0.25)) as real_bot:
        yield real_bot


def refusal(botapi: FakeBotApi, method: str) -> tuple[int, JSON]:
    """HTTP status and body of the latest call of `method`."""
    call = botapi.calls_to(method)[-1]
    return call.status, call.response


def bad_request(description: str, **parameters: Any) -> tuple[int, JSON]:
    body: JSON = {"ok": False, "error_code": 400, "description": f"Bad Request: {description}"}
    if parameters:
        body["parameters"] = parameters
    return 400, body


def forbidden(description: str) -> tuple[int, JSON]:
    return 403, {"ok": False, "error_code": 403, "description": f"Forbidden: {description}"}


def keyboard(text: str = "Join", data: str = "join") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(text, callback_data=data)]])


# 1. forum topics


async def test_messages_sent_into_a_topic_carry_its_thread_id(botapi: FakeBotApi, bot: Bot) -> None:
    thread = botapi.create_forum_topic(FORUM, "Coins table")

    sent = await bot.send_message(FORUM, "Lobby", message_thread_id=thread)
    general = await bot.send_message(FORUM, "Hello all")

    assert (sent.message_thread_id, sent.is_topic_message, sent.chat.is_forum) == (thread, True, True)
    assert sent.reply_to_message is not None and sent.reply_to_message.message_id == thread
    assert sent.reply_to_message.forum_topic_created is not None
    assert sent.reply_to_message.forum_topic_created.name == "Coins table"
    assert (general.message_thread_id, general.is_topic_message, general.reply_to_message) == (None, None, None)
    assert botapi.last_message(FORUM).thread_id is None
    assert botapi.messages(FORUM)[0].thread_id == thread


async def test_send_message_into_a_closed_topic_fails_with_topic_closed(botapi: FakeBotApi, bot: Bot) -> None:
    thread = botapi.create_forum_topic(FORUM, "Coins table")
    botapi.close_forum_topic(FORUM, thread)

    with pytest.raises(BadRequest):
        await bot.send_message(FORUM, "Your turn", message_thread_id=thread)

    assert refusal(botapi, "sendMessage") == bad_request("TOPIC_CLOSED")
    await bot.send_message(FORUM, "General is still open")
    botapi.reopen_forum_topic(FORUM, thread)
    await bot.send_message(FORUM, "Your turn", message_thread_id=thread)
    botapi.close_forum_topic(FORUM, thread)
    botapi.set_admin(FORUM, botapi.bot_user["id"])
    await bot.send_message(FORUM, "Admins may still write", message_thread_id=thread)
    assert [c.status for c in botapi.calls_to("sendMessage")] == [400, 200, 200, 200]


async def test_send_message_to_general_fails_when_general_is_closed(botapi: FakeBotApi, bot: Bot) -> None:
    thread = botapi.create_forum_topic(FORUM, "Coins table")
    botapi.close_general_forum_topic(FORUM)

    with pytest.raises(BadRequest):
        await bot.send_message(FORUM, "Hello all")

    assert refusal(botapi, "sendMessage") == bad_request("TOPIC_CLOSED")
    await bot.send_message(FORUM, "Topics stay open", message_thread_id=thread)
    botapi.reopen_general_forum_topic(FORUM)
    await bot.send_message(FORUM, "Hello all")


@pytest.mark.parametrize(("chat", "thread"), [(FORUM, 999), (FORUM, 1), (GROUP, 1), (ANA, 5)])
async def test_send_message_to_an_unknown_thread_fails(botapi: FakeBotApi, bot: Bot, chat: int, thread: int) -> None:
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_message(chat, "Lobby", message_thread_id=thread)

    assert refusal(botapi, "sendMessage") == bad_request("message thread not found")


async def test_user_message_in_a_topic_carries_thread_id_and_the_reply_stays_there(
    botapi: FakeBotApi, bot: Bot
) -> None:
    thread = botapi.create_forum_topic(FORUM, "Coins table")

    update = botapi.message(FORUM, BEN, "/new coins", message_thread_id=thread)
    message = Update.de_json(update, bot).effective_message
    assert message is not None
    reply = await message.reply_text("Lobby opened", do_quote=True)

    assert (update["message"]["message_thread_id"], update["message"]["is_topic_message"]) == (thread, True)
    assert update["message"]["reply_to_message"]["message_id"] == thread
    assert (reply.message_thread_id, reply.is_topic_message) == (thread, True)
    assert reply.reply_to_message is not None and reply.reply_to_message.message_id == message.message_id
    assert "message_thread_id" not in botapi.message(FORUM, BEN, "in General")["message"]


async def test_users_cannot_write_in_a_closed_topic_and_topic_service_messages_stay(
    botapi: FakeBotApi, bot: Bot
) -> None:
    thread = botapi.create_forum_topic(FORUM, "Coins table")
    botapi.set_admin(FORUM, botapi.bot_user["id"])
    botapi.close_forum_topic(FORUM, thread)

    with pytest.raises(ValueError, match="TOPIC_CLOSED"):
        botapi.message(FORUM, BEN, "hello?", message_thread_id=thread)
    with pytest.raises(BadRequest):
        await bot.delete_message(FORUM, thread)

    assert refusal(botapi, "deleteMessage") == bad_request("message can't be deleted")
    assert botapi.messages(FORUM, include_users=True)[-1].service == {"forum_topic_closed": {}}


# 2. group -> supergroup migration


async def test_migrated_group_refuses_writes_with_the_new_chat_id(botapi: FakeBotApi, bot: Bot) -> None:
    lobby = await bot.send_message(BASIC, "Lobby")
    new_id = -1004001

    updates = botapi.migrate_group(BASIC, new_id, by=BEN)

    with pytest.raises(ChatMigrated) as caught:
        await bot.send_message(BASIC, "Your turn")
    assert caught.value.new_chat_id == new_id
    assert refusal(botapi, "sendMessage") == bad_request(
        "group chat was upgraded to a supergroup chat", migrate_to_chat_id=new_id
    )
    with pytest.raises(ChatMigrated):
        await bot.edit_message_text("Lobby closed", chat_id=BASIC, message_id=lobby.message_id)
    assert (await bot.get_chat(BASIC)).type == "group"  # reads still work
    sent = await bot.send_message(new_id, "Your turn")
    assert (sent.chat.type, sent.chat.title, sent.message_id) == ("supergroup", "Kitchen table", 2)
    assert [next(k for k in u if k != "update_id") for u in updates] == ["message", "message", "my_chat_member"]


async def test_migration_sends_the_bot_both_service_messages(botapi: FakeBotApi, bot: Bot) -> None:
    for update in botapi.migrate_group(BASIC, by=BEN):
        await botapi.send_update(update)

    moved_to, moved_from, member = await bot.get_updates()

    new_id = -1004001
    assert moved_to.message is not None and moved_from.message is not None
    assert (moved_to.message.chat.id, moved_to.message.migrate_to_chat_id) == (BASIC, new_id)
    assert moved_to.message.from_user is not None and moved_to.message.from_user.id == BEN
    assert (moved_from.message.chat.id, moved_from.message.migrate_from_chat_id) == (new_id, BASIC)
    assert moved_from.message.sender_chat is not None and moved_from.message.sender_chat.id == new_id
    assert member.my_chat_member is not None and member.my_chat_member.chat.id == new_id
    assert (member.my_chat_member.old_chat_member.status, member.my_chat_member.new_chat_member.status) == (
        "left", "member"
    )
    with pytest.raises(ValueError, match="basic group"):
        botapi.migrate_group(GROUP)


# 3. the bot's own membership


async def test_kicked_from_a_supergroup_refuses_reads_and_writes(botapi: FakeBotApi, bot: Bot) -> None:
    update = botapi.kick_bot(GROUP, by=BEN)["my_chat_member"]

    with pytest.raises(Forbidden):
        await bot.send_message(GROUP, "Lobby")
    assert refusal(botapi, "sendMessage") == forbidden("bot was kicked from the supergroup chat")
    with pytest.raises(Forbidden):
        await bot.get_chat(GROUP)
    assert refusal(botapi, "getChat") == forbidden("bot was kicked from the supergroup chat")

    assert (update["chat"]["id"], update["from"]["id"]) == (GROUP, BEN)
    assert update["old_chat_member"]["status"] == "member"
    assert update["new_chat_member"] == {"status": "kicked", "user": botapi.bot_user, "until_date": 0}
    added = botapi.bot_added(GROUP, BEN)["my_chat_member"]
    assert (added["old_chat_member"]["status"], added["new_chat_member"]["status"]) == ("kicked", "member")
    await bot.send_message(GROUP, "Back again")


async def test_kicked_from_a_basic_group_refuses_writes(botapi: FakeBotApi, bot: Bot) -> None:
    botapi.set_admin(BASIC, botapi.bot_user["id"])
    update = botapi.kick_bot(BASIC)["my_chat_member"]

    with pytest.raises(Forbidden):
        await bot.send_message(BASIC, "Lobby")

    assert refusal(botapi, "sendMessage") == forbidden("bot was kicked from the group chat")
    assert update["old_chat_member"]["status"] == "administrator"
    assert update["new_chat_member"]["status"] == "kicked"
    assert update["from"]["id"] == botapi.world.owners[BASIC]  # the group's creator, when the test names nobody


async def test_leave_chat_sends_my_chat_member_and_closes_the_chat(botapi: FakeBotApi, bot: Bot) -> None:
    assert await bot.leave_chat(GROUP) is True

    [update] = await bot.get_updates()
    with pytest.raises(Forbidden):
        await bot.send_message(GROUP, "Lobby")

    assert refusal(botapi, "sendMessage") == forbidden("bot is not a member of the supergroup chat")
    assert update.my_chat_member is not None and update.my_chat_member.from_user.id == botapi.bot_user["id"]
    assert update.my_chat_member.new_chat_member.status == "left"
    botapi.bot_leaves(BASIC)
    with pytest.raises(Forbidden):
        await bot.send_message(BASIC, "Lobby")
    assert refusal(botapi, "sendMessage") == forbidden("bot is not a member of the group chat")
    with pytest.raises(BadRequest):
        await bot.leave_chat(ANA)
    assert refusal(botapi, "leaveChat") == bad_request("chat member status can't be changed in private chats")


# 4. users who blocked the bot, or never started it


async def test_blocked_user_refuses_send_edit_and_delete(botapi: FakeBotApi, bot: Bot) -> None:
    sent = await bot.send_message(ANA, "Your turn", reply_markup=keyboard())

    update = botapi.user_blocks_bot(ANA)["my_chat_member"]

    calls = [
        bot.send_message(ANA, "Your turn"),
        bot.edit_message_text("Played", chat_id=ANA, message_id=sent.message_id),
        bot.edit_message_reply_markup(chat_id=ANA, message_id=sent.message_id),
        bot.delete_message(ANA, sent.message_id),
    ]
    for call in calls:
        with pytest.raises(Forbidden):
            await call
    for method in ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage"):
        assert refusal(botapi, method) == forbidden("bot was blocked by the user")
    assert (update["chat"]["type"], update["from"]["id"]) == ("private", ANA)
    assert (update["old_chat_member"]["status"], update["new_chat_member"]["status"]) == ("member", "kicked")

    unblocked = botapi.user_unblocks_bot(ANA)["my_chat_member"]
    assert (unblocked["old_chat_member"]["status"], unblocked["new_chat_member"]["status"]) == ("kicked", "member")
    await bot.edit_message_text("Played", chat_id=ANA, message_id=sent.message_id)
    assert await bot.delete_message(ANA, sent.message_id) is True


async def test_user_who_never_started_the_bot_cannot_be_written_to(botapi: FakeBotApi, bot: Bot) -> None:
    botapi.add_user(BEN, "Ben")

    with pytest.raises(Forbidden):
        await bot.send_message(BEN, "Your turn")

    assert refusal(botapi, "sendMessage") == forbidden("bot can't initiate conversation with a user")


# 5. answerCallbackQuery


async def test_answer_callback_query_limits_text_to_200_characters(botapi: FakeBotApi, bot: Bot) -> None:
    await bot.send_message(GROUP, "Lobby", reply_markup=keyboard())
    update = botapi.press(BEN, botapi.last_message(GROUP), "Join")
    query_id = update["callback_query"]["id"]

    with pytest.raises(BadRequest):
        await bot.answer_callback_query(query_id, "x" * 201)
    assert refusal(botapi, "answerCallbackQuery") == bad_request("MESSAGE_TOO_LONG")
    assert botapi.answer_to(update) is None

    assert await bot.answer_callback_query(query_id, "é" * 200, show_alert=True) is True  # a refusal answers nothing
    answer = botapi.answer_to(update)
    assert answer is not None and answer["text"] == "é" * 200


@pytest.mark.parametrize("url", [
    "https://example.com/table",
    "https://t.me/someone_elses_bot?start=t_abc",
    "https://t.me/cardroom_test_bot",
    "t.me/cardroom_test_bot?start=t_abc",
    "https://t.me/cardroom_test_bot?start=bad.payload",
    "tg://resolve?domain=cardroom_test_bot&start=t_abc",
])  # fmt: skip
async def test_answer_callback_query_url_must_start_this_bot(botapi: FakeBotApi, bot: Bot, url: str) -> None:
    await bot.send_message(GROUP, "Lobby", reply_markup=keyboard())
    query_id = botapi.press(BEN, botapi.last_message(GROUP), "Join")["callback_query"]["id"]

    with pytest.raises(BadRequest):
        await bot.answer_callback_query(query_id, url=url)

    assert refusal(botapi, "answerCallbackQuery") == bad_request("URL_INVALID")
    assert await bot.answer_callback_query(query_id, url="https://t.me/Cardroom_Test_Bot?start=t_Ab-9_x") is True


async def test_answer_callback_query_answers_once_and_knows_its_queries(botapi: FakeBotApi, bot: Bot) -> None:
    await bot.send_message(GROUP, "Lobby", reply_markup=keyboard())
    query_id = botapi.press(BEN, botapi.last_message(GROUP), "Join")["callback_query"]["id"]
    too_old = bad_request("query is too old and response timeout expired or query ID is invalid")

    await bot.answer_callback_query(query_id)
    with pytest.raises(BadRequest):
        await bot.answer_callback_query(query_id, "again")
    assert refusal(botapi, "answerCallbackQuery") == too_old
    with pytest.raises(BadRequest):
        await bot.answer_callback_query("4242")
    assert refusal(botapi, "answerCallbackQuery") == too_old


# 6. deletion window, deleted messages, edits that change nothing


async def test_delete_message_refuses_messages_older_than_48_hours(botapi: FakeBotApi, bot: Bot) -> None:
    first = await bot.send_message(GROUP, "Lobby")
    second = await bot.send_message(GROUP, "Scores")
    botapi.advance(48 * HOUR - 60)
    assert await bot.delete_message(GROUP, first.message_id) is True  # a minute short of 48 hours
    botapi.advance(60)

    with pytest.raises(BadRequest):
        await bot.delete_message(GROUP, second.message_id)

    assert refusal(botapi, "deleteMessage") == bad_request("message can't be deleted")
    later = await bot.send_message(GROUP, "New lobby")
    assert later.date - second.date == dtm.timedelta(hours=48)
    assert await bot.delete_message(GROUP, later.message_id) is True


async def test_delete_message_twice_fails_with_not_found(botapi: FakeBotApi, bot: Bot) -> None:
    sent = await bot.send_message(GROUP, "Lobby")
    await bot.delete_message(GROUP, sent.message_id)

    with pytest.raises(BadRequest):
        await bot.delete_message(GROUP, sent.message_id)

    assert refusal(botapi, "deleteMessage") == bad_request("message to delete not found")


async def test_edit_message_text_with_same_text_and_markup_is_not_modified(botapi: FakeBotApi, bot: Bot) -> None:
    sent = await bot.send_message(GROUP, "<b>Lobby</b>", parse_mode="HTML", reply_markup=keyboard())

    with pytest.raises(BadRequest):
        await bot.edit_message_text("<b>Lobby</b>", chat_id=GROUP, message_id=sent.message_id, parse_mode="HTML",
                                    reply_markup=keyboard())

    assert refusal(botapi, "editMessageText") == bad_request(
        "message is not modified: specified new message content and reply markup are exactly the same as a "
        "current content and reply markup of the message"
    )
    await bot.edit_message_text("<b>Lobby</b>", chat_id=GROUP, message_id=sent.message_id, parse_mode="HTML",
                                reply_markup=keyboard("Join", "join:2"))


# 7. text limits


async def test_send_message_refuses_text_over_4096_characters(botapi: FakeBotApi, bot: Bot) -> None:
    await bot.send_message(GROUP, "🂡" * 2048)  # 4096 UTF-16 code units

    with pytest.raises(BadRequest):
        await bot.send_message(GROUP, "🂡" * 2048 + "x")

    assert refusal(botapi, "sendMessage") == bad_request("message is too long")


@pytest.mark.parametrize(("text", "parse_mode"), [("", None), ("  \n ", None), ("<b> </b>", "HTML")])
async def test_send_message_refuses_empty_text(botapi: FakeBotApi, bot: Bot, text: str, parse_mode: str | None
                                               ) -> None:
    with pytest.raises(BadRequest):
        await bot.send_message(GROUP, text, parse_mode=parse_mode)

    assert refusal(botapi, "sendMessage") == bad_request("message text is empty")


# 8. injected faults


async def test_server_error_answers_bad_gateway_and_changes_nothing(botapi: FakeBotApi, bot: Bot) -> None:
    fault = botapi.inject_fault("sendMessage", "server_error", times=2)

    for _ in range(2):
        with pytest.raises(NetworkError, match="Bad Gateway"):
            await bot.send_message(GROUP, "Lobby")
    await bot.send_message(GROUP, "Lobby")

    assert [(c.status, c.response, c.fault) for c in botapi.calls_to("sendMessage")][1:] == [
        (502, {"ok": False, "error_code": 502, "description": "Bad Gateway"}, "server_error"),
        (200, botapi.calls_to("sendMessage")[2].response, None),
    ]
    assert [m.text for m in botapi.messages(GROUP)] == ["Lobby"]
    assert fault.hits == 2 and botapi.faults.waiting == []


async def test_server_error_500_answers_internal_server_error(botapi: FakeBotApi) -> None:
    botapi.inject_fault("getMe", "server_error", status=500)

    async with aiohttp.ClientSession() as session:
        async with session.post(f"{botapi.base_url}{botapi.token}/getMe") as response:
            assert response.status == 500
            assert await response.json() == {"ok": False, "error_code": 500, "description": "Internal Server Error"}
        async with session.post(f"{botapi.base_url}{botapi.token}/getMe") as response:
            assert response.status == 200


async def test_timeout_after_effect_sends_the_message_but_the_client_times_out(
    botapi: FakeBotApi, bot: Bot, impatient: Bot
) -> None:
    botapi.inject_fault("sendMessage", "timeout_after_effect")

    with pytest.raises(TimedOut):
        await impatient.send_message(GROUP, "Lobby")

    assert [m.text for m in botapi.messages(GROUP)] == ["Lobby"]  # it happened all the same
    [call] = await botapi.wait_for_calls("sendMessage")
    assert (call.status, call.fault) == (200, "timeout_after_effect")
    assert (await bot.send_message(GROUP, "Lobby again")).message_id == 2


async def test_timeout_before_effect_times_out_without_sending(botapi: FakeBotApi, bot: Bot, impatient: Bot) -> None:
    botapi.inject_fault("sendMessage", "timeout_before_effect")

    with pytest.raises(TimedOut):
        await impatient.send_message(GROUP, "Lobby")

    assert botapi.messages(GROUP) == []
    assert [(c.status, c.params["text"], c.fault) for c in botapi.calls_to("sendMessage")] == [
        (0, "Lobby", "timeout_before_effect")
    ]
    assert (await bot.send_message(GROUP, "Lobby")).message_id == 1


async def test_drop_after_effect_closes_the_connection_after_sending(botapi: FakeBotApi, bot: Bot) -> None:
    botapi.inject_fault("editMessageText", "drop_after_effect")
    sent = await bot.send_message(GROUP, "Lobby")

    with pytest.raises(NetworkError) as caught:
        await bot.edit_message_text("Lobby closed", chat_id=GROUP, message_id=sent.message_id)

    assert not isinstance(caught.value, TimedOut)
    assert botapi.last_message(GROUP).text == "Lobby closed"


async def test_fault_delay_shorter_than_the_client_timeout_only_slows_the_answer(botapi: FakeBotApi, bot: Bot
                                                                                 ) -> None:
    botapi.inject_fault("sendMessage", "timeout_after_effect", delay=0.05, times=None)

    first = await bot.send_message(GROUP, "Lobby")
    second = await bot.send_message(GROUP, "Scores")
    botapi.clear_faults()

    assert (first.message_id, second.message_id) == (1, 2)
    assert [c.fault for c in botapi.calls_to("sendMessage")] == ["timeout_after_effect"] * 2


def test_inject_fault_refuses_unknown_kinds(botapi: FakeBotApi) -> None:
    unknown: Any = "slow"  # deliberately outside FaultKind, as an untyped caller might pass it
    with pytest.raises(ValueError, match="unknown fault kind"):
        botapi.inject_fault("sendMessage", unknown)
    with pytest.raises(ValueError, match="5xx"):
        botapi.inject_fault("sendMessage", status=404)
