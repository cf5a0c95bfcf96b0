"""Lobbies: opening a table, seats, settings, starting, leaving, coming back, cancelling, rematches.

Whatever seats a person (opening a table, a lesson or a rematch, joining one) passes the cap on
their open tables first, holding their lock (``engine.service.open_tables``); a person's lock is
always taken before a table's. Opening a table or a lesson first spends one of the process's new
tables (``engine.service.opening_pace``); a rematch, one per finished game, does not.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from engine import games
from engine.catalogue import default_players
from engine.core.errors import BadOptions, Refusal, RefusalCode
from engine.core.events import Event, public
from engine.core.rng import new_seed, seed_hash
from engine.core.settings import options_dict
from engine.service.kinds import OPEN, TableStatus, UpdateKind, shown_seed
from engine.service.lessons import lesson_for
from engine.service.live import LiveTable, TableInfo
from engine.service.loading import Tables, notice
from engine.service.open_tables import OpenTablesCap
from engine.service.opening_pace import OpeningPace
from engine.service.schedule import Schedule
from engine.service.sharing import Sharing, fresh_on_conflict
from engine.service.table_ids import new_table_id
from engine.service.table_settings import (
    parse_level,
    parse_size,
    parse_timer,
    split_settings,
    stored_level,
)
from engine.store.database import Store
from engine.store.rows import SeatRow, TableRow

AI_NAMES = ("Ada", "Basil", "Cleo", "Dmitri", "Esme", "Felix")


class Lobby:
    """Everything people do with a table that is not a move."""

    def __init__(self, store: Store, tables: Tables, sharing: Sharing, schedule: Schedule, cap: OpenTablesCap, *,
                 clock: Callable[[], float] = time.time, pace: OpeningPace | None = None) -> None:
        self.store = store
        self.tables = tables
        self.catch_up = sharing.catch_up  # a change that met another process's write runs again after it
        self.schedule = schedule
        self.cap = cap
        self.clock = clock
        self.pace = pace  # the process's budget of new tables (None: unlimited)

    def check_opening(self) -> None:
        """Refuse (``too_many_new_tables``) while the process has no new table left to open: the door's cheap look,
        before a request is read or anyone signed in."""
        if self.pace is not None:
            self.pace.check()

    async def create_table(
        self,
        game: str,
        host_id: int,
        host_name: str,
        options: Mapping[str, Any] | None = None,
        *,
        chat_id: int | None = None,
        seed: str | None = None,
    ) -> TableInfo:
        """Open a lobby with the host in seat 0; refused at the host's cap on open tables, and when the process has
        spent its budget of new tables, before anything is read or written."""
        if self.pace is not None:
            self.pace.take(host_id)
        async with self.cap.room_for(host_id):
            return await self._open(game, host_id, host_name, options, chat_id=chat_id, seed=seed)

    async def play_now(
        self,
        game: str,
        user_id: int,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        chat_id: int | None = None,
        seed: str | None = None,
        lesson: bool = False,
    ) -> TableInfo:
        """Open a table for one person with AI players in every other seat, dealt: one write, so a deal that fails
        (bad options, the store out of reach) leaves no table behind; refused as ``create_table`` is."""
        if self.pace is not None:
            self.pace.take(user_id)
        async with self.cap.room_for(user_id):
            return await self._open(game, user_id, name, options, chat_id=chat_id, seed=seed, lesson=lesson,
                                    deal=True)

    async def _open(self, game: str, host_id: int, host_name: str, options: Mapping[str, Any] | None, *,
                    chat_id: int | None, seed: str | None = None, lesson: bool = False,
                    rematch_of: str | None = None, deal: bool = False) -> TableInfo:
        """Open a lobby with the host in seat 0, or (``deal``) a game already dealt against AI players (the host's
        lock held, the cap checked). Everything that can be refused is decided before the one write."""
        ruleset = games.get(game)
        raw, table_raw = split_settings(ruleset, options or {})
        parsed = ruleset.parse_options(raw)
        size = parse_size(ruleset, table_raw.get("players", default_players(ruleset)))
        timer = parse_timer(table_raw.get("timer", "none"))
        level = parse_level(table_raw.get("ai_level", "easy"))
        seed = seed or new_seed()
        now = self.clock()
        seats = [SeatRow(seat=i, name="", ai_level=level) for i in range(size)]
        seats[0].user_id, seats[0].name = host_id, host_name
        row = TableRow(
            id=new_table_id(), game=ruleset.name, options=options_dict(parsed), size=size,
            status=TableStatus.LOBBY,
            host_user_id=host_id, chat_id=chat_id, seed=seed, seed_hash=seed_hash(seed), timer=timer,
            meta={"ai_level": level, **({"lesson": True} if lesson else {}),
                  **({"rematch_of": rematch_of} if rematch_of else {})}, created_at=now, updated_at=now,
            seats=seats,
        )
        table = LiveTable(row, ruleset, parsed)
        events = self._deal(table) if deal else []
        await self.store.people.upsert_user(host_id, host_name)
        await self.store.tables.create_table(row)
        self.tables.add(table)
        if not deal:
            return await self.tables.publish(table, UpdateKind.LOBBY)
        self.schedule.arm(table)
        info = await self.tables.publish(table, UpdateKind.STARTED, events)
        self.schedule.kick(table)
        return info

    def _deal(self, table: LiveTable) -> list[Event]:
        """Fill the empty seats with AI players and deal the first hand (before the row is saved); the events."""
        for s in table.row.seats:
            if s.user_id is None and not s.is_ai:
                self._seat_ai(table, s)
        table.state = table.game.new_game(table.options, table.row.size, table.row.seed)
        table.seq = 0
        table.row.status = TableStatus.PLAYING
        self.schedule.refresh_due(table)
        return [public({"type": "started", "seed_hash": table.row.seed_hash}), *table.game.start_events(table.state)]

    async def start_lesson(self, game: str, user_id: int, name: str) -> TableInfo:
        """Open and start a guided first game of ``game`` for one person, AI players in the other seats."""
        lesson = lesson_for(game)
        return await self.play_now(game, user_id, name, lesson.options, seed=lesson.seed, lesson=True)

    @fresh_on_conflict
    async def join(self, table_id: str, user_id: int, name: str) -> TableInfo:
        """Take the first free seat; refused at the person's cap on open tables."""
        table = await self.tables.get(table_id)
        async with self.cap.room_for(user_id), table.lock:
            table.require_status(TableStatus.LOBBY)
            if table.seat_of(user_id) is not None:
                raise Refusal(RefusalCode.ALREADY_SEATED)
            free = [s for s in table.row.seats if s.user_id is None and not s.is_ai]
            if not free:
                raise Refusal(RefusalCode.TABLE_FULL)
            free[0].user_id, free[0].name = user_id, name
            await self.store.people.upsert_user(user_id, name)
            await self.store.tables.save_table(table.row, notice=notice(table, UpdateKind.LOBBY))
            return await self.tables.publish(table, UpdateKind.LOBBY)

    @fresh_on_conflict
    async def add_ai(self, table_id: str, by_user_id: int) -> TableInfo:
        """Seat an AI player in the first free seat (host only)."""
        table = await self.tables.get(table_id)
        async with table.lock:
            table.require_status(TableStatus.LOBBY)
            table.require_host(by_user_id)
            free = [s for s in table.row.seats if s.user_id is None and not s.is_ai]
            if not free:
                raise Refusal(RefusalCode.TABLE_FULL)
            self._seat_ai(table, free[0])
            await self.store.tables.save_table(table.row, notice=notice(table, UpdateKind.LOBBY))
            return await self.tables.publish(table, UpdateKind.LOBBY)

    @staticmethod
    def _seat_ai(table: LiveTable, seat: SeatRow) -> None:
        taken = {s.name for s in table.row.seats}
        seat.is_ai, seat.user_id = True, None
        seat.ai_level = table.row.meta.get("ai_level", "easy")
        seat.name = next((f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in taken), f"AI {seat.seat + 1}")

    @fresh_on_conflict
    async def set_options(self, table_id: str, by_user_id: int, changes: Mapping[str, Any]) -> TableInfo:
        """Change the game's settings, the number of seats or the timer (host, lobby only)."""
        table = await self.tables.get(table_id)
        async with table.lock:
            table.require_status(TableStatus.LOBBY)
            table.require_host(by_user_id)
            if not isinstance(changes, Mapping):
                raise BadOptions(RefusalCode.BAD_OPTIONS)
            raw, table_raw = split_settings(table.game, changes)
            parsed = table.game.parse_options({**table.row.options, **raw})
            size = parse_size(table.game, table_raw.get("players", table.row.size))
            timer = parse_timer(table_raw.get("timer", table.row.timer))
            level = parse_level(table_raw.get("ai_level", stored_level(table.row.meta)))
            seated = [s for s in table.row.seats if s.user_id is not None or s.is_ai]
            if size < len(seated):
                raise Refusal(RefusalCode.TOO_MANY_PLAYERS, seated=len(seated), size=size)
            table.options, table.row.options = parsed, options_dict(parsed)
            table.row.timer, table.row.meta["ai_level"] = timer, level
            seats = seated + [SeatRow(seat=0, name="", ai_level=level) for _ in range(size - len(seated))]
            for i, s in enumerate(seats):
                s.seat = i
            table.row.seats, table.row.size = seats, size
            await self.store.tables.save_table(table.row, notice=notice(table, UpdateKind.LOBBY))
            return await self.tables.publish(table, UpdateKind.LOBBY)

    @fresh_on_conflict
    async def leave(self, table_id: str, user_id: int) -> TableInfo:
        """Give up a seat: in the lobby it becomes free; during play an AI takes it over."""
        table = await self.tables.get(table_id)
        async with table.lock:
            table.require_status(*OPEN)
            seat = table.require_seat(user_id)
            row = table.seat_row(seat)
            if table.row.status == TableStatus.LOBBY:
                row.user_id, row.name = None, ""
                humans = [s for s in table.row.seats if s.user_id is not None]
                if not humans:
                    table.row.status = TableStatus.ABANDONED
                elif user_id == table.row.host_user_id:
                    table.row.host_user_id = humans[0].user_id or 0
                kind = UpdateKind.ABANDONED if table.row.status == TableStatus.ABANDONED else UpdateKind.LOBBY
                await self.store.tables.save_table(table.row, notice=notice(table, kind))
                info = await self.tables.publish(table, kind)
            else:
                name = row.name
                self._seat_ai(table, row)
                row.name = f"{name} (AI)" if not name.endswith("(AI)") else name
                self.schedule.refresh_due(table)
                left = [public({"type": "left", "seat": seat, "name": name})]
                await self.store.tables.save_table(table.row, notice=notice(table, UpdateKind.SEAT_CHANGED, left))
                self.schedule.arm(table)
                info = await self.tables.publish(table, UpdateKind.SEAT_CHANGED, left)
        self.schedule.kick(table)
        self.tables.unload_ended(table_id)
        return info

    @fresh_on_conflict
    async def back(self, table_id: str, user_id: int) -> TableInfo:
        """A person is back at the table: their seat leaves autopilot and waits for them again."""
        table = await self.tables.get(table_id)
        async with table.lock:
            table.require_status(TableStatus.PLAYING)
            row = table.seat_row(table.require_seat(user_id))
            if row.is_ai:
                raise Refusal(RefusalCode.SEAT_TAKEN_BY_AI)
            if not row.autopilot and not row.missed:
                return table.info()
            row.autopilot, row.missed = False, 0
            self.schedule.refresh_due(table)
            back = [public({"type": "autopilot", "seat": row.seat, "on": False})]
            await self.store.tables.save_table(table.row, notice=notice(table, UpdateKind.SEAT_CHANGED, back))
            self.schedule.arm(table)
            return await self.tables.publish(table, UpdateKind.SEAT_CHANGED, back)

    @fresh_on_conflict
    async def start_game(self, table_id: str, by_user_id: int) -> TableInfo:
        """Fill empty seats with AI players and deal (host only)."""
        table = await self.tables.get(table_id)
        async with table.lock:
            table.require_status(TableStatus.LOBBY)
            table.require_host(by_user_id)
            events = self._deal(table)
            await self.store.tables.save_table(table.row, notice=notice(table, UpdateKind.STARTED))
            self.schedule.arm(table)
            info = await self.tables.publish(table, UpdateKind.STARTED, events)
        self.schedule.kick(table)
        return info

    @fresh_on_conflict
    async def abandon(self, table_id: str, by_user_id: int, *, is_admin: bool = False) -> TableInfo:
        """Cancel a table (its host or a chat admin); the seed is revealed."""
        table = await self.tables.get(table_id)
        async with table.lock:
            table.require_status(*OPEN)
            if not is_admin:
                table.require_host(by_user_id)
            table.row.status = TableStatus.ABANDONED
            table.row.deadline, table.row.ai_turn = None, False
            gone = [public({"type": "abandoned", "seed": shown_seed(table.row.seed, table.row.meta)})]
            await self.store.tables.save_table(table.row, with_seats=False,
                                               notice=notice(table, UpdateKind.ABANDONED, gone))
            self.schedule.arm(table)
            info = await self.tables.publish(table, UpdateKind.ABANDONED, gone)
        self.schedule.forget(table.id)
        self.tables.unload_ended(table.id)
        return info

    async def rematch(self, table_id: str, by_user_id: int, name: str) -> tuple[TableInfo, bool]:
        """The one rematch of a finished table: a lobby with its game and settings, hosted by the asker.

        However often (and from however many processes) it is asked for, a table gets one rematch: the
        link is stored, and later calls get the same lobby. The finished table then names its rematch
        (published, so everyone looking at it learns where it went on). Returns the rematch's info and
        whether this call opened it.
        """
        table = await self.tables.get(table_id)
        opened: TableInfo | None = None
        async with self.cap.locked(by_user_id), table.lock:
            if table.row.status != TableStatus.FINISHED:
                cancelled = table.row.status == TableStatus.ABANDONED
                raise Refusal(RefusalCode.ABANDONED if cancelled else RefusalCode.NOT_FINISHED)
            linked = table.row.meta.get("rematch") or await self.store.chats.rematch_of(table_id)
            if linked is None:
                await self.cap.check(by_user_id)  # opening it seats the asker
                row = table.row
                options = {**row.options, "players": row.size, "timer": row.timer,
                           "ai_level": stored_level(row.meta)}
                opened = await self._open(row.game, by_user_id, name, options, chat_id=row.chat_id,
                                          rematch_of=table_id)
                linked = await self.store.chats.link_rematch(table_id, opened.id)
        if opened is not None and linked != opened.id:  # another process opened it first: keep theirs
            await self.abandon(opened.id, by_user_id)
        await self._name_rematch(table_id, linked)
        if opened is not None and linked == opened.id:
            return opened, True
        return await self.tables.info(linked), False

    @fresh_on_conflict
    async def _name_rematch(self, table_id: str, rematch_id: str) -> None:
        """Write the rematch's id on the finished table and tell everyone following it."""
        table = await self.tables.get(table_id)
        async with table.lock:
            if table.row.meta.get("rematch") == rematch_id:
                return
            table.row.meta["rematch"] = rematch_id
            await self.store.tables.save_table(table.row, with_seats=False, notice=notice(table, UpdateKind.REMATCH))
            await self.tables.publish(table, UpdateKind.REMATCH)

    async def join_rematch(self, table_id: str, user_id: int, name: str) -> tuple[TableInfo, bool]:
        """The rematch of a finished table with the asker in it: opened and hosted by them if they are the first,
        else a seat taken while it is a lobby (a rematch already dealt is only returned). Also says if it was opened.
        """
        fresh, opened = await self.rematch(table_id, user_id, name)
        if not opened and fresh.status == TableStatus.LOBBY and fresh.seat_of(user_id) is None:
            fresh = await self.join(fresh.id, user_id, name)
        return fresh, opened
