"""Lobbies: /new, /join, /leave, /cancel, the lobby's buttons, and Rematch.

Handlers only call the table service and answer the person who asked; the table's
message itself is drawn by the notifier from what the service publishes, so a lobby
looks the same whichever way (bot or Mini App) someone joined.

A lobby's buttons name their table, and a press is matched by that table: people see the
lobby the moment Telegram shows it, often before Telegram's answer to the post has told the
bot its message id, and a press then is taken too, unless the message it is on is kept for
another table.
"""

from __future__ import annotations

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update

from engine import games
from engine.core.errors import Refusal, RefusalCode
from engine.i18n import refusal_text
from engine.service.live import TableInfo
from tgbot.arguments import parse_new_args, typed_refusal
from tgbot.buttons import STRAY, answer, pressed_table
from tgbot.callbacks import Callback, Verb, button_data, parse
from tgbot.context import (
    BotState,
    Context,
    display_name,
    is_admin,
    is_group,
    is_private,
    locale_of,
    reply,
    reply_locale,
    reply_refusal,
    thread_of,
)
from tgbot.languages import group_language
from tgbot.records import SENDING, SUMMARY, TABLE, UNCERTAIN
from tgbot.render import render, translate
from tgbot.table_choice import table_labels


async def tables_in_chat(bot_state: BotState, chat_id: int, *statuses: str) -> list[TableInfo]:
    """Unfinished tables of a chat, newest first."""
    return await bot_state.service.tables_in_chat(chat_id, *statuses)


async def can_message(bot_state: BotState, user_id: int) -> bool:
    """Whether the bot may write to this person privately."""
    person = await bot_state.service.people.person(user_id)
    return person is not None and person.can_message


# commands -----------------------------------------------------------------------

async def new_command(update: Update, context: Context) -> None:
    """/new [game] [options]: a lobby in a group (in the topic it was typed in), a game against AI players alone."""
    bot_state, user, chat = context.bot_data, update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    locale = await reply_locale(update, context)  # a group's, once it has one: the reply is read by the group
    try:
        game, options = parse_new_args(context.args or [])
        if is_group(chat):  # the table speaks the group's language, not its host's
            locale = await group_language(bot_state, chat, locale)
        bot_state.notifier.expect(chat.id, user.id, thread_id=thread_of(update), locale=locale, title=chat.title)
        if is_private(chat):  # alone with the bot: a game against AI players, dealt at once
            await bot_state.service.play_now(game, user.id, display_name(user), options, chat_id=chat.id)
        else:
            await bot_state.service.create_table(game, user.id, display_name(user), options, chat_id=chat.id)
    except Refusal as refusal:
        bot_state.notifier.unexpect(chat.id, user.id)
        usage = refusal.code != RefusalCode.TOO_MANY_TABLES  # the command was right; the person is at the cap
        await reply(update, render("refused.html", locale, reason=refusal_text(typed_refusal(refusal), locale),
                                   games=_games(), usage=usage))


def _games() -> list[tuple[str, str]]:
    return [(name, games.get(name).title) for name in games.names()]


async def join_command(update: Update, context: Context) -> None:
    """/join [table]: take a seat at the open table this command answers, or the newest one of this group."""
    bot_state, user, chat = context.bot_data, update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    locale = locale_of(user)
    if not is_group(chat):
        await reply(update, translate(locale, "Use /join in the group where the table is."))
        return
    table_id = await _chosen_table(update, context, "lobby")
    if table_id is None:
        return
    try:
        info = await bot_state.service.join(table_id, user.id, display_name(user))
    except Refusal as refusal:
        await reply_refusal(update, context, refusal)
        return
    if not await can_message(bot_state, user.id):
        await reply(update, render("steer.html", locale, table=info, link=bot_state.links.table_deep(info.id)))


async def _replied_table(update: Update, context: Context) -> str | None:
    """The table whose message this command replies to, if it does."""
    message = update.effective_message
    replied = message.reply_to_message if message is not None else None
    if replied is None or message is None or (message.is_topic_message and
                                              replied.message_id == message.message_thread_id):
        return None  # in a topic every message "replies" to the topic's first message
    return await context.bot_data.service.chats.table_of_message(replied.chat.id, replied.message_id, (TABLE, SUMMARY))


async def _ask_which(update: Update, tables: list[TableInfo], verb: Verb, locale: str | None) -> None:
    """Several tables fit: one button per table, each saying what tells it from the others."""
    shown = tables[:8]
    rows = [[InlineKeyboardButton(label, callback_data=button_data(verb, t.id))]
            for label, t in zip(table_labels(shown, locale), shown, strict=True)]
    await reply(update, translate(locale, "Which table? You can also answer the table's message with the command."),
                reply_markup=InlineKeyboardMarkup(rows))


