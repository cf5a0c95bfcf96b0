"""At a day's close, the deal of the day's standings go to each group where two or more of its members played it.

The table service says which groups have news of the last closed day (``Daily.closed_day_news``: only groups
with two or more players, not yet told) and lets one sender claim each group's message, whichever process asks;
this part renders it in the group's language (names isolated) and sends it through the bot's budget at the
status lane, once. A job of the bot's job queue looks every few minutes, so a message goes soon after midnight UTC.
A person's own result line goes to any chat as a prepared inline message (``result_message``).
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import Bot, InlineQueryResultArticle, InputTextMessageContent
from telegram.constants import ParseMode
from telegram.error import TelegramError

from engine import games
from engine.service.tables import TableService
from tgbot.context import Context
from tgbot.priority import STATUS
from tgbot.render import render

log = logging.getLogger(__name__)
CHECK_EVERY = 300.0  # seconds between looks for a closed day's news
FIRST_CHECK = 30.0  # seconds after start-up before the first look


def result_message(game: str, line: str) -> InlineQueryResultArticle:
    """A person's result line as a message they can send to any chat (no card in it; no button, so no table)."""
    return InlineQueryResultArticle(id=f"daily:{game}", title=line, input_message_content=InputTextMessageContent(line))


async def send_closed_day(service: TableService, bot: Bot) -> int:
    """Send each group its message of the last closed day, once; how many went."""
    sent = 0
    for news in await service.daily.closed_day_news():
        if not await service.daily.claim_news(news.chat_id, news.day):
            continue  # another process (or an earlier look) took it
        locale = await service.chats.language(news.chat_id)
        text = render("daily.html", locale, day=news.day.isoformat(),
                      games=[(games.get(game).title, rows) for game, rows in news.games])
        try:
            send: Any = bot.send_message
            await send(news.chat_id, text, parse_mode=ParseMode.HTML, rate_limit_args=STATUS)
            sent += 1
        except TelegramError as error:
            log.warning("the deal of the day's standings did not reach chat %s: %s", news.chat_id, error)
    return sent


async def closed_day_job(context: Context) -> None:
    """The job queue's look for a closed day's news."""
    await send_closed_day(context.bot_data.service, context.bot)


def schedule_closed_day(application: Any) -> None:
    """Register the look with the bot's job queue (none without the job-queue extra: nothing is sent then)."""
    if application.job_queue is not None:
        application.job_queue.run_repeating(closed_day_job, interval=CHECK_EVERY, first=FIRST_CHECK,
                                            name="daily-close")
