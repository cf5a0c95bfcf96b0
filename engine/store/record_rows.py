"""The record of finished games in the store: results, ratings and their changes, history, leaderboards, a player's
groups."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import case, func, insert, select, update

from engine.store.finish_rows import insert_results, upsert, write_rating_changes
from engine.store.rows import Finish, RatingChange, TableRow
from engine.store.schema import (
    ratings,
    results,
    standings,
    tables,
    users,
)
from engine.store.table_rows import load_tables
from engine.store.writer import Writer


class RecordRows:
    """Reads of the record, and the ratings a rebuild puts in place."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer

    async def history(self, user_id: int, limit: int = 20, before: float | None = None) -> list[dict[str, Any]]:
        """A user's finished games, newest first: each with every seat's name, placement and score."""
        async with self._writer.engine.connect() as conn:
            query = select(results.c.table_id, results.c.finished_at).where(results.c.user_id == user_id)
            if before is not None:
                query = query.where(results.c.finished_at < before)
            mine = (await conn.execute(query.order_by(results.c.finished_at.desc()).limit(limit))).all()
            if not mine:
                return []
            ids = [r.table_id for r in mine]
            rows = (await conn.execute(
                select(results, tables.c.options).join(tables, tables.c.id == results.c.table_id)
                .where(results.c.table_id.in_(ids)).order_by(results.c.seat)
            )).mappings().all()
        games: dict[str, dict[str, Any]] = {}
        for r in rows:
            game = games.setdefault(r["table_id"], {
                "table_id": r["table_id"], "game": r["game"], "options": json.loads(r["options"]),
                "chat_id": r["chat_id"], "finished_at": r["finished_at"], "seats": []})
            game["seats"].append({"seat": r["seat"], "name": r["name"], "placement": r["placement"],
                                  "score": r["score"], "you": r["user_id"] == user_id})
        return [games[table_id] for table_id in ids]

    async def stats(self, user_id: int, recent: int = 10) -> list[dict[str, Any]]:
        """A user's own figures per game (games, wins, mu, sigma, the best mu after any of its games on record),
        with their last ``recent`` placements, newest first, and the mu those games left, oldest first."""
        async with self._writer.engine.connect() as conn:
            rows = (await conn.execute(
                select(ratings.c.game, ratings.c.mu, ratings.c.sigma, ratings.c.games, ratings.c.wins)
                .where(ratings.c.user_id == user_id).order_by(ratings.c.games.desc(), ratings.c.game)
            )).mappings().all()
            best = {game: high for game, high in await conn.execute(
                select(results.c.game, func.max(results.c.rating_after))
                .where(results.c.user_id == user_id).group_by(results.c.game))}
            found: list[dict[str, Any]] = []
            for r in rows:
                last = (await conn.execute(
                    select(results.c.placement, results.c.rating_after)
                    .where(results.c.user_id == user_id, results.c.game == r["game"])
                    .order_by(results.c.finished_at.desc()).limit(recent)
                )).all()
                found.append({**dict(r), "recent": [x.placement for x in last], "best": best.get(r["game"]),
                              "trend": [x.rating_after for x in reversed(last) if x.rating_after is not None]})
        return found

    async def rating_changes(self, table_id: str) -> list[tuple[int, float, float, int]]:
        """A finished game's people as (seat, mu before, mu after, their games of it by then, this one included),
        by seat (AI seats have none)."""
        earlier = results.alias("earlier")
        games = (select(func.count()).where(earlier.c.user_id == results.c.user_id, earlier.c.game == results.c.game,
                                            earlier.c.finished_at <= results.c.finished_at)
                 .scalar_subquery())
        async with self._writer.engine.connect() as conn:
            rows = (await conn.execute(
                select(results.c.seat, results.c.rating_before, results.c.rating_after, games)
                .where(results.c.table_id == table_id, results.c.user_id.is_not(None),
                       results.c.rating_before.is_not(None), results.c.rating_after.is_not(None))
                .order_by(results.c.seat)
            )).all()
        return [(seat, before, after, played) for seat, before, after, played in rows]

    async def keep_rating_changes(self, changes: Sequence[RatingChange]) -> None:
        """Keep seats' ratings before and after their games on their results (after a rebuild)."""

        async def work(conn: Any) -> None:
            await write_rating_changes(conn, changes)

        await self._writer.write(work)

    async def leaderboard(self, chat_id: int, game: str, limit: int = 20) -> list[dict[str, Any]]:
        """The people who played ``game`` in a chat: their rating and their games there, best first."""
        async with self._writer.engine.connect() as conn:
            rows = (await conn.execute(
                select(standings.c.user_id, standings.c.games, standings.c.wins, ratings.c.mu, ratings.c.sigma,
                       ratings.c.games.label("rated"), users.c.name)
                .join(ratings, (ratings.c.user_id == standings.c.user_id) & (ratings.c.game == game))
                .join(users, users.c.id == standings.c.user_id)
                .where(standings.c.chat_id == chat_id, standings.c.game == game)
                .order_by(ratings.c.mu.desc(), ratings.c.user_id).limit(limit)
            )).mappings().all()
        return [dict(r) for r in rows]

    async def played_with(self, user_id: int, game: str, limit: int = 20) -> list[dict[str, Any]]:
        """The user and the people they finished ``game`` with, anywhere: their rating and games of it, best first."""
        mine = select(results.c.table_id).where(results.c.user_id == user_id, results.c.game == game)
        people = select(results.c.user_id).where(results.c.table_id.in_(mine), results.c.user_id.is_not(None))
        async with self._writer.engine.connect() as conn:
            rows = (await conn.execute(
                select(ratings.c.user_id, ratings.c.games, ratings.c.wins, ratings.c.mu, ratings.c.sigma,
                       ratings.c.games.label("rated"), users.c.name)
                .join(users, users.c.id == ratings.c.user_id)
                .where(ratings.c.game == game, ratings.c.user_id.in_(people))
                .order_by(ratings.c.mu.desc(), ratings.c.user_id).limit(limit)
            )).mappings().all()
        return [dict(r) for r in rows]

    async def groups(self, user_id: int) -> list[dict[str, Any]]:
        """The group chats (negative ids) where a user finished games, oldest first.

        Each with its games there by game name, its first and last finish, and the other
        people the user played with there, most games together first.
        """
        async with self._writer.engine.connect() as conn:
            rows = (await conn.execute(
                select(results.c.chat_id, results.c.game, func.count().label("games"),
                       func.min(results.c.finished_at).label("first"), func.max(results.c.finished_at).label("last"))
                .where(results.c.user_id == user_id, results.c.chat_id < 0)
                .group_by(results.c.chat_id, results.c.game)
            )).all()
            mine = select(results.c.table_id).where(results.c.user_id == user_id, results.c.chat_id < 0)
            together = (await conn.execute(
                select(results.c.chat_id, func.max(results.c.name).label("name"), func.count().label("games"))
                .where(results.c.table_id.in_(mine), results.c.user_id.is_not(None), results.c.user_id != user_id)
                .group_by(results.c.chat_id, results.c.user_id)
                .order_by(func.count().desc(), func.max(results.c.name))
            )).all()
        chats: dict[int, dict[str, Any]] = {}
        for r in rows:
            chat = chats.setdefault(r.chat_id, {"chat_id": r.chat_id, "games": {}, "first": r.first, "last": r.last,
                                                "people": []})
            chat["games"][r.game] = r.games
            chat["first"], chat["last"] = min(chat["first"], r.first), max(chat["last"], r.last)
        for r in together:
            if r.chat_id in chats:
                chats[r.chat_id]["people"].append(r.name)
        return sorted(chats.values(), key=lambda c: (c["first"], c["chat_id"]))

    async def played_in_chat(self, user_id: int, chat_id: int) -> bool:
        """Whether a user has finished a game started from a chat (who may see that chat's leaderboard)."""
        async with self._writer.engine.connect() as conn:
            found = await conn.execute(
                select(results.c.table_id).where(results.c.user_id == user_id, results.c.chat_id == chat_id).limit(1))
            return found.first() is not None

    async def finished_tables(self, offset: int = 0, limit: int = 500) -> list[TableRow]:
        """Finished tables in the order they finished (for rebuilding ratings), a page from ``offset``."""
        async with self._writer.engine.connect() as conn:
            ids = [r.table_id for r in await conn.execute(
                select(results.c.table_id, func.max(results.c.finished_at).label("at"))
                .group_by(results.c.table_id).order_by("at", results.c.table_id).offset(offset).limit(limit))]
        found = {row.id: row for row in await load_tables(self._writer.engine, tables.c.id.in_(ids))} if ids else {}
        return [found[i] for i in ids if i in found]

    async def unrecorded_finished(self, after: str = "", limit: int = 500) -> list[TableRow]:
        """Finished tables with no results on record (finished before there was a record), by id after ``after``."""
        recorded = select(results.c.table_id).where(results.c.table_id == tables.c.id).exists()
        async with self._writer.engine.connect() as conn:
            ids = [r.id for r in await conn.execute(
                select(tables.c.id).where(tables.c.status == "finished", tables.c.id > after, ~recorded)
                .order_by(tables.c.id).limit(limit))]
        found = {row.id: row for row in await load_tables(self._writer.engine, tables.c.id.in_(ids))} if ids else {}
        return [found[i] for i in ids]

    async def add_results(self, finish: Finish) -> None:
        """Put a finished game's results on record (ratings are left to a rebuild)."""

        async def work(conn: Any) -> None:
            await insert_results(conn, finish)

        await self._writer.write(work)

    async def move_record(self, old_chat_id: int, new_chat_id: int) -> list[str]:
        """A group's finished games, their results and its standings follow it to its new id; the tables moved.

        A group upgraded to a supergroup gets a new chat id: without this its leaderboard would
        start again from nothing there. Standings already at the new id (a game finished there
        first) are added to, not replaced. Each moved row's version is raised, so a process
        holding the old row reads it again before it writes.
        """
        done = ("finished", "abandoned")
        moved: list[str] = []

        async def work(conn: Any) -> None:
            found = await conn.execute(select(tables.c.id).where(tables.c.chat_id == old_chat_id,
                                                                 tables.c.status.in_(done)))
            moved[:] = [r.id for r in found]
            await conn.execute(update(tables).where(tables.c.chat_id == old_chat_id, tables.c.status.in_(done))
                               .values(chat_id=new_chat_id, version=tables.c.version + 1))
            await conn.execute(update(results).where(results.c.chat_id == old_chat_id).values(chat_id=new_chat_id))
            rows = (await conn.execute(select(standings).where(standings.c.chat_id == old_chat_id))).all()
            if rows:
                added = upsert(conn.dialect.name, standings)
                await conn.execute(added.on_conflict_do_update(
                    index_elements=[standings.c.chat_id, standings.c.game, standings.c.user_id],
                    set_={"games": standings.c.games + added.excluded.games,
                          "wins": standings.c.wins + added.excluded.wins}), [
                    {"chat_id": new_chat_id, "game": r.game, "user_id": r.user_id, "games": r.games, "wins": r.wins}
                    for r in rows])
                await conn.execute(standings.delete().where(standings.c.chat_id == old_chat_id))

        await self._writer.write(work)
        return moved

    async def ratings_of(self, game: str) -> dict[int, tuple[float, float, int, int]]:
        """Every rating of a game: user -> (mu, sigma, games, wins)."""
        async with self._writer.engine.connect() as conn:
            rows = await conn.execute(select(ratings).where(ratings.c.game == game))
            return {r.user_id: (r.mu, r.sigma, r.games, r.wins) for r in rows}

    async def retotal_standings(self) -> None:
        """Total every group's standings again from the results on record (after a rebuild or a bulk load)."""
        won = func.sum(case((results.c.placement == 1, 1), else_=0))

        async def work(conn: Any) -> None:
            await conn.execute(standings.delete())
            await conn.execute(insert(standings).from_select(
                ["chat_id", "game", "user_id", "games", "wins"],
                select(results.c.chat_id, results.c.game, results.c.user_id, func.count(), won)
                .where(results.c.chat_id.is_not(None), results.c.user_id.is_not(None))
                .group_by(results.c.chat_id, results.c.game, results.c.user_id)))

        await self._writer.write(work)

    async def replace_ratings(self, game: str, fresh: dict[int, tuple[float, float, int, int]], at: float) -> None:
        """Put a game's ratings in place of the stored ones (after a rebuild)."""

        async def work(conn: Any) -> None:
            await conn.execute(ratings.delete().where(ratings.c.game == game))
            if fresh:
                await conn.execute(insert(ratings), [
                    {"user_id": uid, "game": game, "mu": mu, "sigma": sigma, "games": games, "wins": wins,
                     "updated_at": at} for uid, (mu, sigma, games, wins) in fresh.items()])

        await self._writer.write(work)
