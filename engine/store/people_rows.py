"""People in the store: who they are (their names), their settings and flags, the languages they chose, their stats."""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from engine.store.plain_text import plain_text, plain_text_or_none
from engine.store.schema import seats, tables, users
from engine.store.writer import Writer


class PeopleRows:
    """A person's row: name, settings, flags and languages, and what they played."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer

    async def upsert_user(self, user_id: int, name: str) -> None:
        """Remember a user and their current display name."""
        name = plain_text(name)

        async def work(conn: Any) -> None:
            done = await conn.execute(update(users).where(users.c.id == user_id).values(name=name))
            if done.rowcount == 0:
                try:
                    async with conn.begin_nested():
                        await conn.execute(insert(users).values(
                            id=user_id, name=name, notify=True, can_message=False, created_at=time.time()))
                except IntegrityError:  # another process added them a moment ago
                    await conn.execute(update(users).where(users.c.id == user_id).values(name=name))

        await self._writer.write(work)

    async def user_settings(self, user_id: int) -> dict[str, Any] | None:
        """A user's name and settings, or None if unknown."""
        async with self._writer.engine.connect() as conn:
            row = (await conn.execute(select(users).where(users.c.id == user_id))).mappings().first()
        if row is None:
            return None
        return {"id": row["id"], "name": row["name"], "notify": bool(row["notify"]),
                "can_message": bool(row["can_message"]), "language": row["language"],
                "app_language": row["app_language"]}

    async def set_user_flags(self, user_id: int, **flags: bool) -> None:
        """Change ``notify`` or ``can_message`` for a known user."""
        allowed = {k: v for k, v in flags.items() if k in ("notify", "can_message")}
        if allowed:
            async def work(conn: Any) -> None:
                await conn.execute(update(users).where(users.c.id == user_id).values(**allowed))

            await self._writer.write(work)

    async def stats(self, user_id: int) -> dict[str, dict[str, int]]:
        """Finished games played and won by a user, per game."""
        async with self._writer.engine.connect() as conn:
            rows = await conn.execute(
                select(tables.c.game, tables.c.result, seats.c.seat)
                .join(seats, seats.c.table_id == tables.c.id)
                .where(seats.c.user_id == user_id, tables.c.status == "finished")
            )
            out: dict[str, dict[str, int]] = {}
            for game, result, seat in rows:
                entry = out.setdefault(game, {"played": 0, "won": 0})
                entry["played"] += 1
                if result and seat in json.loads(result).get("winners", []):
                    entry["won"] += 1
        return out

    async def user_language(self, user_id: int) -> str | None:
        """The language a person chose with /language, or None."""
        async with self._writer.engine.connect() as conn:
            return (await conn.execute(select(users.c.language).where(users.c.id == user_id))).scalar()

    async def set_user_language(self, user_id: int, name: str, language: str | None) -> None:
        """Remember (or with None forget) the language a person chose."""
        await self.upsert_user(user_id, name)
        language = plain_text_or_none(language)

        async def work(conn: Any) -> None:
            await conn.execute(update(users).where(users.c.id == user_id).values(language=language))

        await self._writer.write(work)

    async def set_app_language(self, user_id: int, code: str) -> None:
        """Remember the language of a known person's Telegram app (``language_code``); unknown people are skipped."""
        value = plain_text(code)[:16]

        async def work(conn: Any) -> None:
            await conn.execute(update(users).where(users.c.id == user_id, users.c.app_language.is_distinct_from(value))
                               .values(app_language=value))

        await self._writer.write(work)

    async def end_sessions(self, user_id: int, name: str, at: float) -> None:
        """Make every sign-in of a person's from before ``at`` over (kept if a later one is there already)."""
        await self.upsert_user(user_id, name)

        async def work(conn: Any) -> None:
            await conn.execute(update(users).where(users.c.id == user_id)
                               .where((users.c.sessions_from.is_(None)) | (users.c.sessions_from < at))
                               .values(sessions_from=at))

        await self._writer.write(work)

    async def sessions_from(self, user_id: int) -> float | None:
        """When a person last signed out everywhere, or None."""
        async with self._writer.engine.connect() as conn:
            found = (await conn.execute(select(users.c.sessions_from).where(users.c.id == user_id))).scalar()
        return None if found is None else float(found)
