"""Lobbies: /new, /join, /leave, /cancel, the lobby's buttons, and Rematch.

Handlers only call the table service and answer the person who asked; the table's
message itself is drawn by the notifier from what the service publishes, so a lobby
looks the same whichever way (bot or Mini App) someone joined.
"""

from __future__ import annotations

from typing import Any

from telegram import ChatMember, Update
from telegram.error import TelegramError

from engine import games
from engine.core.errors import Refusal, RefusalCode
from engine.service.live import TableInfo
from tgbot.buttons import STRAY, answer, pressed_table
from tgbot.context import BotState, Context, display_name, is_group, is_private, locale_of, reply, reply_refusal
from tgbot.records import LOCALE, SUMMARY
from tgbot.render import refusal_text, render, translate

GAME_ALIASES = {
    "coins": "coins", "sergeant_major": "sergeant_major", "sergeant": "sergeant_major", "358": "sergeant_major",
    "3-5-8": "sergeant_major", "kings_corner": "kings_corner", "kings": "kings_corner",
    "kings_in_the_corner": "kings_corner",
}  # fmt: skip
OPTION_ALIASES = {"target": "target_score"}


def game_name(word: str) -> str:
    """The registered game a word names; raises Refusal("unknown_game")."""
    key = word.strip().lower().replace("-", "_")
    return games.get(GAME_ALIASES.get(key, key)).name


def parse_new_args(args: list[str]) -> tuple[str, dict[str, Any]]:
    """``/new [game] [name=value ...]`` -> the game and its raw options; raises Refusal."""
    game, rest = "coins", list(args)
    if rest and "=" not in rest[0]:
        game = game_name(rest.pop(0))
    options: dict[str, Any] = {}
    for word in rest:
        name, sep, value = word.partition("=")
        if not sep or not name or not value:
            raise Refusal(RefusalCode.OPTION_NOT_UNDERSTOOD, word=word)
        options[OPTION_ALIASES.get(name.lower(), name.lower())] = value
    return game, options


async def tables_in_chat(room: BotState, chat_id: int, *statuses: str) -> list[TableInfo]:
    """Unfinished tables of a chat, newest first."""
    return await room.service.tables_in_chat(chat_id, *statuses)


async def can_message(room: BotState, user_id: int) -> bool:
    """Whether the bot may write to this person privately."""
    person = await room.service.store.user_settings(user_id)
    return bool(person and person.get("can_message"))


# commands -----------------------------------------------------------------------

async def new_command(update: Update, context: Context) -> None:
    """/new [game] [options]: a lobby in a group, a game against AI players in a private chat."""
    room, user, chat = context.bot_data, update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    locale = locale_of(user)
    try:
        game, options = parse_new_args(context.args or [])
        info = await room.service.create_table(game, user.id, display_name(user), options, chat_id=chat.id)
        await room.service.set_meta(info.id, LOCALE, locale)
        if is_private(chat):
            await room.service.start_game(info.id, user.id)
    except Refusal as refusal:
        await reply(update, render("refused.html", locale, reason=refusal_text(refusal, locale),
                                   games=_games(), usage=True))


def _games() -> list[tuple[str, str]]:
    return [(name, games.get(name).title) for name in games.names()]


async def join_command(update: Update, context: Context) -> None:
    """/join [table]: take a seat at the newest open table of this group."""
    room, user, chat = context.bot_data, update.effective_user, update.effective_chat
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
        info = await room.service.join(table_id, user.id, display_name(user))
    except Refusal as refusal:
        await reply_refusal(update, refusal)
        return
    if not await can_message(room, user.id):
        await reply(update, render("steer.html", locale, table=info, link=room.links.table_deep(info.id)))


async def leave_command(update: Update, context: Context) -> None:
    """/leave: give up your seat (an AI player takes it over once the game is on)."""
    room, user, chat = context.bot_data, update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    mine = [t for t in await tables_in_chat(room, chat.id) if t.seat_of(user.id) is not None]
    if not mine:
        await reply(update, translate(locale_of(user), "You have no seat at a table here."))
        return
    try:
        await room.service.leave(mine[0].id, user.id)
    except Refusal as refusal:
        await reply_refusal(update, refusal)
        return
    await reply(update, translate(locale_of(user), "You left the table."))


async def cancel_command(update: Update, context: Context) -> None:
    """/cancel: end the newest unfinished table here (its host, or a group admin)."""
    room, user, chat = context.bot_data, update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    locale = locale_of(user)
    tables = await tables_in_chat(room, chat.id)
    if not tables:
        await reply(update, translate(locale, "There is no table to cancel here."))
        return
    hosted = [t for t in tables if t.host_user_id == user.id]
    target = (hosted or tables)[0]
    is_admin = False
    if not hosted and is_group(chat):
        try:
            member = await context.bot.get_chat_member(chat.id, user.id)
            is_admin = member.status in (ChatMember.ADMINISTRATOR, ChatMember.OWNER)
        except TelegramError:
            is_admin = False
    if not hosted and not is_admin:
        await reply(update, translate(locale, "Only the host or a group admin can cancel a table."))
        return
    try:
        await room.service.abandon(target.id, user.id, is_admin=is_admin)
    except Refusal as refusal:
        await reply_refusal(update, refusal)


async def _chosen_table(update: Update, context: Context, *statuses: str) -> str | None:
    """The table named in the command, or the newest one of this chat; tells the sender when there is none."""
    room, chat = context.bot_data, update.effective_chat
    locale = locale_of(update.effective_user)
    if context.args:
        return context.args[0]
    tables = await tables_in_chat(room, chat.id, *statuses) if chat is not None else []
    if not tables:
        await reply(update, translate(locale, "There is no open table here; start one with /new."))
        return None
    return tables[0].id


async def join_button(update: Update, context: Context) -> None:
    """Join: take a free seat; someone the bot cannot write to yet is sent to its Start button."""
    pressed = await pressed_table(update, context)
    if pressed is None:
        return
    query, _found, info = pressed
    room, user = context.bot_data, query.from_user
    locale = locale_of(user)
    try:
        await room.service.join(info.id, user.id, display_name(user))
    except Refusal as refusal:
        await answer(query, refusal_text(refusal, locale), show_alert=True)
        return
    if await can_message(room, user.id):
        await answer(query, translate(locale, "You have a seat. I will message you when it is your turn."))
    else:
        await answer(query, url=room.links.table_deep(info.id))


async def leave_button(update: Update, context: Context) -> None:
    """Leave: free your seat in the lobby."""
    pressed = await pressed_table(update, context)
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
    pressed = await pressed_table(update, context)
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
    pressed = await pressed_table(update, context)
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
    """Rematch: a new lobby with the same game and settings, hosted by whoever pressed."""
    pressed = await pressed_table(update, context, SUMMARY)
    if pressed is None:
        return
    query, _found, info = pressed
    room, user = context.bot_data, query.from_user
    options = {**info.options, "players": info.size, "timer": info.timer}
    try:
        fresh = await room.service.create_table(info.game, user.id, display_name(user), options, chat_id=info.chat_id)
        await room.service.set_meta(fresh.id, LOCALE, await room.service.get_meta(info.id, LOCALE))
        if info.chat_id is not None and info.chat_id > 0:
            await room.service.start_game(fresh.id, user.id)
    except Refusal as refusal:
        await answer(query, refusal_text(refusal, locale_of(user)), show_alert=True)
        return
    await answer(query)


async def stray_button(update: Update, context: Context) -> None:
    """Any press whose data this bot does not send: say so, change nothing."""
    query = update.callback_query
    if query is not None:
        await answer(query, translate(locale_of(query.from_user), STRAY))
