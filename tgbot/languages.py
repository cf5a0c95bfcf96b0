"""Which language each chat speaks, and ``/language`` to choose it.

A private message is in the person's language: the one they chose with ``/language``,
else their Telegram app's (stored as the bot last saw it, for the turn messages that answer
no update of theirs). A group's messages are in the group's language: the one an
admin chose with ``/language`` there, else the language of whoever opened the group's
first table (settled then, so the group does not change language with every host).
Anything the catalogs do not have falls back to English as a whole.
"""

from __future__ import annotations

import contextlib
import time

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import TelegramError

from engine.i18n import LANGUAGES, N_, negotiate
from tgbot.buttons import answer
from tgbot.callbacks import Verb, button_data, parse
from tgbot.context import BotState, Context, display_name, is_admin, is_group, locale_of, reader_languages, reply
from tgbot.homes import follow_language
from tgbot.render import render, translate

LANGUAGE_FRESH = 60.0  # seconds a person's /language choice is taken as read; then it is read again


async def learn_language(update: Update, context: Context) -> None:
    """Before any handler: know the language this person chose, at once after a choice made in this process.

    A choice made here (the bot's /language, the Mini App's picker: ``People.choose_language``)
    is read again on the next update. Another process may have taken the person's choice: read
    again after ``LANGUAGE_FRESH`` seconds, the choice reaches every process within a minute.
    """
    bot_state = context.bot_data
    user, known = update.effective_user, bot_state.languages
    reader_languages.set(known)
    if user is not None and _stale(bot_state, user.id):
        known[user.id] = await bot_state.service.people.language(user.id)
        bot_state.languages_read[user.id] = time.monotonic()
    if user is not None and user.language_code and bot_state.app_languages.get(user.id) != user.language_code:
        await remember_app_language(bot_state, user.id, user.language_code)


def _stale(bot_state: BotState, user_id: int) -> bool:
    """Whether a person's language must be read again: never read, chosen since, or read over a minute ago."""
    read = bot_state.languages_read.get(user_id)
    if user_id not in bot_state.languages or read is None:
        return True
    chosen = bot_state.service.people.chosen_at(user_id)
    return (chosen is not None and chosen >= read) or time.monotonic() - read > LANGUAGE_FRESH


async def remember_app_language(bot_state: BotState, user_id: int, code: str) -> None:
    """Store the language of a person's Telegram app, once a process (or when it changes): their turn messages
    are written in it when they chose none with /language (a person not known yet is remembered at /start)."""
    await bot_state.service.people.saw_app_language(user_id, code)
    bot_state.app_languages[user_id] = code


async def group_language(bot_state: BotState, chat: Chat, host_locale: str | None) -> str:
    """The group's language; the first table's host settles it when no admin has chosen one."""
    chats = bot_state.service.chats
    found = await chats.language(chat.id)
    if found is not None:
        return found
    return await chats.set_language(chat.id, negotiate(host_locale), by=None, keep=True)


async def _tables_follow(bot_state: BotState, chat_id: int, code: str) -> None:
    """A group's open tables speak its new language from their next message on (brought up to date now)."""
    notifier = bot_state.notifier
    for info in await bot_state.service.tables_in_chat(chat_id):
        if await follow_language(bot_state.records, info.id, code):
            notifier.refresh(info.id)


def language_keyboard(current: str) -> InlineKeyboardMarkup:
    """One button per language, the current one marked."""
    return InlineKeyboardMarkup([[
        InlineKeyboardButton(("✓ " if code == current else "") + name, callback_data=button_data(Verb.LANGUAGE, code))
        for code, name in LANGUAGES.items()
    ]])


async def _may_choose(context: Context, chat: Chat, user_id: int) -> bool:
    return not is_group(chat) or await is_admin(context, chat, user_id)


async def _show_picker(update: Update, context: Context) -> None:
    """A message with one button per language, for the chat the update came from."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    chats = context.bot_data.service.chats
    current = (await chats.language(chat.id) if is_group(chat) else None) or negotiate(locale_of(user))
    await reply(update, render("language.html", current, group=is_group(chat)), reply_markup=language_keyboard(current))


async def language_command(update: Update, context: Context) -> None:
    """/language: buttons for every language; in a group only its admins may choose."""
    await _show_picker(update, context)


async def language_menu_button(update: Update, context: Context) -> None:
    """The Language button of /settings: the same picker as /language."""
    if update.callback_query is not None:
        await answer(update.callback_query)
        await _show_picker(update, context)


async def language_button(update: Update, context: Context) -> None:
    """A language button: the person's language in private, the group's in a group (admins only)."""
    query = update.callback_query
    if query is None or query.message is None:
        return
    pressed = parse(query.data)
    chat, user = query.message.chat, query.from_user
    if pressed is None:
        await answer(query)
        return
    code = pressed.target
    if not await _may_choose(context, chat, user.id):
        await answer(query, translate(locale_of(user), N_("Only the group's admins can change its language.")),
                     show_alert=True)
        return
    service = context.bot_data.service
    if is_group(chat):
        await service.chats.set_language(chat.id, code, by=user.id)
        await _tables_follow(context.bot_data, chat.id, code)
    else:
        await service.people.choose_language(user.id, display_name(user), code)
        context.bot_data.languages[user.id] = code
        context.bot_data.languages_read[user.id] = time.monotonic()
    await answer(query, translate(code, N_("Language set: English")))
    with contextlib.suppress(TelegramError):  # the same language pressed twice: the message already says so
        await query.edit_message_text(render("language.html", code, group=is_group(chat)), parse_mode="HTML",
                                      reply_markup=language_keyboard(code))