async def leave_command(update: Update, context: Context) -> None:
    """/leave: give up your seat (an AI player takes it over once the game is on); asks which when it is unclear."""
    bot_state, user, chat = context.bot_data, update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    locale = locale_of(user)
    mine = [t for t in await tables_in_chat(bot_state, chat.id) if t.seat_of(user.id) is not None]
    replied = await _replied_table(update, context)
    if replied is not None:
        mine = [t for t in mine if t.id == replied]
    if not mine:
        await reply(update, translate(locale, "You have no seat at a table here."))
        return
    if len(mine) > 1:
        await _ask_which(update, mine, Verb.PICK_LEAVE, locale)
        return
    try:
        await bot_state.service.leave(mine[0].id, user.id)
    except Refusal as refusal:
        await reply_refusal(update, context, refusal)
        return
    await reply(update, translate(locale, "You left the table."))


async def cancel_command(update: Update, context: Context) -> None:
    """/cancel: end an unfinished table here (its host, or a group admin); asks which when it is unclear."""
    bot_state, user, chat = context.bot_data, update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    locale = locale_of(user)
    tables = await tables_in_chat(bot_state, chat.id)
    replied = await _replied_table(update, context)
    if replied is not None:
        tables = [t for t in tables if t.id == replied]
    if not tables:
        await reply(update, translate(locale, "There is no table to cancel here."))
        return
    hosted = [t for t in tables if t.host_user_id == user.id]
    admin = not hosted and await is_admin(context, chat, user.id)
    if not hosted and not admin:
        await reply(update, translate(locale, "Only the host or a group admin can cancel a table."))
        return
    choices = hosted or tables
    if len(choices) > 1:
        await _ask_which(update, choices, Verb.PICK_CANCEL, locale)
        return
    try:
        await bot_state.service.abandon(choices[0].id, user.id, is_admin=admin)
    except Refusal as refusal:
        await reply_refusal(update, context, refusal)



async def pick_leave_button(update: Update, context: Context) -> None:
    """The table chosen after /leave."""
    query = update.callback_query
    found = parse(query.data if query is not None else None)
    if query is None or found is None:
        return
    locale = locale_of(query.from_user)
    try:
        await context.bot_data.service.leave(found.target, query.from_user.id)
    except Refusal as refusal:
        await answer(query, refusal_text(refusal, locale), show_alert=True)
        return
    await answer(query, translate(locale, "You left the table."))


async def pick_cancel_button(update: Update, context: Context) -> None:
    """The table chosen after /cancel."""
    query = update.callback_query
    found = parse(query.data if query is not None else None)
    if query is None or found is None or query.message is None:
        return
    bot_state, locale = context.bot_data, locale_of(query.from_user)
    try:
        info = await bot_state.service.info(found.target)
        if info.chat_id != query.message.chat.id:  # a button names a table of its own chat: admin rights are there
            await answer(query, translate(locale, "There is no table to cancel here."), show_alert=True)
            return
        admin = info.host_user_id != query.from_user.id and await is_admin(context, query.message.chat,
                                                                               query.from_user.id)
        if info.host_user_id != query.from_user.id and not admin:
            await answer(query, translate(locale, "Only the host or a group admin can cancel a table."),
                         show_alert=True)
            return
        await bot_state.service.abandon(info.id, query.from_user.id, is_admin=admin)
    except Refusal as refusal:
        await answer(query, refusal_text(refusal, locale), show_alert=True)
        return
    await answer(query)


async def _chosen_table(update: Update, context: Context, *statuses: str) -> str | None:
    """The table named in the command or answered by it, or the newest one of this chat; says so when there is none."""
    bot_state, chat = context.bot_data, update.effective_chat
    locale = locale_of(update.effective_user)
    if context.args:
        return context.args[0][:32]
    replied = await _replied_table(update, context)
    if replied is not None:
        return replied
    tables = await tables_in_chat(bot_state, chat.id, *statuses) if chat is not None else []
    if not tables:
        await reply(update, translate(locale, "There is no open table here; start one with /new."))
        return None
    return tables[0].id


async def lobby_press(update: Update, context: Context) -> tuple[CallbackQuery, Callback, TableInfo] | None:
    """A press on a lobby's button and its table (``pressed_table``), taken too while the lobby is being posted."""
    early = await _pressed_while_posting(update, context)
    return early if early is not None else await pressed_table(update, context)


