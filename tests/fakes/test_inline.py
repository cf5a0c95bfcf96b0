"""Inline mode and prepared messages on the fake Bot API, driven by the real python-telegram-bot over HTTP: queries
from any chat, answerInlineQuery's checks, results posted via the bot, inline_message_id edits and shares."""

from __future__ import annotations

import datetime as dtm
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
)
from telegram.error import BadRequest, RetryAfter
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    ContextTypes,
    InlineQueryHandler,
)

from tests.clock import ManualClock
from tests.fakes.botapi import FakeBotApi, ShareRefused
from tests.fakes.botapi.model import JSON

ANA, BEN, CAT = 42, 43, 44
GROUP = -1001234567890  # the bot is a member
BASIC = -4001  # a basic group the bot is a member of
ELSEWHERE = -1005550001  # a supergroup without the bot
CHANNEL = -1005550002
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"


def article(result_id: str = "invite", text: str = "<b>Coins</b> at 8", *, keyboard: bool = True,
            **extra: Any) -> JSON:
    """An InlineQueryResultArticle as the Bot API takes it."""
    result: JSON = {"type": "article", "id": result_id, "title": "Invite to Coins",
                    "input_message_content": {"message_text": text, "parse_mode": "HTML"}}
    if keyboard:
        result["reply_markup"] = {"inline_keyboard": [[{"text": "Join", "callback_data": "join:7"}]]}
    return {**result, **extra}


def join_keyboard(label: str = "Join") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data="join:7")]])


async def call(fake: FakeBotApi, method: str, **params: Any) -> tuple[int, JSON]:
    """POST a method with a JSON body (to send what python-telegram-bot's classes would not build)."""
    async with aiohttp.ClientSession() as session, \
            session.post(f"{fake.base_url}{fake.token}/{method}", json=params) as response:
        return response.status, await response.json()


async def refused(fake: FakeBotApi, method: str, **params: Any) -> str:
    """The description of a call Telegram refuses with 400."""
    status, body = await call(fake, method, **params)
    assert (status, body["ok"]) == (400, False), body
    return str(body["description"])


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi(inline=True, inline_feedback=True, clock=ManualClock(1000.0)) as started:
        started.user_starts_bot(ANA, "Ana")
        started.add_user(BEN, "Ben")
        started.add_group(GROUP, "Card night")
        started.add_group(BASIC, "Kitchen table", chat_type="group")
        yield started


@pytest.fixture
async def bot(fake: FakeBotApi) -> AsyncIterator[Bot]:
    async with Bot(fake.token, base_url=fake.base_url) as real_bot:
        yield real_bot


async def answered(fake: FakeBotApi, query: JSON, *results: JSON) -> None:
    """The bot answers `query` with raw results."""
    status, body = await call(fake, "answerInlineQuery", inline_query_id=query["inline_query"]["id"],
                              results=list(results))
    assert status == 200, body


# 1. inline mode per bot


async def test_get_me_reports_inline_mode_as_the_world_sets_it() -> None:
    async with FakeBotApi() as plain, Bot(plain.token, base_url=plain.base_url) as real_bot:
        plain.user_starts_bot(ANA)
        assert (await real_bot.get_me()).supports_inline_queries is False
        with pytest.raises(ValueError, match="inline mode is off"):
            plain.inline_query(ANA, "coins")
        plain.set_inline_mode(True)
        assert (await real_bot.get_me()).supports_inline_queries is True
        assert plain.inline_query(ANA, "coins")["inline_query"]["query"] == "coins"


# 2. inline queries from any chat


@pytest.mark.parametrize(("chat", "chat_type", "expected"), [
    (None, None, "sender"), (BEN, None, "private"), (GROUP, None, "supergroup"), (BASIC, None, "group"),
    (ELSEWHERE, "supergroup", "supergroup"), (-4002, "group", "group"), (CHANNEL, "channel", "channel"),
])  # fmt: skip
async def test_inline_query_reaches_the_bot_with_the_chat_type_it_was_typed_in(
    fake: FakeBotApi, bot: Bot, chat: int | None, chat_type: str | None, expected: str
) -> None:
    await fake.send_update(fake.inline_query(ANA, "coins 3", chat=chat, chat_type=chat_type, offset="10"))

    [update] = await bot.get_updates()

    query = update.inline_query
    assert query is not None and query.from_user.id == ANA
    assert (query.query, query.offset, query.chat_type) == ("coins 3", "10", expected)


