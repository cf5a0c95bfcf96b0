"""Where each table's messages go: the chat, forum topic and language of the ``/new`` that opened it.

A group's table speaks the group's current language: an admin's ``/language`` there reaches
its open tables' next messages (``follow_language``).

A handler ``expect``s the table a person is about to open, so its home is known before it
exists; a rematch goes where its finished table's messages went; a group upgraded to a
supergroup takes its tables' homes along (their old group messages are left behind).

A table invited to from any chat (inline mode, or the Mini App's Share) lives in the one
message its invitation was sent in: ``live_inline`` gives it that home at once, kept through the
service with that message's id, so whichever process drives the table edits it there and
whichever gets a press on it finds its table; of two tables opened in one message at once
(a chosen result and a first Join reaching two processes), the first recorded keeps it. Its
rematch lives there too.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from engine.core.errors import Refusal
from engine.service.live import TableInfo
from tgbot.records import HOME, INLINE_CHAT, SENT, SUMMARY, TABLE, Record, Records, inline_home

KEEP_INLINE = 4096  # inline messages remembered with their table (an invitation's first presses find it here)


async def follow_language(records: Records, table_id: str, locale: str) -> bool:
    """A table's messages are in ``locale`` from the next one on (its group's new language); whether that changed."""
    home = await records.get(table_id, HOME)
    if home is None or home.inline_id is not None or home.data.get("locale") == locale:
        return False
    await records.put(table_id, home.but(data={**home.data, "locale": locale}))
    return True


class TableHomes:
    """Each table's home record, kept in the bot's own records."""

    def __init__(self, records: Records, table_info: Callable[[str], Awaitable[TableInfo]]) -> None:
        self.records = records
        self._table_info = table_info  # a table as it is now (raises Refusal when it is gone): a rematch's first
        self._hints: dict[tuple[int, int], Record] = {}  # (chat, host) -> the home of the table about to open
        self._inline_tables: OrderedDict[str, str] = OrderedDict()  # inline_message_id -> the table opened there
        self._locks: dict[str, asyncio.Lock] = {}  # per table: its two notifier lanes settle its home one at a time

    def expect(self, chat_id: int, host_id: int, *, thread_id: int | None, locale: str | None,
               title: str | None = None) -> None:
        """The next table ``host_id`` opens in ``chat_id`` lives in this topic and language (call first)."""
        self._hints[(chat_id, host_id)] = Record(HOME, chat_id, thread_id, None, SENT, {
            "locale": locale, "title": title})

    def unexpect(self, chat_id: int, host_id: int) -> None:
        """No table was opened after ``expect`` after all."""
        self._hints.pop((chat_id, host_id), None)

    async def live_inline(self, table_id: str, inline_message_id: str, *, locale: str | None) -> str:
        """The table lives in this message sent via the bot from now on, unless another table was opened there first
        (by any process): the table that lives there.

        Written at once, before any pass of the table's (it has no home yet, so no lane writes one meanwhile).
        """
        lives = await self.records.chats.open_in_inline(table_id, inline_message_id)
        if lives == table_id:
            await self.records.put(table_id, inline_home(inline_message_id, locale=locale))
        self._remember(inline_message_id, lives)
        return lives

    async def inline_table(self, inline_message_id: str) -> str | None:
        """The table opened in this inline message, by any process."""
        known = self._inline_tables.get(inline_message_id)
        if known is None:
            known = await self.records.chats.table_in_inline(inline_message_id)
            if known is not None:
                self._remember(inline_message_id, known)
        return known

    def _remember(self, inline_message_id: str, table_id: str) -> None:
        self._inline_tables[inline_message_id] = table_id
        self._inline_tables.move_to_end(inline_message_id)
        while len(self._inline_tables) > KEEP_INLINE:
            self._inline_tables.popitem(last=False)

    def chat_migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: a table about to open there opens in the new chat (in its General topic)."""
        for (chat, host), hint in list(self._hints.items()):
            if chat == old_chat_id:
                self._hints[(new_chat_id, host)] = hint.but(chat_id=new_chat_id, thread_id=None)

    async def home(self, table_id: str) -> Record | None:
        """Where a table's messages go, once known."""
        return await self.records.get(table_id, HOME)

    async def home_of(self, info: TableInfo) -> Record | None:
        """Where the table's messages go, settled on first sight (by one caller at a time): the topic and language
        /new was sent in; follows a migrated group. A table of no chat lives in an inline message, if any."""
        lock = self._locks.get(info.id)
        if lock is None:
            if len(self._locks) > 1024:
                for old in [t for t, held in self._locks.items() if not held.locked()]:
                    del self._locks[old]
            lock = self._locks[info.id] = asyncio.Lock()
        async with lock:
            return await self._home_of(info)

    async def _home_of(self, info: TableInfo) -> Record | None:
        if info.chat_id is None:
            return await self._inline_home_of(info)
        home = await self.records.get(info.id, HOME)
        if home is None:
            hint = self._hints.pop((info.chat_id, info.host_user_id), None)
            home = hint or await self._rematch_home(info) or Record(HOME, info.chat_id)
            await self.records.put(info.id, home)
        elif home.chat_id != info.chat_id:  # the group was upgraded to a supergroup: start over there
            home = home.but(chat_id=info.chat_id, thread_id=None)
            await self.records.put(info.id, home)
            for purpose in (TABLE, SUMMARY):
                await self.records.drop(info.id, purpose)
        return home

    async def _inline_home_of(self, info: TableInfo) -> Record | None:
        """The inline message a table of no chat lives in: settled before, or its finished table's (a rematch)."""
        home = await self.records.get(info.id, HOME)
        if home is None and info.rematch_of is not None:
            home = await self._rematch_home(info)
            if home is not None:
                await self.records.put(info.id, home)
        return home if home is not None and home.inline_id is not None else None

    async def _rematch_home(self, info: TableInfo) -> Record | None:
        """A rematch goes where its finished table's messages went (topic, language), inviting everyone who played.

        Derived here, not told by whoever opened it, so a rematch opened from the Mini App is posted alike.
        """
        if info.rematch_of is None:
            return None
        before = await self.records.get(info.rematch_of, HOME)
        inline = before.inline_id if before is not None else None
        if info.chat_id is None and inline is None:
            return None
        try:
            played = await self._table_info(info.rematch_of)
        except Refusal:  # the finished table is gone from the store: nobody to invite
            return None
        invited = [[s.user_id, s.name] for s in played.seats if s.user_id not in (None, info.host_user_id)]
        data = before.data if before is not None else {}
        if inline is not None:  # the rematch's lobby takes the place of the summary in that message
            return Record(HOME, INLINE_CHAT, None, None, SENT,
                          {"inline": inline, "locale": data.get("locale"), "invited": invited})
        assert info.chat_id is not None
        thread = before.thread_id if before is not None and before.chat_id == info.chat_id else None
        return Record(HOME, info.chat_id, thread, None, SENT,
                      {"locale": data.get("locale"), "title": data.get("title"), "invited": invited})
