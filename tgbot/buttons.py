"""Button presses: recognising a press, answering it once, and finding the table whose message it is on."""

from __future__ import annotations

import contextlib
from typing import Any

from telegram import CallbackQuery, Update
from telegram.error import TelegramError

from engine.core.errors import Refusal
from engine.i18n import N_, refusal_text
from engine.service.live import TableInfo
from tgbot.callbacks import Callback, Verb, parse
from tgbot.context import Context, locale_of
from tgbot.records import TABLE, Record
from tgbot.render import translate

STRAY = N_("That button is not one of mine, or it is out of date.")


def is_verb(*verbs: Verb) -> Any:
    """A CallbackQueryHandler pattern for well-formed data of these verbs."""
    def check(data: object) -> bool:
        found = parse(data) if isinstance(data, str) else None
        return found is not None and found.verb in verbs
    return check


async def answer(query: CallbackQuery, text: str | None = None, **kwargs: Any) -> None:
    """Answer a press once (a press that is never answered keeps its spinner)."""
    with contextlib.suppress(TelegramError):
        await query.answer(text, **kwargs)


async def pressed_table(update: Update, context: Context, purpose: str = TABLE
                        ) -> tuple[CallbackQuery, Callback, TableInfo] | None:
    """The press, its parsed data and its table, when the button really is on that table's message."""
    query = update.callback_query
    if query is None:
        return None
    locale = locale_of(query.from_user)
    found = parse(query.data)
    if found is None:
        await answer(query, translate(locale, STRAY))
        return None
    try:
        info = await context.bot_data.service.info(found.target)
    except Refusal as refusal:
        await answer(query, refusal_text(refusal, locale))
        return None
    records = context.bot_data.records
    if not _is_on(query, await records.get(info.id, purpose)):
        records.forget(info.id)  # another process may drive the table and have posted its message since this one read
        if not _is_on(query, await records.get(info.id, purpose)):
            await answer(query, translate(locale, "That button does not belong to this table's message."))
            return None
    return query, found, info


def _is_on(query: CallbackQuery, record: Record | None) -> bool:
    """Whether the pressed message is the one the record keeps."""
    if record is None:
        return False
    message = query.message
    if message is None:  # a table that lives in a message sent via the bot
        return query.inline_message_id is not None and query.inline_message_id == record.inline_id
    return (message.chat.id, message.message_id) == (record.chat_id, record.message_id)