async def test_inline_query_helper_refuses_what_a_client_would_not_send(fake: FakeBotApi) -> None:
    with pytest.raises(ValueError, match="say its chat_type"):
        fake.inline_query(ANA, "x", chat=ELSEWHERE)
    with pytest.raises(ValueError, match="never started the bot"):
        fake.inline_query(BEN, "x")  # Ben's chat with the bot shows Start, not a text field
    with pytest.raises(ValueError, match="at most 256"):
        fake.inline_query(ANA, "x" * 257)
    with pytest.raises(ValueError, match="is a supergroup, not a group"):
        fake.inline_query(ANA, "x", chat=GROUP, chat_type="group")


async def test_application_answers_inline_query_and_hears_the_chosen_result(fake: FakeBotApi) -> None:
    chosen_ids: list[tuple[str, str | None]] = []

    async def offer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.inline_query is not None
        content = InputTextMessageContent(f"Coins table: {update.inline_query.query}")
        result = InlineQueryResultArticle("t7", "Coins", content, reply_markup=join_keyboard())
        await update.inline_query.answer([result], cache_time=0, is_personal=True,
                                         button=InlineQueryResultsButton("Open", start_parameter="lobby_7"))

    async def remember(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.chosen_inline_result is not None
        chosen_ids.append((update.chosen_inline_result.result_id, update.chosen_inline_result.inline_message_id))

    application = ApplicationBuilder().token(fake.token).base_url(fake.base_url).build()
    application.add_handler(InlineQueryHandler(offer))
    application.add_handler(ChosenInlineResultHandler(remember))
    assert application.updater is not None
    query = fake.inline_query(ANA, "tonight", chat=BEN)
    async with application:
        await application.updater.start_polling(timeout=dtm.timedelta(seconds=1))
        await application.start()
        await fake.send_update(query)
        await fake.wait_for_calls("answerInlineQuery")
        chosen = fake.choose_inline_result(query, "t7")
        for update in chosen.updates:
            await fake.send_update(update)
        await fake.wait_until(lambda: bool(chosen_ids))
        await application.updater.stop()
        await application.stop()

    answer = fake.inline_answer(query)
    assert answer is not None
    assert [r["id"] for r in answer["results"]] == ["t7"]
    assert (answer["cache_time"], answer["is_personal"]) == (0, True)
    assert answer["button"] == {"text": "Open", "start_parameter": "lobby_7"}
    assert chosen_ids == [("t7", chosen.inline_message_id)]
    assert chosen.message.plain == "Coins table: tonight"


# 2b. answerInlineQuery refuses what Telegram refuses


async def test_answer_inline_query_answers_each_query_once_and_only_within_ten_seconds(
    fake: FakeBotApi, bot: Bot
) -> None:
    first, late = fake.inline_query(ANA, "a"), fake.inline_query(ANA, "b")
    first_id, late_id = first["inline_query"]["id"], late["inline_query"]["id"]

    assert await bot.answer_inline_query(first_id, []) is True
    with pytest.raises(BadRequest, match=r"(?i)query id is invalid"):
        await bot.answer_inline_query(first_id, [])
    fake.advance(10.5)
    assert await refused(fake, "answerInlineQuery", inline_query_id=late_id, results=[]) == QUERY_TOO_OLD
    assert await refused(fake, "answerInlineQuery", inline_query_id="999", results=[]) == QUERY_TOO_OLD
    assert fake.inline_answer(late) is None


@pytest.mark.parametrize(("results", "description"), [
    ([article(str(n)) for n in range(51)], "too many inline query results specified"),
    ([article("same"), article("same")], "RESULT_ID_DUPLICATE"),
    ([article("x" * 65)], "RESULT_ID_INVALID"),
    ([article("")], "RESULT_ID_EMPTY"),
    ([{**article(), "type": "poll"}], 'can\'t parse inline query result: type "poll" is unsupported for the inline '
                                      "query result"),
    ([{k: v for k, v in article().items() if k != "title"}], 'can\'t parse inline query result: Can\'t find field '
                                                             '"title"'),
    ([{k: v for k, v in article().items() if k != "id"}], 'can\'t parse inline query result: Can\'t find field "id"'),
    ([{**article(), "input_message_content": {"parse_mode": "HTML"}}], "can't parse inline query result: Input "
                                                                       "message content is not specified"),
    ([{k: v for k, v in article().items() if k != "input_message_content"}], "can't parse inline query result: "
                                                                             'Can\'t find field "message_text"'),
    ([article(text="<div>x</div>")], 'can\'t parse inline query result: Can\'t parse entities: Unsupported start '
                                     'tag "div" at byte offset 0'),
    ([{**article(), "input_message_content": {"message_text": "x", "parse_mode": "BBCode"}}],
     "can't parse inline query result: Unsupported parse_mode"),
    ([article(text="x" * 4097)], "MESSAGE_TOO_LONG"),
    ([article(text="<b> </b>")], "MESSAGE_EMPTY"),
    ([article(title="")], "ARTICLE_TITLE_EMPTY"),
    ([article(reply_markup={"inline_keyboard": [[{"text": "Open", "web_app": {"url": "https://cards.example"}}]]})],
     "BUTTON_TYPE_INVALID"),
    ([article(reply_markup={"inline_keyboard": [[{"text": "Join", "callback_data": "x" * 65}]]})],
     "BUTTON_DATA_INVALID"),
    ([{"type": "photo", "id": "p"}], 'can\'t parse inline query result: Can\'t find field "photo_file_id"'),
    ([{"type": "video", "id": "v", "title": "Clip", "video_url": "https://v.example/1.mp4"}],
     'can\'t parse inline query result: Can\'t find field "mime_type"'),
    (["article"], "can't parse inline query result: Inline query result must be an object"),
    ({"type": "article"}, "expected an Array of inline query results"),
])  # fmt: skip
async def test_answer_inline_query_refuses_results_telegram_refuses(
    fake: FakeBotApi, results: Any, description: str
) -> None:
    query = fake.inline_query(ANA, "coins")

    assert await refused(fake, "answerInlineQuery", inline_query_id=query["inline_query"]["id"],
                         results=results) == f"Bad Request: {description}"
    assert fake.inline_answer(query) is None


@pytest.mark.parametrize(("extra", "description"), [
    ({"button": {"text": "Open"}}, "can't parse inline query results button: InlineQueryResultsButton must have "
                                   "exactly one optional field"),
    ({"button": {"start_parameter": "go"}}, 'can\'t parse inline query results button: Can\'t find field "text"'),
    ({"button": {"text": "Open", "start_parameter": "no spaces"}}, "START_PARAM_INVALID"),
    ({"button": {"text": "Open", "web_app": {"url": "http://cards.example"}}}, "BUTTON_URL_INVALID"),
    ({"next_offset": "9" * 65}, "NEXT_OFFSET_INVALID"),
])  # fmt: skip
async def test_answer_inline_query_refuses_bad_buttons_and_offsets(
    fake: FakeBotApi, extra: JSON, description: str
) -> None:
    query = fake.inline_query(ANA, "coins")

    assert await refused(fake, "answerInlineQuery", inline_query_id=query["inline_query"]["id"],
                         results=[article()], **extra) == f"Bad Request: {description}"


async def test_answer_inline_query_accepts_fifty_results_media_and_a_web_app_button(fake: FakeBotApi) -> None:
    query = fake.inline_query(ANA, "coins")
    results = [article(str(n)) for n in range(48)] + [
        {"type": "Photo", "id": "p", "photo_url": "https://cards.example/p.jpg", "thumbnail_url": "https://t"},
        {"type": "location", "id": "l", "latitude": 56.9, "longitude": 24.1, "title": "The club"},
    ]

    status, body = await call(fake, "answerInlineQuery", inline_query_id=query["inline_query"]["id"],
                              results=results, cache_time=30, next_offset="50",
                              button={"text": "Open the table", "web_app": {"url": "https://cards.example/app"}})

    assert (status, body) == (200, {"ok": True, "result": True})
    answer = fake.inline_answer(query)
    assert answer is not None and len(answer["results"]) == 50 and answer["next_offset"] == "50"


# 3. choosing a result


async def test_chosen_result_is_posted_via_the_bot_where_the_bot_is_not(fake: FakeBotApi) -> None:
    query = fake.inline_query(ANA, "coins", chat=BEN)
    await answered(fake, query, article())

    chosen = fake.choose_inline_result(query, "invite")

    message = chosen.message
    assert (message.chat_id, message.chat["type"], message.from_user["id"]) == (BEN, "private", ANA)
    assert message.via_bot == {"id": 123456, "is_bot": True, "first_name": "Cardroom Test",
                               "username": "cardroom_test_bot"}
    assert (message.text, message.plain) == ("<b>Coins</b> at 8", "Coins at 8")
    assert message.button("Join")["callback_data"] == "join:7"
    assert fake.messages(BEN, include_users=True) == []  # not the bot's chat with Ben
    [feedback] = chosen.updates  # the bot is not in Ana's chat with Ben: only chosen_inline_result
    assert feedback["chosen_inline_result"] == {"result_id": "invite", "from": fake.world.users[ANA],
                                                "query": "coins", "inline_message_id": chosen.inline_message_id}
    assert fake.inline_message(chosen.inline_message_id or "") is message


async def test_chosen_result_in_a_group_with_the_bot_reaches_it_as_a_message_via_the_bot(
    fake: FakeBotApi, bot: Bot
) -> None:
    query = fake.inline_query(ANA, "coins", chat=GROUP)
    await answered(fake, query, article())
    chosen = fake.choose_inline_result(query, "invite")
    for update in chosen.updates:
        await fake.send_update(update)

    message_update, feedback = await bot.get_updates()

    message = message_update.message
    assert message is not None and message.via_bot is not None and message.from_user is not None
    assert (message.chat.id, message.from_user.id, message.via_bot.username) == (GROUP, ANA, "cardroom_test_bot")
    assert (message.text, message.reply_markup) == ("Coins at 8", join_keyboard())
    assert feedback.chosen_inline_result is not None
    assert feedback.chosen_inline_result.inline_message_id == chosen.inline_message_id
    assert fake.messages(GROUP, include_users=True) == [chosen.message]


async def test_chosen_result_without_a_keyboard_has_no_inline_message_id(fake: FakeBotApi) -> None:
    query = fake.inline_query(ANA, "coins")
    await answered(fake, query, article(keyboard=False))

    chosen = fake.choose_inline_result(query, "invite")

    assert chosen.inline_message_id is None and chosen.message.inline_message_id is None
    message_update, feedback = chosen.updates  # typed in Ana's own chat with the bot: the bot sees the message
    assert message_update["message"]["chat"]["id"] == ANA
    assert feedback["chosen_inline_result"] == {"result_id": "invite", "from": fake.world.users[ANA],
                                                "query": "coins"}


async def test_chosen_inline_result_needs_inline_feedback(fake: FakeBotApi) -> None:
    fake.set_inline_mode(True, feedback=False)
    query = fake.inline_query(ANA, "coins", chat=ELSEWHERE, chat_type="supergroup")
    await answered(fake, query, article())

    chosen = fake.choose_inline_result(query, "invite")

    assert chosen.updates == []
    assert chosen.inline_message_id is not None and chosen.message.chat_id == ELSEWHERE


async def test_choosing_needs_an_answer_that_holds_the_result(fake: FakeBotApi) -> None:
    query = fake.inline_query(ANA, "coins")
    with pytest.raises(ValueError, match="has not answered"):
        fake.choose_inline_result(query, "invite")
    await answered(fake, query, article())
    with pytest.raises(ValueError, match="has no result 'other'"):
        fake.choose_inline_result(query, "other")


# 3b. inline messages: edited by inline_message_id only


async def chosen_in(fake: FakeBotApi, chat: int, chat_type: str | None = None) -> tuple[str, int]:
    """Ana sends the bot's invitation into `chat`; its inline_message_id and message_id."""
    query = fake.inline_query(ANA, "coins", chat=chat, chat_type=chat_type)
    await answered(fake, query, article())
    chosen = fake.choose_inline_result(query, "invite")
    assert chosen.inline_message_id is not None
    return chosen.inline_message_id, chosen.message.message_id


async def test_inline_message_is_edited_by_inline_message_id(fake: FakeBotApi, bot: Bot) -> None:
    inline_id, _ = await chosen_in(fake, ELSEWHERE, "supergroup")

    edited = await bot.edit_message_text("<b>Coins</b>: 2 of 3 seated", inline_message_id=inline_id,
                                         parse_mode="HTML", reply_markup=join_keyboard("Join (1 seat left)"))
    keyboard_only = await bot.edit_message_reply_markup(inline_message_id=inline_id)

    assert edited is True and keyboard_only is True
    message = fake.inline_message(inline_id)
    assert (message.plain, message.reply_markup) == ("Coins: 2 of 3 seated", None)
    assert [e.plain for e in message.edits] == ["Coins at 8", "Coins: 2 of 3 seated"]
    assert message.edit_date is not None


async def test_inline_message_refuses_edits_by_chat_and_message_id(fake: FakeBotApi, bot: Bot) -> None:
    elsewhere_id, elsewhere_message = await chosen_in(fake, ELSEWHERE, "supergroup")
    _, group_message = await chosen_in(fake, GROUP)

    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.edit_message_text("x", chat_id=ELSEWHERE, message_id=elsewhere_message)
    with pytest.raises(BadRequest, match="Message can't be edited"):
        await bot.edit_message_text("x", chat_id=GROUP, message_id=group_message)
    with pytest.raises(BadRequest, match="Message can't be edited"):
        await bot.edit_message_reply_markup(chat_id=GROUP, message_id=group_message)
    assert fake.inline_message(elsewhere_id).edits == []


async def test_inline_message_edits_meet_the_usual_checks(fake: FakeBotApi) -> None:
    inline_id, _ = await chosen_in(fake, BEN)
    same = {"text": "<b>Coins</b> at 8", "parse_mode": "HTML",
            "reply_markup": {"inline_keyboard": [[{"text": "Join", "callback_data": "join:7"}]]}}
    web_app = {"inline_keyboard": [[{"text": "Open", "web_app": {"url": "https://cards.example"}}]]}

    assert "message is not modified" in await refused(fake, "editMessageText", inline_message_id=inline_id, **same)
    assert await refused(fake, "editMessageText", inline_message_id=inline_id,
                         text="x" * 4097) == "Bad Request: message is too long"
    assert await refused(fake, "editMessageText", inline_message_id=inline_id,
                         text="x", reply_markup=web_app) == "Bad Request: BUTTON_TYPE_INVALID"
    assert await refused(fake, "editMessageText", inline_message_id="AgAAAB-unknown",
                         text="x") == "Bad Request: MESSAGE_ID_INVALID"
    assert await refused(fake, "editMessageText", text="x") == "Bad Request: message identifier is not specified"
    assert "message is not modified" in await refused(fake, "editMessageReplyMarkup", inline_message_id=inline_id,
                                                      reply_markup=same["reply_markup"])
    assert fake.inline_message(inline_id).edits == []


async def test_inline_edits_count_against_the_bots_overall_budget_only() -> None:
    clock = ManualClock(1000.0)
    async with FakeBotApi(inline=True, clock=clock, global_per_second=3, per_group_per_minute=1) as fake, \
            Bot(fake.token, base_url=fake.base_url) as real_bot:
        fake.user_starts_bot(ANA)
        fake.add_group(GROUP)
        inline_id, _ = await chosen_in(fake, GROUP)
        for n in range(3):  # three edits in one second of one message in one group: no per-chat or group limit
            assert await real_bot.edit_message_text(f"edit {n}", inline_message_id=inline_id) is True
        with pytest.raises(RetryAfter):
            await real_bot.edit_message_text("edit 3", inline_message_id=inline_id)
        with pytest.raises(RetryAfter):
            await real_bot.send_message(ANA, "the whole bot is out of budget")
        clock.now += 1.0
        await real_bot.send_message(GROUP, "a group message")
        assert await real_bot.edit_message_text("edit 4", inline_message_id=inline_id) is True  # not a group message

    assert fake.inline_message(inline_id).plain == "edit 4"
    assert fake.count_429 == 2


async def test_pressing_an_inline_messages_button_names_it_by_inline_message_id(fake: FakeBotApi, bot: Bot) -> None:
    inline_id, _ = await chosen_in(fake, ELSEWHERE, "supergroup")
    await fake.send_update(fake.press_inline(BEN, inline_id, "Join"))

    [update] = await bot.get_updates()

    query = update.callback_query
    assert query is not None and query.message is None
    assert (query.inline_message_id, query.data, query.from_user.id) == (inline_id, "join:7", BEN)
    assert await query.answer("Seated") is True


async def test_application_edits_the_inline_message_a_button_press_names(fake: FakeBotApi) -> None:
    async def join_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.from_user is not None
        await query.answer()
        await query.edit_message_text(f"Coins: {query.from_user.first_name} joined")

    application: Application[Any, Any, Any, Any, Any, Any] = (
        ApplicationBuilder().token(fake.token).base_url(fake.base_url).build()
    )
    application.add_handler(CallbackQueryHandler(join_button))
    assert application.updater is not None
    inline_id, _ = await chosen_in(fake, BEN)
    async with application:
        await application.updater.start_polling(timeout=dtm.timedelta(seconds=1))
        await application.start()
        await fake.send_update(fake.press_inline(BEN, inline_id, "Join"))
        await fake.wait_for_calls("editMessageText")
        await application.updater.stop()
        await application.stop()

    assert fake.inline_message(inline_id).plain == "Coins: Ben joined"
    assert fake.calls_to("editMessageText")[0].response == {"ok": True, "result": True}


# 4. prepared messages


async def test_save_prepared_inline_message_keeps_the_result_for_a_day(fake: FakeBotApi, bot: Bot) -> None:
    result = InlineQueryResultArticle("t7", "Coins", InputTextMessageContent("Join my Coins table"),
                                      reply_markup=join_keyboard())

    prepared = await bot.save_prepared_inline_message(ANA, result, allow_group_chats=True, allow_user_chats=True)

    assert prepared.id in fake.prepared_messages
    kept = fake.prepared_messages[prepared.id]
    assert (kept.user_id, kept.result.id, kept.allowed) == (ANA, "t7", frozenset({"group", "user"}))
    assert prepared.expiration_date.timestamp() == pytest.approx(fake.unix_time() + 24 * 3600, abs=1)


async def test_shared_prepared_message_is_posted_via_the_bot_in_the_chosen_chat(fake: FakeBotApi, bot: Bot) -> None:
    result = InlineQueryResultArticle("t7", "Coins", InputTextMessageContent("Join my Coins table"),
                                      reply_markup=join_keyboard())
    prepared = await bot.save_prepared_inline_message(ANA, result, allow_group_chats=True)

    chosen = fake.share_prepared_message(prepared.id, ANA, chat=GROUP)
    for update in chosen.updates:
        await fake.send_update(update)
    message_update, feedback = await bot.get_updates()

    assert message_update.message is not None and message_update.message.via_bot is not None
    assert (message_update.message.chat.id, message_update.message.text) == (GROUP, "Join my Coins table")
    assert feedback.chosen_inline_result is not None
    assert (feedback.chosen_inline_result.result_id, feedback.chosen_inline_result.query) == ("t7", "")
    assert await bot.edit_message_text("Coins: table full", inline_message_id=feedback.chosen_inline_result
                                       .inline_message_id) is True
    assert fake.inline_message(chosen.inline_message_id or "").plain == "Coins: table full"


@pytest.mark.parametrize(("allowed", "chat", "chat_type"), [
    ({"allow_group_chats": True}, BEN, None),
    ({"allow_user_chats": True}, GROUP, None),
    ({"allow_user_chats": True}, None, None),  # the chat with the bot is a chat with a bot
    ({"allow_group_chats": True}, CHANNEL, "channel"),
])  # fmt: skip
async def test_share_refuses_chats_of_a_kind_the_message_does_not_allow(
    fake: FakeBotApi, allowed: JSON, chat: int | None, chat_type: str | None
) -> None:
    status, body = await call(fake, "savePreparedInlineMessage", user_id=ANA, result=article(), **allowed)
    assert status == 200

    with pytest.raises(ShareRefused) as caught:
        fake.share_prepared_message(body["result"]["id"], ANA, chat=chat, chat_type=chat_type)

    assert caught.value.error == "MESSAGE_SEND_FAILED"
    assert fake.inline.messages == {}


async def test_share_refuses_unknown_foreign_and_expired_prepared_messages(fake: FakeBotApi) -> None:
    _, body = await call(fake, "savePreparedInlineMessage", user_id=ANA, result=article(), allow_user_chats=True,
                         allow_bot_chats=True, allow_group_chats=True, allow_channel_chats=True)
    prepared_id = body["result"]["id"]

    for prepared, user in (("nope", ANA), (prepared_id, BEN)):
        with pytest.raises(ShareRefused) as caught:
            fake.share_prepared_message(prepared, user, chat=GROUP)
        assert caught.value.error == "MESSAGE_EXPIRED"
    fake.advance(24 * 3600 - 1)
    assert fake.share_prepared_message(prepared_id, ANA, chat=CHANNEL, chat_type="channel").message.chat_id == CHANNEL
    fake.advance(1)
    with pytest.raises(ShareRefused) as caught:
        fake.share_prepared_message(prepared_id, ANA, chat=GROUP)
    assert caught.value.error == "MESSAGE_EXPIRED"


@pytest.mark.parametrize(("params", "description"), [
    ({"user_id": ANA, "result": article()}, "at least one chat type must be allowed"),
    ({"user_id": 0, "result": article(), "allow_user_chats": True}, "invalid user_id specified"),
    ({"result": article(), "allow_user_chats": True}, "invalid user_id specified"),
    ({"user_id": 777, "result": article(), "allow_user_chats": True}, "user not found"),
    ({"user_id": ANA, "allow_user_chats": True}, "result isn't specified"),
    ({"user_id": ANA, "result": {**article(), "title": None}, "allow_user_chats": True}, 'can\'t find field "title"'),
    ({"user_id": ANA, "result": article("x" * 65), "allow_user_chats": True}, "RESULT_ID_INVALID"),
    ({"user_id": ANA, "result": article(reply_markup={"inline_keyboard": [[{"text": "Open", "web_app": {
        "url": "https://cards.example"}}]]}), "allow_user_chats": True}, "BUTTON_TYPE_INVALID"),
])  # fmt: skip
async def test_save_prepared_inline_message_refuses_what_telegram_refuses(
    fake: FakeBotApi, params: JSON, description: str
) -> None:
    assert await refused(fake, "savePreparedInlineMessage", **params) == f"Bad Request: {description}"
    assert fake.prepared_messages == {}


# checks shared with ordinary messages


async def test_send_message_refuses_an_unknown_parse_mode(fake: FakeBotApi, bot: Bot) -> None:
    with pytest.raises(BadRequest, match=r"(?i)unsupported parse_mode"):
        await bot.send_message(ANA, "hi", parse_mode="BBCode")
    assert (await bot.send_message(ANA, "<b>hi</b>", parse_mode="html")).text == "hi"


async def test_switch_inline_query_chosen_chat_button_must_allow_a_chat_type(fake: FakeBotApi) -> None:
    def keyboard(chosen: JSON) -> JSON:
        return {"inline_keyboard": [[{"text": "Invite", "switch_inline_query_chosen_chat": chosen}]]}

    assert await refused(fake, "sendMessage", chat_id=ANA, text="Invite friends", reply_markup=keyboard(
        {"query": "t7"})) == "Bad Request: at least one chat type must be allowed"
    status, _ = await call(fake, "sendMessage", chat_id=ANA, text="Invite friends",
                           reply_markup=keyboard({"query": "t7", "allow_group_chats": True}))
    assert status == 200


async def test_share_into_a_chat_with_another_bot_needs_allow_bot_chats(fake: FakeBotApi) -> None:
    other_bot = fake.world.user({"id": 5550, "is_bot": True, "first_name": "Dice", "username": "dice_bot"})
    _, for_bots = await call(fake, "savePreparedInlineMessage", user_id=ANA, result=article(), allow_bot_chats=True)
    _, for_people = await call(fake, "savePreparedInlineMessage", user_id=ANA, result=article(),
                               allow_user_chats=True)

    chosen = fake.share_prepared_message(for_bots["result"]["id"], ANA, chat=other_bot["id"])
    with pytest.raises(ShareRefused) as caught:
        fake.share_prepared_message(for_people["result"]["id"], ANA, chat=other_bot["id"])

    assert (chosen.message.chat["type"], chosen.message.chat_id, chosen.updates[0]["chosen_inline_result"]["query"]) \
        == ("private", 5550, "")
    assert caught.value.error == "MESSAGE_SEND_FAILED"
    assert fake.share_prepared_message(for_people["result"]["id"], ANA, chat=BEN).message.chat_id == BEN
