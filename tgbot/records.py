"""What the bot remembers about each table's messages, kept through the service's ``Chats``.

One record per purpose: ``home`` (the chat, forum topic and language the table's messages
go to, and who was invited), ``table`` (its lobby/status message), ``summary``,
``turn:<user id>`` (a person's open turn message), ``mention`` (the group's message naming someone
the bot may not write to, while their turn waits: ``tgbot.mentions``) and ``leftover:<user id>:<message id>`` (a
turn message the person's chat refused to let go while they had blocked the bot: swept once
they are back). Handlers read them (``BotState.records``; a group's new language is written
into its tables' homes); the notifier's passes write the rest, each of a table's two lanes
only its own purposes (the turn lane the ``turn:`` records and ``mention``, the table lane ``table`` and
``summary``; ``home`` is settled under a lock of its own; the sweeper only leftovers, each
its own message's), one change at a time, so no record is ever written from a stale copy.

A send is written down before it is made (state ``sending``); once Telegram answers,
the record holds the message id (``sent``). A send whose answer was lost is
``uncertain`` until the notifier finds out whether the message exists, so a retry
never posts a second copy.

A table whose invitation was sent from any chat through inline mode lives in that one message,
which is the sender's, not the bot's: its records carry the message's ``inline_message_id``
(``inline_id``) and no chat (``INLINE_CHAT``), and it is only ever edited by that id.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

from engine.service.chats import Chats

HOME, TABLE, SUMMARY = "home", "table", "summary"
SENDING, SENT, UNCERTAIN = "sending", "sent", "uncertain"
INLINE_CHAT = 0  # the chat of a record kept in an inline message: none the bot may name


def turn_purpose(user_id: int) -> str:
    """The purpose of a person's turn message."""
    return f"turn:{user_id}"


def leftover_purpose(user_id: int, message_id: int) -> str:
    """The purpose of a turn message of a person's that could not be removed and that a newer one replaced."""
    return f"leftover:{user_id}:{message_id}"


def purpose_person(purpose: str) -> int | None:
    """The person a turn message's or a leftover's purpose is about (None: a purpose of the table's own)."""
    kind, _, rest = purpose.partition(":")
    return int(rest.split(":", 1)[0]) if kind in ("turn", "leftover") and rest else None


@dataclass(frozen=True, slots=True)
class Record:
    """One message the bot keeps for a table (or, for ``home``, where its messages go)."""

    purpose: str
    chat_id: int
    thread_id: int | None = None
    message_id: int | None = None
    state: str = SENT
    data: dict[str, Any] = field(default_factory=dict)

    def but(self, **changes: Any) -> Record:
        """A copy with some fields changed."""
        return replace(self, **changes)

    @property
    def inline_id(self) -> str | None:
        """The inline_message_id of the message sent via the bot this record lives in, if it does."""
        found = self.data.get("inline")
        return found if isinstance(found, str) and found else None

    def posting(self, purpose: str) -> Record:
        """A new record of ``purpose`` where this home's messages go, before it is posted."""
        inline = self.inline_id
        return Record(purpose, self.chat_id, self.thread_id, None, SENDING, {"inline": inline} if inline else {})


def inline_home(inline_message_id: str, *, locale: str | None) -> Record:
    """The home of a table that lives in one message sent via the bot (an invitation from any chat)."""
    return Record(HOME, INLINE_CHAT, None, None, SENT, {"inline": inline_message_id, "locale": locale})


class Records:
    """The records of every table, cached after the first read; written through to the service's ``Chats``."""

    def __init__(self, chats: Chats) -> None:
        self.chats = chats
        self._tables: dict[str, dict[str, Record]] = {}

    async def of(self, table_id: str) -> dict[str, Record]:
        """A table's records by purpose (a copy)."""
        found = self._tables.get(table_id)
        if found is None:
            rows = await self.chats.messages_of_table(table_id)
            found = self._tables.setdefault(table_id, {
                r["purpose"]: Record(r["purpose"], r["chat_id"], r["thread_id"], r["message_id"], r["state"],
                                     r["data"]) for r in rows})
        return dict(found)

    async def get(self, table_id: str, purpose: str) -> Record | None:
        """One record, if there is one."""
        return (await self.of(table_id)).get(purpose)

    async def put(self, table_id: str, record: Record) -> None:
        """Store a record (replacing the one of its purpose)."""
        await self.of(table_id)
        await self.chats.keep_message(table_id, record.purpose, chat_id=record.chat_id, thread_id=record.thread_id,
                                      message_id=record.message_id, state=record.state, data=record.data)
        self._tables[table_id][record.purpose] = record

    async def drop(self, table_id: str, purpose: str) -> None:
        """Forget a record."""
        await self.of(table_id)
        if self._tables[table_id].pop(purpose, None) is not None:
            await self.chats.forget_message(table_id, purpose)

    def forget(self, table_id: str) -> None:
        """Drop a table's cache (it is read again from the store when next needed)."""
        self._tables.pop(table_id, None)


class Ledger:
    """Message ids the bot has seen in each chat (its own answers and the updates it got), newest few per chat.

    Message ids grow one by one in a chat, so after a send whose answer was lost the
    message, if Telegram posted it, has an id above the highest one seen before, and
    is not one of the ids the bot knows.
    """

    KEEP = 64

    def __init__(self) -> None:
        self._seen: dict[int, deque[int]] = {}
        self._top: dict[int, int] = {}

    def saw(self, chat_id: int, message_id: int) -> None:
        """A message with this id exists in the chat."""
        seen = self._seen.setdefault(chat_id, deque(maxlen=self.KEEP))
        seen.append(message_id)
        self._top[chat_id] = max(self._top.get(chat_id, 0), message_id)
        if len(self._seen) > 4096:
            oldest = next(iter(self._seen))
            self._seen.pop(oldest)
            self._top.pop(oldest, None)

    def top(self, chat_id: int) -> int:
        """The highest message id seen in the chat (0 when none)."""
        return self._top.get(chat_id, 0)

    def candidates(self, chat_id: int, after: int, count: int = 4) -> list[int]:
        """The first ``count`` ids above ``after`` that the bot has not seen."""
        seen = set(self._seen.get(chat_id, ()))
        found: list[int] = []
        message_id = after
        while len(found) < count:
            message_id += 1
            if message_id not in seen:
                found.append(message_id)
        return found

