"""The bot's kept messages, posted, edited and deleted through Telegram, each call written down first.

Every message the bot keeps up to date has a record (``tgbot.records``) stored before
the call that posts it and completed after. When Telegram's answer to a post is lost,
``_settle`` finds out whether the message arrived before the post is tried again, so
nobody gets a message twice. Edits skip what a message already shows. A chat that
refuses the bot (blocked, removed from a group, upgraded to a supergroup) is handed to
the subclass: ``_refused`` and ``chat_migrated``.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import Any

from telegram import InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter
from telegram.ext import ExtBot

from tgbot.records import SENDING, SENT, UNCERTAIN, Ledger, Record, Records

log = logging.getLogger(__name__)


class Postings(ABC):
    """Posts, edits and deletes the bot's kept messages, each written down first."""

    def __init__(self, bot: ExtBot[None], records: Records) -> None:
        self.bot = bot
        self.records = records
        self.ledger = Ledger()
        self.gone_chats: set[int] = set()  # groups the bot was removed from: their tables say nothing there
        self._shown: dict[tuple[int, int], str] = {}  # (chat, message) -> what it shows now

    @abstractmethod
    async def chat_migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup."""

    @abstractmethod
    async def _refused(self, chat_id: int) -> None:
        """Telegram refused the bot a chat (a person blocked it, or a group removed it)."""

    @abstractmethod
    def refresh(self, table_id: str) -> None:
        """Bring the table's messages up to date now."""


    async def _send(self, table_id: str, record: Record, text: str,
                    markup: InlineKeyboardMarkup | None) -> Record | None:
        """Post a message for ``record``'s purpose; the record is stored before the call and completed after it."""
        chat_id = record.chat_id
        if chat_id in self.gone_chats:
            return None
        shown = shown_key(text, markup)
        pending = record.but(state=SENDING, data={**record.data, "after": self.ledger.top(chat_id),
                                                  "markup": markup.to_dict() if markup else None})
        await self.records.put(table_id, pending)
        try:
            message: Message = await self.bot.send_message(
                chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup, disable_web_page_preview=True,
                message_thread_id=record.thread_id)
        except RetryAfter:
            await self.records.drop(table_id, record.purpose)
            raise
        except ChatMigrated as error:
            await self.records.drop(table_id, record.purpose)
            await self.chat_migrated(chat_id, int(error.new_chat_id))
            # posted in the new chat by a pass of its own, which reads the table where it now lives: a table
            # that ended before the bot heard of the upgrade still says so there (nothing else would move it)
            self.refresh(table_id)
            return None
        except Forbidden:
            await self.records.drop(table_id, record.purpose)
            await self._refused(chat_id)
            return None
        except BadRequest as error:
            await self.records.drop(table_id, record.purpose)
            log.warning("could not send to chat %s: %s", chat_id, error)
            return None
        except NetworkError:  # the answer was lost: the message may or may not exist
            uncertain = pending.but(state=UNCERTAIN)
            await self.records.put(table_id, uncertain)
            found = await self._settle(table_id, uncertain)
            if found is None:
                raise  # it was not posted: the pass is tried again
            return found
        self._shown[(chat_id, message.message_id)] = shown
        done = pending.but(state=SENT, message_id=message.message_id)
        await self.records.put(table_id, done)
        return done

    async def _settle(self, table_id: str, record: Record) -> Record | None:
        """Find out whether a send whose answer was lost was posted; the record as it is then (None: it was not)."""
        chat_id, after = record.chat_id, int(record.data.get("after") or 0)
        raw = record.data.get("markup")
        markup = InlineKeyboardMarkup.de_json(raw, self.bot) if raw else None
        for candidate in self.ledger.candidates(chat_id, after):
            try:  # the lost message has exactly this keyboard: Telegram says "not modified" only for it
                await self.bot.edit_message_reply_markup(chat_id, candidate, reply_markup=markup)
            except BadRequest as error:
                said = error.message.lower()
                if "not modified" in said:
                    break
                if "can't be edited" in said:  # someone else's message
                    continue
                await self.records.drop(table_id, record.purpose)  # nothing there: the send never arrived
                return None
            except Forbidden:
                await self.records.drop(table_id, record.purpose)
                return None
            break  # an edit went through: only a message of ours nobody saw can take it
        else:
            await self.records.drop(table_id, record.purpose)
            return None
        self.ledger.saw(chat_id, candidate)
        found = record.but(state=SENT, message_id=candidate)
        await self.records.put(table_id, found)
        return found

    async def _edit(self, record: Record, text: str, markup: InlineKeyboardMarkup | None) -> bool:
        """Edit a message unless it already shows this; False when it is gone."""
        chat_id, message_id = record.chat_id, record.message_id
        if message_id is None or chat_id in self.gone_chats:
            return chat_id in self.gone_chats
        shown = shown_key(text, markup)
        if self._shown.get((chat_id, message_id)) == shown:
            return True
        try:
            await self.bot.edit_message_text(text, chat_id, message_id, parse_mode=ParseMode.HTML,
                                             reply_markup=markup, disable_web_page_preview=True)
        except ChatMigrated as error:
            await self.chat_migrated(chat_id, int(error.new_chat_id))
            return True
        except Forbidden:
            await self._refused(chat_id)
            return True
        except BadRequest as error:
            if "not modified" not in error.message.lower():
                log.info("message %s in chat %s cannot be edited: %s", message_id, chat_id, error)
                self._shown.pop((chat_id, message_id), None)
                return False
        self._shown[(chat_id, message_id)] = shown
        return True

    async def _delete(self, record: Record, over: str) -> bool:
        """Delete a message; one already gone counts as deleted, and one too old to delete (48 hours) is edited
        to ``over`` instead, so it no longer says what is past. False: try again later."""
        if record.message_id is None:
            return True
        try:
            await self.bot.delete_message(record.chat_id, record.message_id)
        except Forbidden:  # blocked, or removed from the group: deleted once they are back
            await self._refused(record.chat_id)
            return False
        except (BadRequest, ChatMigrated) as error:  # RetryAfter and lost answers are tried again
            log.info("could not delete message %s in chat %s: %s", record.message_id, record.chat_id, error)
            if isinstance(error, BadRequest) and "can't be deleted" in error.message:
                await self._edit(record, over, None)
        self._shown.pop((record.chat_id, record.message_id), None)
        return True


def shown_key(text: str, markup: InlineKeyboardMarkup | None) -> str:
    """What a message shows, as one string to compare."""
    return text + "\x00" + ("" if markup is None else repr(markup.to_dict()))


def retry_seconds(after: Any) -> float:
    """Telegram's ``retry_after`` in seconds (a number, or a timedelta in newer versions)."""
    return float(after.total_seconds()) if hasattr(after, "total_seconds") else float(after)
