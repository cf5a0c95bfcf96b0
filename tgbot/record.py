"""The record in chats: ``/top [game]`` shows a group's leaderboard, ``/history`` a player's last games."""

from __future__ import annotations

from datetime import UTC, datetime

from telegram import Update

from engine import games
from engine.core.errors import Refusal
from tgbot.arguments import game_name
from tgbot.context import Context, display_name, is_group, locale_of, reply, reply_refusal
from tgbot.render import render

HISTORY_SHOWN = 10


async def top_command(update: Update, context: Context) -> None:
    """/top [game] in a group: the ratings of the group's players of that game (Coins by default)."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    store = context.bot_data.service.store
    locale = (await store.chat_language(chat.id) if is_group(chat) else None) or locale_of(user)
    try:
        game = game_name(context.args[0]) if context.args else "coins"
        board = await context.bot_data.service.record.leaderboard(chat.id, game) if is_group(chat) else []
    except Refusal as refusal:
        await reply_refusal(update, context, refusal)
        return
    await reply(update, render("top.html", locale, game=games.get(game).title, board=board,
                               group=is_group(chat)))


async def history_command(update: Update, context: Context) -> None:
    """/history: the player's last finished games, each with its replay link."""
    user = update.effective_user
    if user is None:
        return
    found = await context.bot_data.service.record.history(user.id, HISTORY_SHOWN)
    links = context.bot_data.links
    rows = []
    for game in found:
        mine = next(s for s in game["seats"] if s["you"])
        others = [s["name"] for s in game["seats"] if not s["you"]]
        when = datetime.fromtimestamp(game["finished_at"], UTC).strftime("%Y-%m-%d")
        rows.append({"date": when, "title": games.get(game["game"]).title, "place": mine["placement"],
                     "others": ", ".join(others), "replay": links.replay(game["table_id"])})
    await reply(update, render("history.html", locale_of(user), player=display_name(user), rows=rows),
                disable_web_page_preview=True)
