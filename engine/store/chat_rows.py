"""Chats in the store: the languages groups chose, the bot's message records and the rematch links between tables."""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from engine.store.plain_text import plain_text
from engine.store.schema import (
    bot_messages,
    chat_languages,
    rematches,
)
from engine.store.writer import Writer


class ChatRows:
    """A group's chosen language, the bot's own records and the rematch links."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer

    async def rematch_of(self, table_id: str) -> str | None:
        """The table a finished table's rematch was opened as, if any."""
        async with self._writer.engine.connect() as conn:
            found = await conn.execute(select(rematches.c.rematch_id).where(rematches.c.table_id == table_id))
            return found.scalar_one_or_none()

    async def link_rematch(self, table_id: str, rematch_id: str) -> str:
        """Record ``rematch_id`` as the rematch of ``table_id``; the one already recorded wins."""
        async def work(conn: Any) -> None:
            await conn.execute(insert(rematches).values(table_id=table_id, rematch_id=rematch_id,
                                                        created_at=time.time()))

        try:
            await self._writer.write(work)
        except IntegrityError:
            existing = await self.rematch_of(table_id)
            if existing is None:
                raise
            return existing
        return rematch_id

    async def bot_messages(self, table_id: str) -> list[dict[str, Any]]:
        """Every record the bot keeps for a table."""
        return await self._bot_messages(bot_messages.c.table_id == table_id)

    async def bot_messages_in_chat(self, chat_id: int) -> list[dict[str, Any]]:
        """Every record the bot keeps in a chat."""
        return await self._bot_messages(bot_messages.c.chat_id == chat_id)

    async def _bot_messages(self, where: Any) -> list[dict[str, Any]]:
        async with self._writer.engine.connect() as conn:
            rows = (await conn.execute(select(bot_messages).where(where))).mappings().all()
        return [{**row, "data": json.loads(row["data"])} for row in rows]

    async def put_bot_message(self, table_id: str, purpose: str, *, chat_id: int, thread_id: int | None,
                              message_id: int | None, state: str, data: dict[str, Any] | None = None) -> None:
        """Create or replace one of the bot's records."""
        values = {"chat_id": chat_id, "thread_id": thread_id, "message_id": message_id, "state": state,
                  "data": json.dumps(data or {}), "updated_at": time.time()}
        where = (bot_messages.c.table_id == table_id) & (bot_messages.c.purpose == purpose)

        async def work(conn: Any) -> None:
            done = await conn.execute(update(bot_messages).where(where).values(**values))
            if done.rowcount == 0:
                await conn.execute(insert(bot_messages).values(table_id=table_id, purpose=purpose, **values))

        await self._writer.write(work)

    async def bind_inline(self, table_id: str, purpose: str, inline_id: str) -> str:
        """Record that ``table_id`` was opened in the message sent via the bot ``inline_id`` (a record of ``purpose``);
        the table recorded first there wins, and is returned."""
        async def work(conn: Any) -> None:
            await conn.execute(insert(bot_messages).values(
                table_id=table_id, purpose=purpose, chat_id=0, thread_id=None, message_id=None, state="sent",
                data=json.dumps({"inline": inline_id}), updated_at=time.time(), inline_id=inline_id))

        try:
            await self._writer.write(work)
        except IntegrityError:
            existing = await self.inline_table(inline_id)
            if existing is None:
                raise
            return existing
        return table_id

    async def inline_table(self, inline_id: str) -> str | None:
        """The table opened in the message sent via the bot ``inline_id``, if any."""
        async with self._writer.engine.connect() as conn:
            found = await conn.execute(select(bot_messages.c.table_id).where(bot_messages.c.inline_id == inline_id))
            return found.scalar_one_or_none()

    async def drop_bot_message(self, table_id: str, purpose: str) -> None:
        """Forget one of the bot's records."""

        async def work(conn: Any) -> None:
            await conn.execute(bot_messages.delete().where(
                (bot_messages.c.table_id == table_id) & (bot_messages.c.purpose == purpose)))

        await self._writer.write(work)

    async def chat_language(self, chat_id: int) -> str | None:
        """A group's language, if one was set or settled."""
        async with self._writer.engine.connect() as conn:
            return (await conn.execute(
                select(chat_languages.c.language).where(chat_languages.c.chat_id == chat_id))).scalar()

    async def set_chat_language(self, chat_id: int, language: str, *, by: int | None, keep: bool = False) -> str:
        """Set a group's language (``keep``: only if it has none yet); returns the group's language now."""
        language = plain_text(language)

        async def work(conn: Any) -> None:
            found = (await conn.execute(
                select(chat_languages.c.language).where(chat_languages.c.chat_id == chat_id))).scalar()
            if found is None:
                await conn.execute(insert(chat_languages).values(chat_id=chat_id, language=language, set_by=by,
                                                                 updated_at=time.time()))
            elif not keep:
                await conn.execute(update(chat_languages).where(chat_languages.c.chat_id == chat_id)
                                   .values(language=language, set_by=by, updated_at=time.time()))

        await self._writer.write(work)
        return await self.chat_language(chat_id) or language
