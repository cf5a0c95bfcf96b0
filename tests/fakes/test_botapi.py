"""The fake Bot API, driven by the real python-telegram-bot Bot and Application over HTTP."""

from __future__ import annotations

import asyncio
import datetime as dtm
from collections.abc import AsyncIterator, Callable
from typing import Any, TypedDict, Unpack

import aiohttp
import pytest
from aiohttp import web
from telegram import (
    Bot,
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
    WebAppInfo,
)
from telegram.error import BadRequest, Conflict, Forbidden, RetryAfter
from telegram.ext import AIORateLimiter, ApplicationBuilder, CommandHandler, ContextTypes

from tests.clock import ManualClock
from tests.fakes.botapi import SECRET_HEADER, FakeBotApi

ANA, BEN = 42, 43
GROUP = -1001234567890


def keyboard(*buttons: InlineKeyboardButton) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([list(buttons)])


@pytest.fixture
async def bot(botapi: FakeBotApi) -> AsyncIterator[Bot]:
    botapi.user_starts_bot(ANA, "Ana")
    botapi.add_group(GROUP, "Card night")
    async with Bot(botapi.token, base_url=botapi.base_url, base_file_url=botapi.base_file_url) as real_bot:
        yield real_bot


class Limits(TypedDict, total=False):
    """The FakeBotApi settings these tests vary."""

    per_chat_per_second: float
    per_group_per_minute: int
    global_per_second: int
    clock: Callable[[], float]
    time_scale: float


async def make_fake(**limits: Unpack[Limits]) -> FakeBotApi:
    fake = FakeBotApi(**limits)
    await fake.start()
    fake.user_starts_bot(ANA)
    fake.user_starts_bot(BEN)
    fake.add_group(GROUP)
    fake.add_group(GROUP - 1)
    return fake


async def test_get_me_returns_the_bot_user(bot: Bot) -> None:
    me = await bot.get_me()

    assert (me.id, me.username, me.is_bot) == (123456, "cardroom_test_bot", True)


async def test_send_message_recorded_with_raw_and_plain_text_and_keyboard(botapi: FakeBotApi, bot: Bot) -> None:
    markup = keyboard(InlineKeyboardButton("Join", callback_data="join:7"))

    sent = await bot.send_message(GROUP, "<b>Coins</b> &amp; friends", parse_mode="HTML", reply_markup=markup)

    [message] = botapi.messages(GROUP)
    assert (message.text, message.plain) == ("<b>Coins</b> &amp; friends", "Coins & friends")
    assert message.reply_markup == {"inline_keyboard": [[{"text": "Join", "callback_data": "join:7"}]]}
    assert message.button("Join")["callback_data"] == "join:7"
    assert (sent.message_id, sent.chat.type, sent.chat.title, sent.text) == (1, "supergroup", "Card night",
                                                                              "Coins & friends")
    assert sent.from_user is not None and sent.from_user.is_bot
    assert sent.reply_markup == markup
    assert [c.params["chat_id"] for c in botapi.calls_to("sendMessage")] == [GROUP]


async def test_sent_messages_deserialise_with_message_de_json(botapi: FakeBotApi, bot: Bot) -> None:
    await bot.send_message(ANA, "hello")

    message = Message.de_json(botapi.calls_to("sendMessage")[0].response["result"], bot)

    assert (message.chat.id, message.chat.type, message.text) == (ANA, "private", "hello")


async def test_message_ids_increase_per_chat() -> None:
    fake = await make_fake(per_chat_per_second=0)
    try:
        async with Bot(fake.token, base_url=fake.base_url) as real_bot:
            ids = [(await real_bot.send_message(chat, "x")).message_id for chat in (ANA, ANA, GROUP, ANA, GROUP)]
    finally:
        await fake.close()

    assert ids == [1, 2, 1, 3, 2]


