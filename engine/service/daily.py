"""The deal of the day: each game's one deal a UTC day, played once by each person against strong AI players.

The decisions are ``engine.service.daily_rules``; this part does the I/O around them. A start opens the person's
table with the day's seed (``Lobby.play_now``) and records it as their entry; starting again while it is being
played gives the same table back, and once it is over is refused. The table's seed is sealed until the day closes
(``engine.service.kinds.shown_seed``), so neither its view nor its end shows it. The part listens to its tables:
when the moment the day scores comes (Coins' and Sergeant Major's first hand, Kings in the Corner's one deal) the
person's result is kept and a table still being played is stopped there. Standings of a day are shown to those
who finished it, and to everyone once it has closed, with its seed.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from engine import games
from engine.ai import DAILY_LEVEL
from engine.core.errors import Refusal, RefusalCode, listed
from engine.core.events import public
from engine.service.bus import MemoryBus
from engine.service.daily_rules import (
    DAILY_OPTIONS,
    FORFEIT,
    SEAT,
    Entry,
    Standing,
    closes_at,
    counted,
    daily_hash,
    daily_seed,
    day_of,
    is_closed,
    mark_from_sheet,
    mark_of,
    mine_first,
    parse_day,
    result_line,
    standings,
    streak,
)
from engine.service.kinds import OVER, SEALED_UNTIL, TableStatus, UpdateKind
from engine.service.live import TableInfo
from engine.service.loading import Tables, notice
from engine.service.lobby import Lobby
from engine.service.schedule import Schedule
from engine.service.sharing import fresh_on_conflict
from engine.store.daily_rows import DailyRows
from engine.store.database import Store

HISTORY_DAYS = 30  # the past deals a person's history shows


@dataclass(frozen=True, slots=True)
class GroupNews:
    """A closed day's standings for one group: per game, the group's players in order (their share of the field)."""

    chat_id: int
    day: date
    games: tuple[tuple[str, tuple[Standing, ...]], ...]


class Daily:
    """Today's deals: starting or resuming one, each person's status, the standings, and the groups' news."""

    def __init__(self, store: Store, tables: Tables, lobby: Lobby, schedule: Schedule, bus: MemoryBus, *,
                 clock: Callable[[], float] = time.time, secret: str | None = None) -> None:
        self.rows = DailyRows(store.writer)
        self.store = store
        self.tables = tables
        self.lobby = lobby
        self.catch_up = lobby.catch_up  # a change that met another process's write runs again after it
        self.schedule = schedule
        self.bus = bus
        self.clock = clock
        self._secret = secret.encode() if secret else None
        self._listening: dict[str, Any] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def secret(self) -> bytes:
        """The secret the days' seeds come from: DAILY_SECRET, else one made once and kept in the store."""
        if self._secret is None:
            self._secret = (await self.rows.secret(secrets.token_hex(32))).encode()
        return self._secret

    @staticmethod
    def check_game(game: str) -> None:
        """Raise Refusal("unknown_game") unless ``game`` has a deal of the day."""
        if game not in DAILY_OPTIONS:
            raise Refusal(RefusalCode.UNKNOWN_GAME, name=game[:64], games=listed(DAILY_OPTIONS))

    async def today(self, user_id: int) -> dict[str, Any]:
        """Today's deals: per game its seed's hash, when it closes, and the person's status (and result line)."""
        now = self.clock()
        day = day_of(now)
        secret = await self.secret()
        mine = {e["game"]: e for e in await self.rows.entries_of(user_id, day.isoformat())}
        out = []
        for game in DAILY_OPTIONS:
            entry = mine.get(game)
            if entry is not None and entry["mark"] is None:
                entry = await self._settle_lazily(entry)
            status: dict[str, Any] = {"state": "none"}
            if entry is not None and entry["mark"] is None:
                status = {"state": "playing", "table_id": entry["table_id"]}
            elif entry is not None:
                status = {"state": "finished", "table_id": entry["table_id"],
                          **(await self._result(game, day, user_id))}
            out.append({"game": game, "title": games.get(game).title, "seed_hash": daily_hash(secret, game, day),
                        "closes_at": closes_at(day), "status": status})
        return {"day": day.isoformat(), "now": now, "games": out}

    async def start(self, game: str, user_id: int, name: str) -> TableInfo:
        """Open the person's table for today's deal of ``game``, or give back the one they are playing; refused
        (daily_done) once they have played it."""
        self.check_game(game)
        day = day_of(self.clock())
        entry = await self.rows.entry(user_id, game, day.isoformat())
        if entry is not None and entry["mark"] is None:
            entry = await self._settle_lazily(entry)
        if entry is not None and entry["mark"] is not None:
            raise Refusal(RefusalCode.DAILY_DONE, game=games.get(game).title)
        if entry is not None:
            self._listen(entry["table_id"], game)
            return await self.tables.info(entry["table_id"])
        seed = daily_seed(await self.secret(), game, day)
        info = await self.lobby.play_now(game, user_id, name, DAILY_OPTIONS[game], seed=seed)
        await self._seal(info.id, closes_at(day), day)
        kept = await self.rows.add_entry(user_id, game, day.isoformat(), info.id, self.clock())
        if kept != info.id:  # a second start at the same moment: keep the first table, stop this one
            await self._stop(info.id)
        self._listen(kept, game)
        return await self.tables.info(kept)

    async def result_line(self, game: str, user_id: int) -> str:
        """The shareable line of the person's deal of today; refused (daily_not_finished) before they finished it."""
        self.check_game(game)
        day = day_of(self.clock())
        entry = await self.rows.entry(user_id, game, day.isoformat())
        if entry is not None and entry["mark"] is None:
            entry = await self._settle_lazily(entry)
        if entry is None or entry["mark"] is None:
            raise Refusal(RefusalCode.DAILY_NOT_FINISHED, game=games.get(game).title)
        return str((await self._result(game, day, user_id))["line"])

    async def standings(self, game: str, user_id: int, day_text: str | None = None, *,
                        group: int | None = None) -> dict[str, Any]:
        """A day's standings of ``game`` (today's by default), the asker first; refused before they finished an open
        day's deal. A closed day shows its seed. With ``group``, only that group's members (each with their share of
        the whole field), for a member of it."""
        self.check_game(game)
        now = self.clock()
        day = day_of(now) if day_text is None else parse_day(day_text)
        if day is None:
            raise Refusal(RefusalCode.BAD_DATE, value=str(day_text)[:16])
        closed = is_closed(day, now)
        if day > day_of(now):
            raise Refusal(RefusalCode.DAILY_NOT_CLOSED, date=day.isoformat())
        if not closed and not await self._finished(game, user_id, day):
            raise Refusal(RefusalCode.DAILY_NOT_FINISHED, game=games.get(game).title)
        rows = await self.field(game, day)
        if group is not None:
            members = (await self.rows.groups_of([user_id, *(r.user_id for r in rows)])).get(group, set())
            if user_id not in members:
                raise Refusal(RefusalCode.NOT_IN_GROUP)
            rows = [r for r in rows if r.user_id in members]
        secret = await self.secret()
        out: dict[str, Any] = {
            "game": game, "day": day.isoformat(), "closed": closed, "closes_at": closes_at(day),
            "seed_hash": daily_hash(secret, game, day), "seed": daily_seed(secret, game, day) if closed else None,
            "standings": [{**r.as_dict(), **({"table_id": r.table_id} if closed else {})}
                          for r in mine_first(rows, user_id)],  # a closed day's tables can be replayed
        }
        if any(r.user_id == user_id for r in rows):
            out.update(await self._result(game, day, user_id))
        return out

    async def check_watcher(self, info: TableInfo, user_id: int) -> None:
        """A deal of the day's table is seen, before its day closes, only by its player and by those who have finished
        that deal themselves: its cards are everyone's that day (a spectator's view would show them early)."""
        day = None if info.daily is None or info.seat_of(user_id) is not None else parse_day(info.daily)
        if day is not None and not is_closed(day, self.clock()) and not await self._finished(info.game, user_id, day):
            raise Refusal(RefusalCode.DAILY_NOT_FINISHED, game=games.get(info.game).title)

    async def _finished(self, game: str, user_id: int, day: date) -> bool:
        """Whether the user has a result for the day's deal of ``game``."""
        entry = await self.rows.entry(user_id, game, day.isoformat())
        if entry is not None and entry["mark"] is None:
            entry = await self._settle_lazily(entry)
        return entry is not None and entry["mark"] is not None

    async def field(self, game: str, day: date) -> list[Standing]:
        """Everyone who finished ``game``'s deal of ``day``, ranked by their share of the field."""
        found = await self.rows.field(game, day.isoformat())
        return standings(Entry(r["user_id"], r["name"], r["mark"], r["finished_at"], r["table_id"]) for r in found)

    async def _result(self, game: str, day: date, user_id: int,
                      rows: list[Standing] | None = None) -> dict[str, Any]:
        """The person's place, share and shareable line for a deal they finished."""
        rows = rows if rows is not None else await self.field(game, day)
        me = next(r for r in rows if r.user_id == user_id)
        days = [d for d in (parse_day(t) for t in await self.rows.days_played(user_id)) if d is not None]
        run = streak(days, day_of(self.clock()))
        return {"place": me.place, "of": len(rows), "percent": me.percent, "mark": me.mark, "streak": run,
                "line": result_line(games.get(game).title, day, me.share, run)}

    async def history(self, user_id: int, days: int = HISTORY_DAYS) -> dict[str, Any]:
        """The person's last deals of the day: each day's game, place and share (its table, to replay once the day
        has closed), their streak and their best share per game."""
        now = self.clock()
        out: list[dict[str, Any]] = []
        best: dict[str, int] = {}
        for entry in await self.rows.finished_of(user_id, days):
            day = parse_day(entry["day"])
            if day is None:
                continue
            rows = await self.field(entry["game"], day)
            me = next((r for r in rows if r.user_id == user_id), None)
            if me is None:
                continue
            closed = is_closed(day, now)
            out.append({"day": entry["day"], "game": entry["game"], "place": me.place, "of": len(rows),
                        "percent": me.percent, "closed": closed, "table_id": entry["table_id"] if closed else None})
            best[entry["game"]] = max(best.get(entry["game"], 0), me.percent)
        played = [d for d in (parse_day(t) for t in await self.rows.days_played(user_id)) if d is not None]
        return {"streak": streak(played, day_of(now)), "best": best, "days": out}

    async def closed_day_news(self) -> list[GroupNews]:
        """The last closed day's standings for each group two or more of whose members played it, not yet sent."""
        day = day_of(self.clock()) - timedelta(days=1)
        fields = {game: await self.field(game, day) for game in DAILY_OPTIONS}
        players = {r.user_id for rows in fields.values() for r in rows}
        news = []
        for chat_id, members in sorted((await self.rows.groups_of(players)).items()):
            if len(members) < 2 or await self.rows.news_sent(chat_id, day.isoformat()):
                continue
            mine = tuple((game, tuple(r for r in rows if r.user_id in members)) for game, rows in fields.items())
            news.append(GroupNews(chat_id, day, tuple((g, rows) for g, rows in mine if rows)))
        return news

    async def claim_news(self, chat_id: int, day: date) -> bool:
        """Take the sending of a day's standings to a group: True for the one caller (of any process) that may."""
        return await self.rows.claim_news(chat_id, day.isoformat(), self.clock())

    # the tables

    def _listen(self, table_id: str, game: str) -> None:
        """Hear the table's updates, to keep the result when the day's scored moment comes."""
        if table_id in self._listening:
            return

        async def heard(update: Any) -> None:
            mark = mark_of(game, [e.for_seat(SEAT) for e in update.events], SEAT, update.snapshot.public_state())
            if mark is None and update.kind == UpdateKind.ABANDONED:
                mark = FORFEIT
            if mark is not None:
                self._later(self._settle(table_id, mark))

        self._listening[table_id] = self.bus.listen(table_id, heard)

    def _later(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _settle(self, table_id: str, mark: int) -> None:
        """Keep a result, stop the table if it is still being played, and stop listening to it."""
        await self._keep(table_id, mark)
        listening = self._listening.pop(table_id, None)
        if listening is not None:
            listening.close()
        await self._stop(table_id)

    async def _settle_lazily(self, entry: dict[str, Any]) -> dict[str, Any]:
        """An entry with no result kept though its scored moment may be over (heard by no process: a restart, another
        process's table): read it from the table, keep it and stop the table; else listen to the table from now on."""
        table_id, game = entry["table_id"], entry["game"]
        table = await self.tables.get(table_id)
        info = table.info()
        if info.status in OVER:
            result = info.result or {}
            public = table.snapshot().public_state()
            mark = mark_of(game, [{"type": "finished", **result}], SEAT, public) if "scores" in result else None
            await self._keep(table_id, FORFEIT if mark is None else mark)
        else:
            public = table.snapshot().public_state() or {}
            mark = mark_from_sheet(game, public.get("score_sheet") or [], SEAT)
            if mark is None:
                self._listen(table_id, game)
                return entry
            await self._settle(table_id, mark)
        return await self.rows.entry(entry["user_id"], game, entry["day"]) or entry

    async def _keep(self, table_id: str, mark: int) -> None:
        """Keep the result of the entry played at the table: a forfeit if it came after its day closed."""
        table = await self.tables.get(table_id)
        day = parse_day(str(table.row.meta.get("daily", "")))
        now = self.clock()
        await self.rows.finish_entry(table_id, mark if day is None else counted(mark, day, now), now)

    async def wait_settled(self) -> None:
        """Wait for the results being kept (tests, and a clean stop)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    @fresh_on_conflict
    async def _seal(self, table_id: str, until: float, day: date) -> None:
        """Keep a deal of the day's seed back until its day closes, name the day in the table's meta, and seat the
        day's AI players (strong on a fixed budget: the same decisions for everyone).

        Run straight after the deal: nothing here waits before the seats change, so the first AI turn (a task
        the deal kicked) cannot be taken at another level.
        """
        table = await self.tables.get(table_id)
        async with table.lock:
            for seat in table.row.seats:
                if seat.is_ai:
                    seat.ai_level = DAILY_LEVEL
            table.row.meta[SEALED_UNTIL] = until
            table.row.meta["daily"] = day.isoformat()
            await self.store.tables.save_table(table.row, notice=notice(table, UpdateKind.META))

    @fresh_on_conflict
    async def _stop(self, table_id: str) -> None:
        """End a deal of the day still being played once its scored moment is over (its seed stays sealed)."""
        table = await self.tables.get(table_id)
        async with table.lock:
            if table.row.status != TableStatus.PLAYING:
                return
            table.row.status = TableStatus.ABANDONED
            table.row.deadline, table.row.ai_turn = None, False
            over = [public({"type": "abandoned", "daily": True})]
            await self.store.tables.save_table(table.row, with_seats=False,
                                               notice=notice(table, UpdateKind.ABANDONED, over))
            self.schedule.arm(table)
            await self.tables.publish(table, UpdateKind.ABANDONED, over)
        self.schedule.forget(table.id)
        self.tables.unload_ended(table.id)
