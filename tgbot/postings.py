"""The bot's kept messages, posted, edited and deleted through Telegram, each call written down first.

Every message the bot keeps up to date has a record (``tgbot.records``) stored before
the call that posts it and completed after. When Telegram's answer to a post is lost,
``settle`` finds out whether the message arrived before the post is tried again, so
nobody gets a message twice. Edits skip what a message already shows. A chat that
refuses the bot (blocked, removed from a group) is reported to ``on_refused``; a group
upgraded to a supergroup to ``on_migrated``, and the table whose post went there is
handed to ``repost``, so a pass of its own posts it where the table now lives.

Every call is handed its place in the bot's budget (a ``tgbot.priority.Call``: lane, order,
whether it is still wanted) by the caller, and passes it on as the call's ``rate_limit_args``.
A call the rate limiter drops while it waits (``tgbot.limits.Dropped``: no longer wanted) is
as if never made: its record is dropped. ``Sweeper`` removes messages in the background at
cleanup's priority, several of one chat in one ``deleteMessages`` call.

A record kept in an inline message (``Record.inline_id``: a table invited to from any chat)
is never sent nor deleted: that message is its sender's, so "posting" there is an edit by
its inline_message_id, and deleting it only forgets it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from telegram import InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter

from tgbot.limits import Dropped
from tgbot.priority import CLEANUP, STATUS, Call
from tgbot.records import SENDING, SENT, UNCERTAIN, Ledger, Record, Records, leftover_purpose, purpose_person

log = logging.getLogger(__name__)


class MessageBot(Protocol):
    """The Bot API calls the postings make (``telegram.ext.ExtBot`` has them)."""

    async def send_message(self, chat_id: int, text: str, *, parse_mode: str | None,
                           reply_markup: InlineKeyboardMarkup | None, disable_web_page_preview: bool | None,
                           message_thread_id: int | None, rate_limit_args: Call | None = None) -> Message:
        """Post a message."""

    async def edit_message_text(self, text: str, chat_id: int | None = None, message_id: int | None = None,
                                inline_message_id: str | None = None, *, parse_mode: str | None,
                                reply_markup: InlineKeyboardMarkup | None,
                                disable_web_page_preview: bool | None, rate_limit_args: Call | None = None) -> object:
        """Change a message's text and keyboard (a message sent via the bot: by its ``inline_message_id``)."""

    async def edit_message_reply_markup(self, chat_id: int, message_id: int, *,
                                        reply_markup: InlineKeyboardMarkup | None,
                                        rate_limit_args: Call | None = None) -> object:
        """Change a message's keyboard."""

    async def delete_message(self, chat_id: int, message_id: int, *, rate_limit_args: Call | None = None) -> object:
        """Delete a message."""


