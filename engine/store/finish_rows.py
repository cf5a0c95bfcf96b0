"""What a finished game writes in the transaction that finishes it: results, the group's standings, ratings, and
each person's rating before and after it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.dialects import sqlite

from engine.store.plain_text import plain_text
from engine.store.rows import Finish, RatingChange
from engine.store.schema import ratings, results, standings


def upsert(dialect: str, table: Any) -> Any:
    """An insert into ``table`` that can say what to do with a row already there (PostgreSQL's or SQLite's form)."""
    if dialect != "postgresql":
        return sqlite.insert(table)
    from sqlalchemy.dialects import postgresql  # loaded with the driver when the store is PostgreSQL's, else never

    return postgresql.insert(table)


async def insert_results(conn: Any, finish: Finish) -> bool:
    """Put a finished game's per-seat results on record, unless they are already there (then False)."""
    recorded = await conn.execute(select(results.c.seat).where(results.c.table_id == finish.table_id).limit(1))
    if recorded.first() is not None:
        return False
    await conn.execute(insert(results), [
        {"table_id": finish.table_id, "seat": s.seat, "user_id": s.user_id, "name": plain_text(s.name),
         "game": finish.game, "chat_id": finish.chat_id, "placement": s.placement, "score": s.score,
         "finished_at": finish.finished_at}
        for s in finish.seats
    ])
    people = sorted((s.user_id, 1 if s.placement == 1 else 0) for s in finish.seats if s.user_id is not None)
    if finish.chat_id is not None and people:
        added = upsert(conn.dialect.name, standings)
        await conn.execute(added.on_conflict_do_update(
            index_elements=[standings.c.chat_id, standings.c.game, standings.c.user_id],
            set_={"games": standings.c.games + 1, "wins": standings.c.wins + added.excluded.wins}), [
            {"chat_id": finish.chat_id, "game": finish.game, "user_id": uid, "games": 1, "wins": won}
            for uid, won in people])
    return True


async def write_finish(conn: Any, finish: Finish) -> None:
    """Record a finished game's results and its people's new ratings (in the finishing transaction)."""
    if not await insert_results(conn, finish):
        return  # already on record (and rated): finishing a table again must not count it twice
    people = sorted({s.user_id for s in finish.seats if s.user_id is not None})
    if not people:
        return
    # Every person's row exists first (a placeholder with no games for a newcomer), then all are locked in one
    # order: another process finishing a game of the same person waits here for this commit instead of
    # reading the rating this one is about to replace (a lost update). SQLite has one writer at a time anyway.
    missing = upsert(conn.dialect.name, ratings).on_conflict_do_nothing(
        index_elements=[ratings.c.user_id, ratings.c.game])
    await conn.execute(missing, [
        {"user_id": uid, "game": finish.game, "mu": 0.0, "sigma": 0.0, "games": 0, "wins": 0,
         "updated_at": finish.finished_at} for uid in people])
    found = (await conn.execute(
        select(ratings).where(ratings.c.game == finish.game, ratings.c.user_id.in_(people))
        .order_by(ratings.c.user_id).with_for_update()
    )).mappings().all()
    current = {r["user_id"]: (r["mu"], r["sigma"]) for r in found if r["games"] > 0}
    fresh = finish.rate(current)
    changes: list[RatingChange] = []
    for s in finish.seats:
        if s.user_id is None or s.user_id not in fresh:
            continue
        mu, sigma = fresh[s.user_id]
        await conn.execute(update(ratings).where(ratings.c.user_id == s.user_id, ratings.c.game == finish.game)
                           .values(mu=mu, sigma=sigma, games=ratings.c.games + 1,
                                   wins=ratings.c.wins + (1 if s.placement == 1 else 0),
                                   updated_at=finish.finished_at))
        if finish.seen is not None:
            changes.append((finish.table_id, s.seat, finish.seen(current.get(s.user_id)), finish.seen((mu, sigma))))
    await write_rating_changes(conn, changes)


_KEEP_CHANGE = (update(results).where(results.c.table_id == bindparam("change_table"),
                                      results.c.seat == bindparam("change_seat"))
                .values(rating_before=bindparam("change_before"), rating_after=bindparam("change_after")))


async def write_rating_changes(conn: Any, changes: Sequence[RatingChange]) -> None:
    """Keep each seat's rating before and after its game on its result (one statement for them all)."""
    if changes:
        await conn.execute(_KEEP_CHANGE, [
            {"change_table": table_id, "change_seat": seat, "change_before": before, "change_after": after}
            for table_id, seat, before, after in changes])