async def test_edit_message_text_keeps_the_previous_version_in_edits(botapi: FakeBotApi, bot: Bot) -> None:
    clock_markup = keyboard(InlineKeyboardButton("Join", callback_data="join"))
    sent = await bot.send_message(ANA, "Waiting for players", reply_markup=clock_markup)
    botapi.flood.chat.limit = 0  # this test is about edits, not about flood control

    edited = await bot.edit_message_text("Game started", chat_id=ANA, message_id=sent.message_id)

    [message] = botapi.messages(ANA)
    assert message.text == "Game started"
    assert message.reply_markup is None  # Telegram drops the keyboard when an edit omits it
    assert [(e.text, e.reply_markup) for e in message.edits] == [
        ("Waiting for players", {"inline_keyboard": [[{"text": "Join", "callback_data": "join"}]]})
    ]
    assert isinstance(edited, Message) and edited.edit_date is not None


async def test_edit_message_text_raises_bad_request_when_not_modified(botapi: FakeBotApi, bot: Bot) -> None:
    play = InlineKeyboardButton("Play", url="https://t.me/cardroom_test_bot")
    sent = await bot.send_message(ANA, "Your turn", reply_markup=keyboard(play))

    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_text("Your turn", chat_id=ANA, message_id=sent.message_id, reply_markup=keyboard(play))

    assert botapi.calls_to("editMessageText")[0].status == 400
    assert botapi.messages(ANA)[0].edits == []


async def test_edit_message_reply_markup_raises_bad_request_when_not_modified(bot: Bot) -> None:
    sent = await bot.send_message(ANA, "Your turn")

    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_reply_markup(chat_id=ANA, message_id=sent.message_id)


