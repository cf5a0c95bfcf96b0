"""The record in chats: ``/top [game]`` shows a group's leaderboard, ``/history`` a player's last games (in private)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update

from engine import games
from engine.catalogue import headline_setting
from engine.core.errors import Refusal
from engine.service.rating_scale import PROVISIONAL_GAMES
from tgbot.arguments import game_name
from tgbot.context import Context, display_name, is_group, is_private, locale_of, reply, reply_refusal
from tgbot.links import HISTORY_PAYLOAD
from tgbot.render import render, translate

HISTORY_SHOWN = 10


async def top_command(update: Update, context: Context) -> None:
    """/top [game] in a group: the ratings of the group's players of that game (Coins by default), "1500?" while
    provisional."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    chats = context.bot_data.service.chats
    locale = (await chats.language(chat.id) if is_group(chat) else None) or locale_of(user)
    try:
        game = game_name(context.args[0]) if context.args else "coins"
        board = await context.bot_data.service.record.leaderboard(chat.id, game) if is_group(chat) else []
    except Refusal as refusal:
        await reply_refusal(update, context, refusal)
        return
    await reply(update, render("top.html", locale, game=games.get(game).title, board=board,
                               group=is_group(chat), provisional_games=PROVISIONAL_GAMES))


async def history_command(update: Update, context: Context) -> None:
    """/history: in private, the player's last finished games; in a group, a button to see them in private."""
    user = update.effective_user
    if user is None:
        return
    if not is_private(update.effective_chat):
        locale = locale_of(user)
        button = InlineKeyboardButton(translate(locale, "My games"), url=context.bot_data.links.deep(HISTORY_PAYLOAD))
        await reply(update, translate(locale, "I show your games in a private chat, not here."),
                    reply_markup=InlineKeyboardMarkup([[button]]))
        return
    await history_deeplink(update, context)


async def history_deeplink(update: Update, context: Context) -> None:
    """``?start=history`` (and /history in private): the player's last games, each with its replay link."""
    user = update.effective_user
    if user is None or not is_private(update.effective_chat):
        return
    found = await context.bot_data.service.record.history(user.id, HISTORY_SHOWN)
    links = context.bot_data.links
    rows = []
    for game in found:
        when = datetime.fromtimestamp(game["finished_at"], UTC).strftime("%Y-%m-%d")
        seats = sorted(game["seats"], key=lambda s: (s["placement"], s["seat"]))
        rows.append({"date": when, "title": games.get(game["game"]).title, "variant": variant(game),
                     "seats": seats, "replay": links.replay(game["table_id"])})
    await reply(update, render("history.html", locale_of(user), player=display_name(user), rows=rows),
                disable_web_page_preview=True)


def variant(game: dict[str, Any]) -> tuple[str, str, Any] | None:
    """The setting that tells a game's variant apart (the Mini App's history shows the same): label, name, value."""
    setting = headline_setting(game["game"])  # the game's headline, as the Mini App's history shows it
    if setting is None:
        return None
    return setting.label, setting.name, game["options"].get(setting.name, setting.default)
