"""The record of finished games: a player's history, a group's leaderboard, replays, and rebuilding ratings.

Finished games are public to the people who played them: a replay shows every hand at
every step (nothing is secret once the game is over) and the seed that proves the deals.
Ratings are written incrementally as games finish, each person's rating before and after
each game with them; ``rebuild`` recomputes both from the move logs alone, in the order the
games finished, and must agree with the incremental ones.
Games finished before the record began get their results from their logs first (``backfill``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from engine import games
from engine.core.errors import Refusal, RefusalCode
from engine.core.rules import Outcome
from engine.service import rating_scale, ratings
from engine.service.kinds import TableStatus, shown_seed
from engine.store.database import Store
from engine.store.rows import RatingChange, Skill, TableRow

REPLAY_PAGE = 200  # steps per replay request


class Record:
    """Reads the record of finished games, and rebuilds ratings from the logs."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock  # a deal of the day's replay opens when its day closes, by this clock

    async def history(self, user_id: int, limit: int = 20, before: float | None = None) -> list[dict[str, Any]]:
        """A user's finished games, newest first (a page of ``limit`` finished before ``before``)."""
        return await self.store.records.history(user_id, min(max(limit, 1), 50), before)

    async def stats(self, user_id: int) -> list[dict[str, Any]]:
        """A user's own figures per game: games, wins, rating (and whether it is provisional), the best rating they
        reached, their last placements (newest first) and the ratings their last games left (``trend``, oldest
        first); every rating as people see it (``rating_scale.shown``)."""
        found = await self.store.records.stats(user_id)
        for entry in found:
            mu, games = entry.pop("mu"), entry["games"]
            del entry["sigma"]
            # the rating now is one they reached too (the games before the record kept changes have none on record)
            best = mu if entry["best"] is None else max(entry["best"], mu)
            now = rating_scale.shown(mu, games)
            entry["rating"], entry["provisional"] = now.rating, now.provisional
            entry["best"] = rating_scale.shown(best, games).rating
            entry["trend"] = [rating_scale.shown(m, games).rating for m in entry["trend"]]
        return found

    async def rating_changes(self, table_id: str) -> list[dict[str, Any]]:
        """Each person's rating before and after a finished game as people see them, by seat, with the change and
        whether the rating after is provisional (none for AI seats, a lesson, a table not finished); refuses an
        unknown table.

        A game's end is stored with its results and rating changes in one transaction, and only
        then published: a table the store holds as finished has its changes, so whoever was
        told of the end reads them at once, with nothing to wait for and nothing to retry.
        """
        row = await self.store.tables.load_table(table_id)
        if row is None:
            raise Refusal(RefusalCode.TABLE_NOT_FOUND)
        if row.status != TableStatus.FINISHED:
            return []
        return [_change(seat, before, after, games)
                for seat, before, after, games in await self.store.records.rating_changes(table_id)]

    async def groups(self, user_id: int) -> list[dict[str, Any]]:
        """The group chats where a user finished games, oldest first, with their games and people there."""
        return await self.store.records.groups(user_id)

    async def leaderboard(self, chat_id: int, game: str, limit: int = 20) -> list[dict[str, Any]]:
        """A chat's players of ``game`` by rating (only people who played there), with their games there."""
        games.get(game)  # refuses an unknown game by name
        board = await self.store.records.leaderboard(chat_id, game, min(max(limit, 1), 100))
        return _ranked(board)

    async def played_with(self, user_id: int, game: str, limit: int = 20) -> list[dict[str, Any]]:
        """The leaderboard with no group: the user and the people they finished ``game`` with, by rating."""
        games.get(game)  # refuses an unknown game by name
        board = await self.store.records.played_with(user_id, game, min(max(limit, 1), 100))
        return _ranked(board)

    async def replay(self, table_id: str, start: int = 0, count: int = REPLAY_PAGE) -> dict[str, Any]:
        """Steps ``start``.. of a finished game: each move and every seat's view after it (all hands shown)."""
        row = await self.store.tables.load_table(table_id)
        over = row is not None and (row.status == TableStatus.FINISHED
                                    or (row.status == TableStatus.ABANDONED and "daily" in row.meta))
        if row is None or not over or shown_seed(row.seed, row.meta, self.clock()) is None:
            # a deal of the day (stopped after the hand it scores) is replayed once its day has closed
            raise Refusal(RefusalCode.TABLE_NOT_FOUND)
        game = games.get(row.game)
        options = game.parse_options(row.options)
        log = await self.store.tables.load_actions(table_id)
        state = game.new_game(options, row.size, row.seed)
        steps: list[dict[str, Any]] = []
        end = min(len(log), start + max(1, min(count, REPLAY_PAGE)))
        if start == 0:
            steps.append({"seq": 0, "seat": None, "action": None, "views": _views(game, state, row.size)})
        for entry in log[:end]:
            state, _ = game.apply(state, entry.seat, entry.action)
            if entry.seq > start:
                steps.append({"seq": entry.seq, "seat": entry.seat, "action": entry.action, "auto": entry.auto,
                              "views": _views(game, state, row.size)})
        return {
            "table_id": row.id, "game": row.game, "options": row.options, "seed": row.seed,
            "seed_hash": row.seed_hash, "result": row.result, "moves": len(log),
            "seats": [{"seat": s.seat, "name": s.name, "is_ai": s.is_ai} for s in row.seats],
            "steps": steps, "next": end if end < len(log) else None,
        }

    async def backfill(self) -> int:
        """Put on record the finished games that have no results (finished before the record began); returns how many.

        Their placements and scores are the rules' outcome of their logs, and they finished
        when their table's row last changed.
        """
        added, after = 0, ""
        while page := await self.store.records.unrecorded_finished(after):
            after = page[-1].id
            for row in page:
                outcome = await self._outcome(row)
                finish = ratings.finish_record(row, outcome, row.updated_at) if outcome is not None else None
                if finish is not None:
                    await self.store.records.add_results(finish)
                    added += 1
        return added

    async def rebuild(self) -> dict[str, int]:
        """Recompute every rating from the finished games' move logs; returns the games counted per game.

        Finished games with no results yet (from before the record) are put on record first, each
        person's rating before and after each game is kept again on their result, and each group's
        standings are totalled again from the results.
        """
        await self.backfill()
        fresh: dict[str, dict[int, list[float]]] = {}
        counted: dict[str, int] = {}
        offset = 0
        while page := await self.store.records.finished_tables(offset):
            offset += len(page)
            changes: list[RatingChange] = []
            for row in page:
                outcome = await self._outcome(row)
                if outcome is None:
                    continue
                table = fresh.setdefault(row.game, {})
                people = [(None if s.is_ai else s.user_id, s.ai_level) for s in row.seats]
                current: dict[int, Skill] = {uid: (v[0], v[1]) for uid, v in table.items()}
                for uid, (mu, sigma) in ratings.rate(people, outcome.placements, current).items():
                    before = table.get(uid, [0.0, 0.0, 0.0, 0.0])
                    seat = _seat_of(people, uid)
                    won = 1.0 if outcome.placements[seat] == 1 else 0.0
                    table[uid] = [mu, sigma, before[2] + 1, before[3] + won]
                    changes.append((row.id, seat, ratings.kept(current.get(uid)), ratings.kept((mu, sigma))))
                counted[row.game] = counted.get(row.game, 0) + 1
            await self.store.records.keep_rating_changes(changes)
        await self.store.records.retotal_standings()
        now = time.time()
        for name in games.names():
            entries = fresh.get(name, {})
            await self.store.records.replace_ratings(
                name, {uid: (v[0], v[1], int(v[2]), int(v[3])) for uid, v in entries.items()}, now)
        return counted

    async def _outcome(self, row: TableRow) -> Outcome | None:
        """The rules' outcome of a table's stored log."""
        game = games.get(row.game)
        log = await self.store.tables.load_actions(row.id)
        state = game.replay(game.parse_options(row.options), row.size, row.seed, [(a.seat, a.action) for a in log])
        return game.outcome(state)


def _change(seat: int, before: float, after: float, games: int) -> dict[str, Any]:
    """A seat's rating change as people see it, from its mu before and after its ``games``-th game."""
    was, now = rating_scale.shown(before, games - 1), rating_scale.shown(after, games)
    return {"seat": seat, "before": was.rating, "after": now.rating, "change": now.rating - was.rating,
            "provisional": now.provisional}


def _ranked(board: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A leaderboard (best first) with each entry's place and rating as people see it (``rated``: its games rated)."""
    for place, entry in enumerate(board, 1):
        shown = rating_scale.shown(entry["mu"], entry["rated"])
        entry["place"], entry["rating"], entry["provisional"] = place, shown.rating, shown.provisional
    return board


def _seat_of(people: list[tuple[int | None, str]], user_id: int) -> int:
    return next(i for i, (uid, _) in enumerate(people) if uid == user_id)


def _views(game: Any, state: Any, size: int) -> list[dict[str, Any]]:
    return [game.view(state, seat) for seat in range(size)]