async def test_delete_message_flags_the_message_deleted(botapi: FakeBotApi, bot: Bot) -> None:
    sent = await bot.send_message(GROUP, "Lobby")

    assert await bot.delete_message(GROUP, sent.message_id) is True

    [message] = botapi.messages(GROUP)
    assert message.deleted
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await bot.delete_message(GROUP, sent.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("Lobby closed", chat_id=GROUP, message_id=sent.message_id)


async def test_delete_message_raises_bad_request_when_a_users_group_message_and_bot_not_admin(
    botapi: FakeBotApi, bot: Bot
) -> None:
    update = botapi.message(GROUP, BEN, "hi all")
    message_id = update["message"]["message_id"]

    with pytest.raises(BadRequest, match=r"(?i)message can't be deleted"):
        await bot.delete_message(GROUP, message_id)
    botapi.set_admin(GROUP, botapi.bot_user["id"])
    assert await bot.delete_message(GROUP, message_id) is True


async def test_send_message_raises_forbidden_when_user_never_started_the_bot(botapi: FakeBotApi, bot: Bot) -> None:
    with pytest.raises(Forbidden, match=r"(?i)bot can't initiate conversation with a user"):
        await bot.send_message(BEN, "Your turn")

    botapi.started_users.add(BEN)
    await bot.send_message(BEN, "Your turn")
    botapi.user_blocks_bot(BEN)
    with pytest.raises(Forbidden, match=r"(?i)bot was blocked by the user"):
        await bot.send_message(BEN, "Your turn")
    assert [c.status for c in botapi.calls_to("sendMessage")] == [403, 200, 403]


async def test_send_message_raises_bad_request_when_chat_unknown(bot: Bot) -> None:
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(-1009999, "hello")


async def test_send_message_raises_retry_after_when_burst_exceeds_per_chat_limit() -> None:
    fake = await make_fake(clock=ManualClock(1000.0))
    try:
        async with Bot(fake.token, base_url=fake.base_url) as real_bot:
            await real_bot.send_message(ANA, "one")
            with pytest.raises(RetryAfter) as caught:
                await real_bot.send_message(ANA, "two")
            await real_bot.send_message(GROUP, "another chat is not limited by Ana's chat")
    finally:
        await fake.close()

    assert caught.value.retry_after == dtm.timedelta(seconds=1)
    assert fake.count_429 == 1
    assert fake.calls_to("sendMessage")[1].response["parameters"] == {"retry_after": 1}
    assert [m.text for m in fake.messages(ANA)] == ["one"]


async def test_per_chat_limit_allows_the_next_message_once_a_second_has_passed() -> None:
    clock = ManualClock(1000.0)
    fake = await make_fake(clock=clock)
    try:
        async with Bot(fake.token, base_url=fake.base_url) as real_bot:
            await real_bot.send_message(ANA, "one")
            clock.now += 0.4
            with pytest.raises(RetryAfter):
                await real_bot.edit_message_text("one!", chat_id=ANA, message_id=1)
            clock.now += 0.6
            await real_bot.edit_message_text("one!", chat_id=ANA, message_id=1)
    finally:
        await fake.close()

    assert fake.count_429 == 1


async def test_group_limit_refuses_the_message_beyond_per_minute_budget() -> None:
    clock = ManualClock(1000.0)
    fake = await make_fake(clock=clock, per_group_per_minute=3)
    try:
        async with Bot(fake.token, base_url=fake.base_url) as real_bot:
            for text in ("a", "b", "c"):
                await real_bot.send_message(GROUP, text)
                clock.now += 2.0
            with pytest.raises(RetryAfter) as caught:
                await real_bot.send_message(GROUP, "d")
            await real_bot.send_message(ANA, "private chats have no per-minute budget")
            await real_bot.send_message(GROUP - 1, "nor does another group share it")
    finally:
        await fake.close()

    # the first message went at t=1000 and the window is 60 s; it is now t=1006
    assert caught.value.retry_after == dtm.timedelta(seconds=54)


async def test_global_limit_refuses_the_message_beyond_per_second_budget() -> None:
    fake = await make_fake(clock=ManualClock(1000.0), global_per_second=3)
    try:
        async with Bot(fake.token, base_url=fake.base_url) as real_bot:
            for chat in (ANA, BEN, GROUP):
                await real_bot.send_message(chat, "hi")
            with pytest.raises(RetryAfter):
                await real_bot.send_message(GROUP - 1, "hi")
    finally:
        await fake.close()


async def test_deletes_answers_and_getters_do_not_use_up_the_chat_budget() -> None:
    fake = await make_fake(clock=ManualClock(1000.0))
    try:
        async with Bot(fake.token, base_url=fake.base_url) as real_bot:
            await real_bot.send_message(ANA, "a")
            await real_bot.send_message(GROUP, "b")
            query = fake.callback_query(BEN, fake.messages(GROUP)[0], "x")
            await real_bot.answer_callback_query(query["callback_query"]["id"], "ok")
            await real_bot.delete_message(ANA, 1)
            await real_bot.get_chat(ANA)
            await real_bot.send_chat_action(ANA, "typing")
            with pytest.raises(RetryAfter):
                await real_bot.send_message(ANA, "c")
    finally:
        await fake.close()

    assert fake.count_429 == 1


async def test_time_scale_shrinks_windows_and_reports_fractional_retry_after() -> None:
    fake = await make_fake(time_scale=0.05)
    try:
        async with Bot(fake.token, base_url=fake.base_url) as real_bot:
            await real_bot.send_message(ANA, "one")
            with pytest.raises(RetryAfter) as caught:
                await real_bot.send_message(ANA, "two")
            await asyncio.sleep(0.06)
            await real_bot.send_message(ANA, "two")
    finally:
        await fake.close()

    retry_after = caught.value.retry_after
    assert isinstance(retry_after, dtm.timedelta)
    assert dtm.timedelta(0) < retry_after <= dtm.timedelta(seconds=0.05)


async def test_rate_limiter_with_retries_gets_a_burst_through_when_time_is_scaled() -> None:
    fake = await make_fake(time_scale=0.02)
    application = (
        ApplicationBuilder().token(fake.token).base_url(fake.base_url)
        .rate_limiter(AIORateLimiter(max_retries=3)).build()
    )  # fmt: skip
    try:
        async with application:
            for n in range(3):
                await application.bot.send_message(ANA, f"message {n}")
    finally:
        await fake.close()

    assert [m.text for m in fake.messages(ANA)] == ["message 0", "message 1", "message 2"]
    assert fake.count_429 >= 1  # the burst was refused at first and retried after retry_after


async def test_answer_callback_query_accepts_each_query_once(botapi: FakeBotApi, bot: Bot) -> None:
    await bot.send_message(GROUP, "Lobby", reply_markup=keyboard(InlineKeyboardButton("Join", callback_data="j")))
    update = botapi.press(BEN, botapi.last_message(GROUP), "Join")

    await bot.answer_callback_query(update["callback_query"]["id"], text="Seated")

    assert update["callback_query"]["data"] == "j"
    assert botapi.answer_to(update) == {"callback_query_id": update["callback_query"]["id"], "text": "Seated"}
    with pytest.raises(BadRequest, match=r"(?i)query ID is invalid"):
        await bot.answer_callback_query(update["callback_query"]["id"])


async def test_send_message_raises_button_data_invalid_when_callback_data_over_64_bytes(bot: Bot) -> None:
    await bot.send_message(ANA, "ok", reply_markup=keyboard(InlineKeyboardButton("x", callback_data="é" * 32)))

    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(ANA, "no", reply_markup=keyboard(InlineKeyboardButton("x", callback_data="a" * 65)))


async def test_send_message_raises_button_type_invalid_when_web_app_button_in_group(bot: Bot) -> None:
    button = InlineKeyboardButton("Open table", web_app=WebAppInfo("https://cards.example/t/1"))

    with pytest.raises(BadRequest, match=r"(?i)BUTTON_TYPE_INVALID"):
        await bot.send_message(GROUP, "Table ready", reply_markup=keyboard(button))
    await bot.send_message(ANA, "Table ready", reply_markup=keyboard(button))


async def test_send_message_raises_button_url_invalid_when_web_app_url_is_not_https(bot: Bot) -> None:
    button = InlineKeyboardButton("Open table", web_app=WebAppInfo("http://cards.example/t/1"))

    with pytest.raises(BadRequest, match=r"(?i)BUTTON_URL_INVALID"):
        await bot.send_message(ANA, "Table ready", reply_markup=keyboard(button))


async def test_send_message_raises_bad_request_when_text_over_4096_characters(bot: Bot) -> None:
    await bot.send_message(GROUP, "<b>" + "x" * 4096 + "</b>", parse_mode="HTML")  # tags do not count

    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await bot.send_message(ANA, "x" * 4097)


async def test_send_message_raises_bad_request_when_html_has_unsupported_tag(bot: Bot) -> None:
    with pytest.raises(BadRequest, match=r'(?i)Unsupported start tag "div"'):
        await bot.send_message(ANA, "<div>x</div>", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)Can't find end tag"):
        await bot.send_message(ANA, "<b>x", parse_mode="HTML")


async def test_unknown_method_answers_404_not_found(botapi: FakeBotApi) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{botapi.base_url}{botapi.token}/sendDice", json={"chat_id": ANA}) as response:
            assert response.status == 404
            assert await response.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
        async with session.post(f"{botapi.base_url}999:WRONG/getMe") as response:
            assert response.status == 401


async def test_get_chat_member_reports_admin_set_by_test(botapi: FakeBotApi, bot: Bot) -> None:
    botapi.message(GROUP, BEN, "hello")

    assert (await bot.get_chat_member(GROUP, BEN)).status == "member"
    botapi.set_admin(GROUP, BEN)
    assert (await bot.get_chat_member(GROUP, BEN)).status == "administrator"
    assert (await bot.get_chat_member(GROUP, 77)).status == "left"


async def test_commands_are_stored_per_scope(bot: Bot) -> None:
    await bot.set_my_commands([BotCommand("new", "Start a game"), BotCommand("help", "How to play")])

    assert [c.command for c in await bot.get_my_commands()] == ["new", "help"]
    assert await bot.delete_my_commands() is True
    assert await bot.get_my_commands() == ()


def test_message_update_marks_the_command_entity() -> None:
    fake = FakeBotApi()

    update = Update.de_json(fake.message(GROUP, ANA, "/new coins"), None)

    assert update.effective_message is not None
    assert update.effective_message.entities[0].to_dict() == {"type": "bot_command", "offset": 0, "length": 4}
    assert update.effective_chat is not None and update.effective_chat.id == GROUP


async def test_get_updates_honours_offset(botapi: FakeBotApi, bot: Bot) -> None:
    for text in ("a", "b", "c"):
        await botapi.send_update(botapi.message(ANA, ANA, text))

    first = await bot.get_updates()
    after = await bot.get_updates(offset=first[0].update_id + 1)
    last = await bot.get_updates(offset=-1)

    assert [u.message.text for u in first if u.message] == ["a", "b", "c"]
    assert [u.message.text for u in after if u.message] == ["b", "c"]
    assert [u.message.text for u in last if u.message] == ["c"]


async def test_get_updates_long_poll_waits_for_timeout_then_returns_early_on_update(
    botapi: FakeBotApi, bot: Bot
) -> None:
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert await bot.get_updates(timeout=dtm.timedelta(seconds=0.3)) == ()
    assert loop.time() - started >= 0.3

    poll = asyncio.create_task(bot.get_updates(timeout=dtm.timedelta(seconds=5)))
    await asyncio.sleep(0.1)
    started = loop.time()
    await botapi.send_update(botapi.message(ANA, ANA, "/start"))
    updates = await poll
    assert loop.time() - started < 1.0
    assert [u.message.text for u in updates if u.message] == ["/start"]


async def test_get_updates_delivers_start_command_to_command_handler(botapi: FakeBotApi) -> None:
    async def start_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None and update.effective_user is not None
        await update.effective_message.reply_text(f"Welcome, {update.effective_user.first_name}!")

    application = (
        ApplicationBuilder().token(botapi.token).base_url(botapi.base_url).base_file_url(botapi.base_file_url).build()
    )
    application.add_handler(CommandHandler("start", start_command))
    assert application.updater is not None
    botapi.add_user(ANA, "Ana")
    await botapi.send_update(botapi.message(ANA, ANA, "/start"))

    async with application:
        await application.updater.start_polling(timeout=dtm.timedelta(seconds=1))
        await application.start()
        await botapi.wait_for_calls("sendMessage")
        await application.updater.stop()
        await application.stop()

    assert botapi.last_message(ANA).text == "Welcome, Ana!"
    assert botapi.pending_updates == []  # the final getUpdates confirmed the offset


async def test_webhook_delivery_posts_update_with_secret_header(botapi: FakeBotApi, bot: Bot) -> None:
    received: list[tuple[str | None, dict[str, Any]]] = []

    async def hook(request: web.Request) -> web.Response:
        received.append((request.headers.get(SECRET_HEADER), await request.json()))
        return web.Response()

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/hook"
    try:
        assert await bot.set_webhook(url, secret_token="s3cr3t-token")
        status = await botapi.send_update(botapi.message(GROUP, BEN, "/new coins"))
        with pytest.raises(Conflict):
            await bot.get_updates()
        info = await bot.get_webhook_info()
    finally:
        await runner.cleanup()

    assert status == 200
    [(secret, update)] = received
    assert secret == "s3cr3t-token"
    assert update["message"]["text"] == "/new coins"
    assert (info.url, info.pending_update_count) == (url, 0)


async def test_webhook_keeps_update_pending_when_delivery_fails(botapi: FakeBotApi, bot: Bot) -> None:
    async def broken(request: web.Request) -> web.Response:
        return web.Response(status=500)

    app = web.Application()
    app.router.add_post("/hook", broken)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        await bot.set_webhook(f"http://127.0.0.1:{runner.addresses[0][1]}/hook")
        status = await botapi.send_update(botapi.message(ANA, ANA, "/start"))
        info = await bot.get_webhook_info()
    finally:
        await runner.cleanup()

    assert status == 500
    assert info.pending_update_count == 1
    assert info.last_error_message == "Wrong response from the webhook: 500"
    assert await bot.delete_webhook() is True
    assert [u.message.text for u in await bot.get_updates() if u.message] == ["/start"]


async def test_deletions_use_up_the_bots_overall_budget_but_not_the_chats() -> None:
    clock = ManualClock(1000.0)
    fake = await make_fake(clock=clock, global_per_second=3)
    try:
        async with Bot(fake.token, base_url=fake.base_url) as real_bot:
            a = await real_bot.send_message(ANA, "a")
            b = await real_bot.send_message(BEN, "b")
            clock.now += 1.0
            assert await real_bot.delete_message(ANA, a.message_id) is True
            assert await real_bot.delete_messages(BEN, [b.message_id]) is True
            c = await real_bot.send_message(GROUP, "c")  # the third call of this second
            with pytest.raises(RetryAfter):  # a fourth, a deletion, is beyond the bot's budget
                await real_bot.delete_message(GROUP, c.message_id)
    finally:
        await fake.close()

    assert [m.deleted for m in fake.messages(ANA) + fake.messages(BEN) + fake.messages(GROUP)] == [True, True, False]