async def _pressed_while_posting(update: Update, context: Context) -> tuple[CallbackQuery, Callback, TableInfo] | None:
    """The press and the table its data names, when that table's message is still awaiting Telegram's answer
    (no message id yet) in this chat and the message pressed is kept for no other table; else None."""
    query = update.callback_query
    found = parse(query.data) if query is not None else None
    message = query.message if query is not None else None
    if query is None or found is None or message is None:
        return None
    bot_state = context.bot_data
    try:
        info = await bot_state.service.info(found.target)  # a table that exists, before its records are read
    except Refusal:
        return None  # pressed_table says so
    record = await bot_state.records.get(info.id, TABLE)
    if record is None or record.message_id is not None or record.state not in (SENDING, UNCERTAIN):
        return None
    if record.inline_id is not None or record.chat_id != message.chat.id:
        return None
    owner = await bot_state.service.chats.table_of_message(message.chat.id, message.message_id, (TABLE, SUMMARY))
    if owner is not None and owner != info.id:
        return None  # another table's button row: pressed_table refuses it
    return query, found, info


async def join_button(update: Update, context: Context) -> None:
    """Join: take a free seat; someone the bot cannot write to yet is sent to its Start button."""
    pressed = await lobby_press(update, context)
    if pressed is None:
        return
    query, _found, info = pressed
    bot_state, user = context.bot_data, query.from_user
    locale = locale_of(user)
    try:
        await bot_state.service.join(info.id, user.id, display_name(user))
    except Refusal as refusal:
        await answer(query, refusal_text(refusal, locale), show_alert=True)
        return
    if await can_message(bot_state, user.id):
        await answer(query, translate(locale, "You have a seat. I will message you when it is your turn."))
    else:
        await answer(query, url=bot_state.links.table_deep(info.id))


async def leave_button(update: Update, context: Context) -> None:
    """Leave: free your seat in the lobby."""
    pressed = await lobby_press(update, context)
    if pressed is None:
        return
    query, _found, info = pressed
    try:
        await context.bot_data.service.leave(info.id, query.from_user.id)
    except Refusal as refusal:
        await answer(query, refusal_text(refusal, locale_of(query.from_user)), show_alert=True)
        return
    await answer(query, translate(locale_of(query.from_user), "You left the table."))


async def add_ai_button(update: Update, context: Context) -> None:
    """Add AI: the host seats an AI player."""
    pressed = await lobby_press(update, context)
    if pressed is None:
        return
    query, _found, info = pressed
    try:
        await context.bot_data.service.add_ai(info.id, query.from_user.id)
    except Refusal as refusal:
        await answer(query, refusal_text(refusal, locale_of(query.from_user)), show_alert=True)
        return
    await answer(query)


async def start_button(update: Update, context: Context) -> None:
    """Start: the host deals; empty seats get AI players."""
    pressed = await lobby_press(update, context)
    if pressed is None:
        return
    query, _found, info = pressed
    try:
        await context.bot_data.service.start_game(info.id, query.from_user.id)
    except Refusal as refusal:
        await answer(query, refusal_text(refusal, locale_of(query.from_user)), show_alert=True)
        return
    context.bot_data.options_open.discard(info.id)
    await answer(query, translate(locale_of(query.from_user), "Dealt! Open the table to play."))


async def rematch_button(update: Update, context: Context) -> None:
    """Rematch: the one new lobby of this table, with its game and settings and every player of it invited.

    The first press opens it (hosted by whoever pressed; the notifier posts it where this table's
    messages went); a later press by anyone takes a seat in it.
    """
    pressed = await pressed_table(update, context, SUMMARY)
    if pressed is None:
        return
    query, _found, info = pressed
    bot_state, user = context.bot_data, query.from_user
    locale = locale_of(user)
    # an invitation's message (inline) is shared with friends: its rematch waits for them like a group's
    private = query.inline_message_id is None and (info.chat_id is None or info.chat_id > 0)
    try:
        fresh, opened = await bot_state.service.join_rematch(info.id, user.id, display_name(user))
        if opened and private:
            await bot_state.service.start_game(fresh.id, user.id)
    except Refusal as refusal:
        await answer(query, refusal_text(refusal, locale), show_alert=True)
        return
    if opened or private:
        await answer(query)
    else:
        await answer(query, translate(locale, "You have a seat at the rematch."))


async def stray_button(update: Update, context: Context) -> None:
    """Any press whose data this bot does not send: say so, change nothing."""
    query = update.callback_query
    if query is not None:
        await answer(query, translate(locale_of(query.from_user), STRAY))
