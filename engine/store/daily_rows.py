"""The deal of the day in the store: who plays which day's deal at which table, their results, and the groups told."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from engine.store.schema import daily_entries, daily_news, daily_secrets, results, users
from engine.store.writer import Writer


class DailyRows:
    """Daily entries (one per person, game and day), the seeds' stored secret, and the days' group messages."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer

    async def entry(self, user_id: int, game: str, day: str) -> dict[str, Any] | None:
        """A person's entry for one game's deal of one day, or None."""
        async with self._writer.engine.connect() as conn:
            row = (await conn.execute(select(daily_entries).where(
                daily_entries.c.user_id == user_id, daily_entries.c.game == game,
                daily_entries.c.day == day))).mappings().first()
        return dict(row) if row is not None else None

    async def entries_of(self, user_id: int, day: str) -> list[dict[str, Any]]:
        """A person's entries of one day, every game."""
        async with self._writer.engine.connect() as conn:
            rows = (await conn.execute(select(daily_entries).where(
                daily_entries.c.user_id == user_id, daily_entries.c.day == day))).mappings().all()
        return [dict(r) for r in rows]

    async def add_entry(self, user_id: int, game: str, day: str, table_id: str, at: float) -> str:
        """Record that a person plays the day's deal at ``table_id``; the table recorded first wins, and is returned."""
        async def work(conn: Any) -> None:
            await conn.execute(insert(daily_entries).values(user_id=user_id, game=game, day=day, table_id=table_id,
                                                            mark=None, started_at=at, finished_at=None))

        try:
            await self._writer.write(work)
        except IntegrityError:
            found = await self.entry(user_id, game, day)
            if found is None:
                raise
            return str(found["table_id"])
        return table_id

    async def finish_entry(self, table_id: str, mark: int, at: float) -> bool:
        """Keep the result of the entry played at ``table_id`` (the first one kept stays); whether this kept it."""
        done: list[int] = []

        async def work(conn: Any) -> None:
            found = await conn.execute(update(daily_entries).where(
                daily_entries.c.table_id == table_id, daily_entries.c.mark.is_(None)).values(mark=mark,
                                                                                             finished_at=at))
            done.append(found.rowcount)

        await self._writer.write(work)
        return bool(done and done[0])

    async def field(self, game: str, day: str) -> list[dict[str, Any]]:
        """Everyone who finished one game's deal of one day: user id, name, mark, finished at, table id."""
        async with self._writer.engine.connect() as conn:
            rows = (await conn.execute(
                select(daily_entries.c.user_id, users.c.name, daily_entries.c.mark, daily_entries.c.finished_at,
                       daily_entries.c.table_id)
                .select_from(daily_entries.outerjoin(users, users.c.id == daily_entries.c.user_id))
                .where(daily_entries.c.game == game, daily_entries.c.day == day,
                       daily_entries.c.mark.is_not(None)))).mappings().all()
        return [{**r, "name": r["name"] or ""} for r in rows]

    async def finished_of(self, user_id: int, limit: int) -> list[dict[str, Any]]:
        """A person's finished deals of the day (every game), newest day first."""
        async with self._writer.engine.connect() as conn:
            rows = (await conn.execute(
                select(daily_entries).where(daily_entries.c.user_id == user_id, daily_entries.c.mark.is_not(None))
                .order_by(daily_entries.c.day.desc(), daily_entries.c.game).limit(limit))).mappings().all()
        return [dict(r) for r in rows]

    async def days_played(self, user_id: int) -> list[str]:
        """The days on which a person finished a deal of the day (any game), newest first."""
        async with self._writer.engine.connect() as conn:
            rows = (await conn.execute(
                select(daily_entries.c.day).where(daily_entries.c.user_id == user_id,
                                                  daily_entries.c.mark.is_not(None))
                .distinct().order_by(daily_entries.c.day.desc()).limit(400))).scalars().all()
        return [str(d) for d in rows]

    async def secret(self, fresh: str) -> str:
        """The stored secret of the days' seeds; ``fresh`` is stored first if there is none (the first one wins)."""
        async with self._writer.engine.connect() as conn:
            found = (await conn.execute(select(daily_secrets.c.value).where(
                daily_secrets.c.name == "seed"))).scalar_one_or_none()
        if found is not None:
            return str(found)

        async def work(conn: Any) -> None:
            await conn.execute(insert(daily_secrets).values(name="seed", value=fresh))

        try:
            await self._writer.write(work)
        except IntegrityError:
            return await self.secret(fresh)
        return fresh

    async def groups_of(self, user_ids: Iterable[int]) -> dict[int, set[int]]:
        """Per group (a chat with a negative id), those of ``user_ids`` who have played a table there."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        async with self._writer.engine.connect() as conn:
            rows = (await conn.execute(
                select(results.c.chat_id, results.c.user_id)
                .where(results.c.user_id.in_(ids), results.c.chat_id < 0).distinct())).all()
        groups: dict[int, set[int]] = {}
        for chat_id, user_id in rows:
            groups.setdefault(int(chat_id), set()).add(int(user_id))
        return groups

    async def news_sent(self, chat_id: int, day: str) -> bool:
        """Whether a group was already sent a day's standings."""
        async with self._writer.engine.connect() as conn:
            found = await conn.execute(select(daily_news.c.chat_id).where(daily_news.c.chat_id == chat_id,
                                                                          daily_news.c.day == day))
            return found.first() is not None

    async def claim_news(self, chat_id: int, day: str, at: float) -> bool:
        """Take the sending of a day's standings to a group: True only for the first to ask, of any process."""
        async def work(conn: Any) -> None:
            await conn.execute(insert(daily_news).values(chat_id=chat_id, day=day, sent_at=at))

        try:
            await self._writer.write(work)
        except IntegrityError:
            return False
        return True