class Postings:
    """Posts, edits and deletes the bot's kept messages, each written down first."""

    def __init__(self, bot: MessageBot, records: Records, ledger: Ledger, *,
                 on_refused: Callable[[int], Awaitable[None]],
                 on_migrated: Callable[[int, int], Awaitable[None]],
                 repost: Callable[[str], None]) -> None:
        self.bot = bot
        self.records = records
        self.ledger = ledger
        self._on_refused = on_refused  # Telegram refused the bot a chat (a person blocked it, or a group removed it)
        self._on_migrated = on_migrated  # a group became a supergroup: (old chat, new chat)
        self._repost = repost  # a table's post went to a group that moved: bring its messages up to date
        self._gone: set[int] = set()  # groups the bot was removed from: their tables say nothing there
        self._shown: dict[tuple[int, int], str] = {}  # (chat, message) -> what it shows now
        self._shown_inline: dict[str, str] = {}  # inline_message_id -> what it shows now

    async def refused(self, chat_id: int) -> None:
        """Telegram refused the bot a chat."""
        await self._on_refused(chat_id)

    def is_gone(self, chat_id: int) -> bool:
        """Whether the bot was removed from this chat (nothing is posted there)."""
        return chat_id in self._gone

    def chat_gone(self, chat_id: int) -> None:
        """The bot was removed from a group: post nothing there."""
        self._gone.add(chat_id)

    def chat_back(self, chat_id: int) -> bool:
        """The bot may post in the chat again; whether it had been removed from it."""
        if chat_id not in self._gone:
            return False
        self._gone.discard(chat_id)
        return True

    async def send(self, table_id: str, record: Record, text: str, markup: InlineKeyboardMarkup | None, *,
                   call: Call = STATUS) -> Record | None:
        """Post a message for ``record``'s purpose; the record is stored before the call and completed after it."""
        chat_id = record.chat_id
        if record.inline_id is not None:
            return await self._send_inline(table_id, record, text, markup, call)
        if chat_id in self._gone:
            return None
        shown = shown_key(text, markup)
        pending = record.but(state=SENDING, data={**record.data, "after": self.ledger.top(chat_id),
                                                  "markup": markup.to_dict() if markup else None})
        await self.records.put(table_id, pending)
        try:
            message: Message = await self.bot.send_message(
                chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup, disable_web_page_preview=True,
                message_thread_id=record.thread_id, rate_limit_args=call)
        except (RetryAfter, Dropped) as error:
            await self.records.drop(table_id, record.purpose)
            if isinstance(error, Dropped):
                return None
            raise
        except ChatMigrated as error:
            await self.records.drop(table_id, record.purpose)
            await self._on_migrated(chat_id, int(error.new_chat_id))
            # posted in the new chat by a pass of its own, which reads the table where it now lives: a table
            # that ended before the bot heard of the upgrade still says so there (nothing else would move it)
            self._repost(table_id)
            return None
        except Forbidden:
            await self.records.drop(table_id, record.purpose)
            await self._on_refused(chat_id)
            return None
        except BadRequest as error:
            await self.records.drop(table_id, record.purpose)
            log.warning("could not send to chat %s: %s", chat_id, error)
            return None
        except NetworkError:  # the answer was lost: the message may or may not exist
            uncertain = pending.but(state=UNCERTAIN)
            await self.records.put(table_id, uncertain)
            found = await self.settle(table_id, uncertain, call=call)
            if found is None:
                raise  # it was not posted: the pass is tried again
            return found
        self._shown[(chat_id, message.message_id)] = shown
        done = pending.but(state=SENT, message_id=message.message_id)
        await self.records.put(table_id, done)
        return done

    async def _send_inline(self, table_id: str, record: Record, text: str, markup: InlineKeyboardMarkup | None,
                           call: Call) -> Record | None:
        """"Post" in an inline message: it exists already, so it is edited to say this."""
        pending = record.but(state=SENDING)
        await self.records.put(table_id, pending)
        try:
            shown = await self._edit_inline(pending, text, markup, call)
        except RetryAfter:
            await self.records.drop(table_id, record.purpose)
            raise
        if not shown:
            await self.records.drop(table_id, record.purpose)
            return None
        done = pending.but(state=SENT)
        await self.records.put(table_id, done)
        return done

    async def _edit_inline(self, record: Record, text: str, markup: InlineKeyboardMarkup | None, call: Call) -> bool:
        """Edit an inline message by its id unless it already shows this; False when Telegram will not."""
        inline_id = record.inline_id
        shown = shown_key(text, markup)
        if inline_id is None:
            return False
        if self._shown_inline.get(inline_id) == shown:
            return True
        try:
            await self.bot.edit_message_text(text, inline_message_id=inline_id, parse_mode=ParseMode.HTML,
                                             reply_markup=markup, disable_web_page_preview=True, rate_limit_args=call)
        except BadRequest as error:
            if "not modified" not in error.message.lower():
                log.info("inline message %s cannot be edited: %s", inline_id, error)
                self._shown_inline.pop(inline_id, None)
                return False
        except Forbidden as error:  # the bot may not edit it (never expected: it is not a chat of the bot's)
            log.info("inline message %s cannot be edited: %s", inline_id, error)
            return False
        self._shown_inline[inline_id] = shown
        return True

    async def settle(self, table_id: str, record: Record, *, call: Call = STATUS) -> Record | None:
        """Find out whether a send whose answer was lost was posted; the record as it is then (None: it was not).

        Finding out is never stale, whatever the send it follows was waiting for: ``call``'s lane and order only."""
        if record.inline_id is not None:  # the inline message exists whatever the edit did: the next edit says all
            self._shown_inline.pop(record.inline_id, None)
            settled = record.but(state=SENT)
            await self.records.put(table_id, settled)
            return settled
        call = Call(call.lane, call.order)
        chat_id, after = record.chat_id, int(record.data.get("after") or 0)
        raw = record.data.get("markup")
        markup = InlineKeyboardMarkup.de_json(raw, None) if raw else None
        for candidate in self.ledger.candidates(chat_id, after):
            try:  # the lost message has exactly this keyboard: Telegram says "not modified" only for it
                await self.bot.edit_message_reply_markup(chat_id, candidate, reply_markup=markup, rate_limit_args=call)
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

    async def edit(self, record: Record, text: str, markup: InlineKeyboardMarkup | None, *,
                   call: Call = STATUS) -> bool:
        """Edit a message unless it already shows this; False when it is gone."""
        if record.inline_id is not None:
            return await self._edit_inline(record, text, markup, call)
        chat_id, message_id = record.chat_id, record.message_id
        if message_id is None or chat_id in self._gone:
            return chat_id in self._gone
        shown = shown_key(text, markup)
        if self._shown.get((chat_id, message_id)) == shown:
            return True
        try:
            await self.bot.edit_message_text(text, chat_id, message_id, parse_mode=ParseMode.HTML,
                                             reply_markup=markup, disable_web_page_preview=True, rate_limit_args=call)
        except Dropped:  # superseded while it waited: a newer edit says more
            return True
        except ChatMigrated as error:
            await self._on_migrated(chat_id, int(error.new_chat_id))
            return True
        except Forbidden:
            await self._on_refused(chat_id)
            return True
        except BadRequest as error:
            if "not modified" not in error.message.lower():
                log.info("message %s in chat %s cannot be edited: %s", message_id, chat_id, error)
                self._shown.pop((chat_id, message_id), None)
                return False
        self._shown[(chat_id, message_id)] = shown
        return True

    async def delete(self, record: Record, over: str, *, call: Call = CLEANUP) -> bool:
        """Delete a message; one already gone counts as deleted, and one too old to delete (48 hours) is edited
        to ``over`` instead, so it no longer says what is past. False: try again later.

        An inline message is its sender's: it stays as the table last showed it (its summary, once over)."""
        if record.message_id is None or record.inline_id is not None:
            return True
        try:
            await self.bot.delete_message(record.chat_id, record.message_id, rate_limit_args=call)
        except Forbidden:  # blocked, or removed from the group: deleted once they are back
            await self._on_refused(record.chat_id)
            return False
        except (BadRequest, ChatMigrated) as error:  # RetryAfter and lost answers are tried again
            log.info("could not delete message %s in chat %s: %s", record.message_id, record.chat_id, error)
            if isinstance(error, BadRequest) and "can't be deleted" in error.message:
                await self.edit(record, over, None, call=Call(call.lane, call.order))
        self._shown.pop((record.chat_id, record.message_id), None)
        return True


