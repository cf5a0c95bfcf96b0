"""Chats the service knows: a group's language, the messages kept there, and who played there.

The bot's records of the messages it keeps up to date (a table's lobby or status, a turn
message, a summary) are stored through this part, written before each send, so a restart
finds them; adapters never reach the store themselves. A table opened in a message sent via the
bot (an invitation from any chat) is recorded with that message, so every process finds it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engine.store.database import Store

INVITATION = "invitation"  # the record of the message sent via the bot a table was opened in (one table each)


class Chats:
    """Reads and changes what is kept per chat."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def language(self, chat_id: int) -> str | None:
        """A group's language, if one was set or settled."""
        return await self._store.chats.chat_language(chat_id)

    async def set_language(self, chat_id: int, language: str, *, by: int | None, keep: bool = False) -> str:
        """Set a group's language (``keep``: only if it has none yet); returns the group's language now."""
        return await self._store.chats.set_chat_language(chat_id, language, by=by, keep=keep)

    async def played_in(self, user_id: int, chat_id: int) -> bool:
        """Whether a person finished a game started from a chat (who may see its leaderboard)."""
        return await self._store.records.played_in_chat(user_id, chat_id)

    async def messages_of_table(self, table_id: str) -> list[dict[str, Any]]:
        """Every message record kept for a table."""
        return await self._store.chats.bot_messages(table_id)

    async def messages_in_chat(self, chat_id: int) -> list[dict[str, Any]]:
        """Every message record kept in a chat."""
        return await self._store.chats.bot_messages_in_chat(chat_id)

    async def keep_message(self, table_id: str, purpose: str, *, chat_id: int, thread_id: int | None,
                           message_id: int | None, state: str, data: dict[str, Any] | None = None) -> None:
        """Create or replace the record of one kept message."""
        await self._store.chats.put_bot_message(table_id, purpose, chat_id=chat_id, thread_id=thread_id,
                                                message_id=message_id, state=state, data=data)

    async def open_in_inline(self, table_id: str, inline_id: str) -> str:
        """The table lives in the message sent via the bot ``inline_id`` (its invitation), unless another table was
        opened there first (by any process): the table that lives there."""
        return await self._store.chats.bind_inline(table_id, INVITATION, inline_id)

    async def table_in_inline(self, inline_id: str) -> str | None:
        """The table opened in the message sent via the bot ``inline_id``, if any."""
        return await self._store.chats.inline_table(inline_id)

    async def forget_message(self, table_id: str, purpose: str) -> None:
        """Forget the record of one kept message."""
        await self._store.chats.drop_bot_message(table_id, purpose)

    async def table_of_message(self, chat_id: int, message_id: int, purposes: Collection[str]) -> str | None:
        """The table one of whose kept messages (of these purposes) is this message, if any."""
        for row in await self._store.chats.bot_messages_in_chat(chat_id):
            if row["message_id"] == message_id and row["purpose"] in purposes:
                return str(row["table_id"])
        return None
