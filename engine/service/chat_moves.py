"""A group that became a supergroup: its unfinished tables and its record follow it to the new chat id."""

from __future__ import annotations

from engine.service.kinds import OPEN, UpdateKind
from engine.service.live import TableInfo
from engine.service.loading import Tables, notice
from engine.service.sharing import Sharing, fresh_on_conflict
from engine.store.database import Store


class ChatMoves:
    """Moves a group's tables and record to its new chat id, on every process."""

    def __init__(self, store: Store, tables: Tables, sharing: Sharing) -> None:
        self.store = store
        self.tables = tables
        self.catch_up = sharing.catch_up  # a move that met another process's write runs again after it

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> list[TableInfo]:
        """A group became a supergroup with a new id: its unfinished tables follow it there, and its record.

        The tables are found in the store, so those this process has not loaded (or another process
        serves) move too; the other processes hear of each move.
        """
        moved: list[TableInfo] = []
        seen: set[str] = set()
        while fresh := [t for t in await self.store.tables.table_ids_in_chat(old_chat_id, OPEN)
                        if t not in seen]:
            seen.update(fresh)
            for table_id in fresh:
                info = await self._move_table(table_id, old_chat_id, new_chat_id)
                if info is not None:
                    moved.append(info)
        for table_id in await self.store.records.move_record(old_chat_id, new_chat_id):  # the leaderboard follows too
            held = self.tables.held(table_id)
            if held is not None and held.row.chat_id == old_chat_id:  # as the store now has it
                held.row.chat_id, held.row.version = new_chat_id, held.row.version + 1
        return moved

    @fresh_on_conflict
    async def _move_table(self, table_id: str, old_chat_id: int, new_chat_id: int) -> TableInfo | None:
        """Move one table to the group's new id (None: it is no longer an unfinished table of the old one)."""
        table = await self.tables.get(table_id)
        async with table.lock:
            if table.row.chat_id != old_chat_id or table.row.status not in OPEN:
                return None
            table.row.chat_id = new_chat_id
            await self.store.tables.save_table(table.row, with_seats=False, notice=notice(table, UpdateKind.CHAT_MOVED))
            return await self.tables.publish(table, UpdateKind.CHAT_MOVED)