class DeletingBot(Protocol):
    """The Bot API calls the sweeper makes."""

    async def delete_message(self, chat_id: int, message_id: int, *, rate_limit_args: Call | None = None) -> object:
        """Delete a message."""

    async def delete_messages(self, chat_id: int, message_ids: list[int], *,
                              rate_limit_args: Call | None = None) -> object:
        """Delete up to 100 messages of one chat."""


class Sweeper:
    """Removes messages in the background, lowest priority first served last; several of one chat in one call."""

    BATCH = 100  # deleteMessages takes up to 100 ids

    def __init__(self, bot: DeletingBot, postings: Postings) -> None:
        self.bot = bot
        self.postings = postings
        self._waiting: dict[int, dict[int, tuple[str, Record, str]]] = {}  # chat -> message -> (table, record, over)
        self._workers: dict[int, asyncio.Task[None]] = {}
        self.calls = 0

    async def sweep(self, table_id: str, record: Record, over: str) -> None:
        """Remove the record's message soon (its record is already forgotten; kept again if the chat refuses)."""
        if record.message_id is None or record.inline_id is not None:
            return
        self._waiting.setdefault(record.chat_id, {})[record.message_id] = (table_id, record, over)
        if record.chat_id not in self._workers:
            self._workers[record.chat_id] = asyncio.get_running_loop().create_task(
                self._drain(record.chat_id), name=f"sweep-{record.chat_id}")

    @property
    def busy(self) -> bool:
        """Whether removals are waiting or on their way."""
        return bool(self._workers)

    async def idle(self) -> None:
        """Wait until every removal asked for so far is made."""
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

    async def close(self) -> None:
        """Stop; removals still waiting are dropped."""
        self._waiting.clear()
        workers = list(self._workers.values())
        self._workers.clear()
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)

    async def _drain(self, chat_id: int) -> None:
        try:
            while waiting := self._waiting.get(chat_id):
                ids = list(waiting)[:self.BATCH]
                batch = [waiting.pop(i) for i in ids]
                try:
                    await self._delete(chat_id, ids, batch)
                except Exception:
                    log.exception("could not remove %d messages in chat %s", len(ids), chat_id)
        finally:
            if not self._waiting.get(chat_id):
                self._waiting.pop(chat_id, None)
            if self._workers.get(chat_id) is asyncio.current_task():
                del self._workers[chat_id]

    async def _delete(self, chat_id: int, ids: list[int], batch: list[tuple[str, Record, str]]) -> None:
        for attempt in range(5):
            try:
                if len(batch) == 1:
                    _table_id, record, over = batch[0]
                    self.calls += 1
                    if not await self.postings.delete(record, over, call=CLEANUP):
                        await self._keep(batch)
                    return
                self.calls += 1
                await self.bot.delete_messages(chat_id, ids, rate_limit_args=CLEANUP)
                return
            except Forbidden:
                await self.postings.refused(chat_id)
                await self._keep(batch)
                return
            except BadRequest as error:  # some cannot be deleted (too old): one at a time, each as it can be
                log.info("could not delete %d messages in chat %s at once: %s", len(ids), chat_id, error)
                for _table_id, record, over in batch:
                    await self.postings.delete(record, over, call=CLEANUP)
                return
            except RetryAfter as error:
                await asyncio.sleep(retry_seconds(error.retry_after))
            except NetworkError:
                await asyncio.sleep(0.5 * 2 ** attempt)


    async def _keep(self, batch: list[tuple[str, Record, str]]) -> None:
        """The chat refused: each message is kept as a leftover of its person's (their turn pass sweeps it once they
        are back). Never under its old purpose: that one is the turn lane's own, which may be posting a newer one."""
        for table_id, record, _over in batch:
            user_id = purpose_person(record.purpose)
            if user_id is None or record.message_id is None:
                log.info("message %s in chat %s is left as it is", record.message_id, record.chat_id)
                continue
            await self.postings.records.put(table_id, record.but(purpose=leftover_purpose(user_id, record.message_id)))


def shown_key(text: str, markup: InlineKeyboardMarkup | None) -> str:
    """What a message shows, as one string to compare."""
    return text + "\x00" + ("" if markup is None else repr(markup.to_dict()))


def retry_seconds(after: Any) -> float:
    """Telegram's ``retry_after`` in seconds (a number, or a timedelta in newer versions)."""
    return float(after.total_seconds()) if hasattr(after, "total_seconds") else float(after)
