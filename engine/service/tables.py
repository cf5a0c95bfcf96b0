"""The table service: lobbies, moves, AI seats, durable storage and publishing.

Every change to a table happens under that table's lock, is checked by the rules,
stored, and only then applied in memory and published. A move carries the ``seq`` it
was made against; an old or repeated one is refused with ``stale`` and never applied
twice (the store's unique ``(table_id, seq)`` guards across processes too).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine import games
from engine.core.errors import BadOptions, MalformedAction, Refusal, RefusalCode
from engine.core.events import Event, for_seat, public
from engine.core.rng import new_seed, seed_hash
from engine.core.rules import replay
from engine.core.settings import options_dict
from engine.service.autoplay import Autoplay
from engine.service.bus import MemoryBus, Subscription, Update
from engine.service.live import LiveTable, TableInfo
from engine.service.table_settings import (
    TABLE_SETTINGS,
    check_action_shape,
    default_size,
    parse_level,
    parse_size,
    parse_timer,
)
from engine.service.timers import TurnTimers
from engine.store.database import Store
from engine.store.rows import LoggedAction, SeatRow, TableRow

log = logging.getLogger(__name__)
AI_NAMES = ("Ada", "Basil", "Cleo", "Dmitri", "Esme", "Felix")


@dataclass(frozen=True, slots=True)
class ActResult:
    """An accepted move: the seq it led to and the events as the mover may see them."""

    seq: int
    events: list[dict[str, Any]]


class TableService:
    """Owns every table of this process; adapters call it and subscribe to its bus."""

    def __init__(
        self,
        store: Store,
        bus: MemoryBus | None = None,
        *,
        ai_delay: float = 0.0,
        clock: Callable[[], float] = time.time,
        run_timers: bool = True,
    ) -> None:
        self.store = store
        self.bus = bus or MemoryBus()
        self.clock = clock
        self._tables: dict[str, LiveTable] = {}
        self.autoplay = Autoplay(self, delay=ai_delay)
        self.timers = TurnTimers(self, run_loop=run_timers)

    # life cycle ---------------------------------------------------------------

    async def start(self) -> None:
        """Resume every unfinished table exactly where it was."""
        for row in await self.store.unfinished_tables():
            table = await self._revive(row)
            self.autoplay.kick(table)
        self.timers.start()  # stored deadlines are kept as they were, so a restart gives nobody extra time

    async def close(self) -> None:
        """Stop the AI and timers."""
        await self.timers.close()
        await self.autoplay.close()

    async def tick_timers(self) -> None:
        """Handle the reminders and expiries due now (the timer loop does this by itself)."""
        await self.timers.tick()

    def tables(self) -> list[LiveTable]:
        """Every table this process is serving."""
        return list(self._tables.values())

    async def _revive(self, row: TableRow) -> LiveTable:
        game = games.get(row.game)
        table = LiveTable(row, game, game.parse_options(row.options))
        if row.status in ("playing", "finished"):
            log_entries = await self.store.load_actions(row.id)
            table.state = replay(game, table.options, row.size, row.seed, [(a.seat, a.action) for a in log_entries])
            table.seq = len(log_entries)
        self._tables[row.id] = table
        return table

    async def _table(self, table_id: str) -> LiveTable:
        table = self._tables.get(table_id)
        if table is not None:
            return table
        row = await self.store.load_table(table_id) if isinstance(table_id, str) and len(table_id) <= 32 else None
        if row is None:
            raise Refusal(RefusalCode.TABLE_NOT_FOUND)
        return await self._revive(row)

    # lobby --------------------------------------------------------------------

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
        """Open a lobby with the host in seat 0."""
        ruleset = games.get(game)
        raw = dict(options or {})
        table_raw = {k: raw.pop(k) for k in TABLE_SETTINGS if k in raw}
        parsed = ruleset.parse_options(raw)
        size = parse_size(ruleset, table_raw.get("players", default_size(ruleset)))
        timer = parse_timer(table_raw.get("timer", "none"))
        level = parse_level(table_raw.get("ai_level", "easy"))
        seed = seed or new_seed()
        now = self.clock()
        seats = [SeatRow(seat=i, name="", ai_level=level) for i in range(size)]
        seats[0].user_id, seats[0].name = host_id, host_name
        row = TableRow(
            id=secrets.token_urlsafe(6), game=ruleset.name, options=options_dict(parsed), size=size, status="lobby",
            host_user_id=host_id, chat_id=chat_id, seed=seed, seed_hash=seed_hash(seed), timer=timer,
            meta={"ai_level": level}, created_at=now, updated_at=now, seats=seats,
        )
        await self.store.upsert_user(host_id, host_name)
        await self.store.create_table(row)
        table = LiveTable(row, ruleset, parsed)
        self._tables[row.id] = table
        return self._publish(table, "lobby")

    async def join(self, table_id: str, user_id: int, name: str) -> TableInfo:
        """Take the first free seat."""
        table = await self._table(table_id)
        async with table.lock:
            table.require_status("lobby")
            if table.seat_of(user_id) is not None:
                raise Refusal(RefusalCode.ALREADY_SEATED)
            free = [s for s in table.row.seats if s.user_id is None and not s.is_ai]
            if not free:
                raise Refusal(RefusalCode.TABLE_FULL)
            free[0].user_id, free[0].name = user_id, name
            await self.store.upsert_user(user_id, name)
            await self.store.save_table(table.row)
            return self._publish(table, "lobby")

    async def add_ai(self, table_id: str, by_user_id: int) -> TableInfo:
        """Seat an AI player in the first free seat (host only)."""
        table = await self._table(table_id)
        async with table.lock:
            table.require_status("lobby")
            table.require_host(by_user_id)
            free = [s for s in table.row.seats if s.user_id is None and not s.is_ai]
            if not free:
                raise Refusal(RefusalCode.TABLE_FULL)
            self._seat_ai(table, free[0])
            await self.store.save_table(table.row)
            return self._publish(table, "lobby")

    def _seat_ai(self, table: LiveTable, seat: SeatRow) -> None:
        taken = {s.name for s in table.row.seats}
        seat.is_ai, seat.user_id = True, None
        seat.ai_level = table.row.meta.get("ai_level", "easy")
        seat.name = next((f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in taken), f"AI {seat.seat + 1}")

    async def set_options(self, table_id: str, by_user_id: int, changes: Mapping[str, Any]) -> TableInfo:
        """Change the game's settings, the number of seats or the timer (host, lobby only)."""
        table = await self._table(table_id)
        async with table.lock:
            table.require_status("lobby")
            table.require_host(by_user_id)
            if not isinstance(changes, Mapping):
                raise BadOptions(RefusalCode.BAD_OPTIONS)
            raw = dict(changes)
            table_raw = {k: raw.pop(k) for k in TABLE_SETTINGS if k in raw}
            parsed = table.game.parse_options({**table.row.options, **raw})
            size = parse_size(table.game, table_raw.get("players", table.row.size))
            timer = parse_timer(table_raw.get("timer", table.row.timer))
            level = parse_level(table_raw.get("ai_level", table.row.meta.get("ai_level", "easy")))
            seated = [s for s in table.row.seats if s.user_id is not None or s.is_ai]
            if size < len(seated):
                raise Refusal(RefusalCode.TOO_MANY_PLAYERS, seated=len(seated), size=size)
            table.options, table.row.options = parsed, options_dict(parsed)
            table.row.timer, table.row.meta["ai_level"] = timer, level
            seats = seated + [SeatRow(seat=0, name="", ai_level=level) for _ in range(size - len(seated))]
            for i, s in enumerate(seats):
                s.seat = i
            table.row.seats, table.row.size = seats, size
            await self.store.save_table(table.row)
            return self._publish(table, "lobby")

    async def leave(self, table_id: str, user_id: int) -> TableInfo:
        """Give up a seat: in the lobby it becomes free; during play an AI takes it over."""
        table = await self._table(table_id)
        async with table.lock:
            table.require_status("lobby", "playing")
            seat = table.require_seat(user_id)
            row = table.seat_row(seat)
            if table.row.status == "lobby":
                row.user_id, row.name = None, ""
                humans = [s for s in table.row.seats if s.user_id is not None]
                if not humans:
                    table.row.status = "abandoned"
                elif user_id == table.row.host_user_id:
                    table.row.host_user_id = humans[0].user_id or 0
                await self.store.save_table(table.row)
                return self._publish(table, "abandoned" if table.row.status == "abandoned" else "lobby")
            name = row.name
            self._seat_ai(table, row)
            row.name = f"{name} (AI)" if not name.endswith("(AI)") else name
            await self.store.save_table(table.row)
            await self.timers.arm(table)
            info = self._publish(table, "seat_changed", [public({"type": "left", "seat": seat, "name": name})])
        self.autoplay.kick(table)
        return info

    async def back(self, table_id: str, user_id: int) -> TableInfo:
        """A person is back at the table: their seat leaves autopilot and waits for them again."""
        table = await self._table(table_id)
        async with table.lock:
            table.require_status("playing")
            row = table.seat_row(table.require_seat(user_id))
            if row.is_ai:
                raise Refusal(RefusalCode.SEAT_TAKEN_BY_AI)
            if not row.autopilot and not row.missed:
                return table.info()
            row.autopilot, row.missed = False, 0
            await self.store.save_table(table.row)
            await self.timers.arm(table)
            return self._publish(table, "seat_changed", [public({"type": "autopilot", "seat": row.seat, "on": False})])

    async def start_game(self, table_id: str, by_user_id: int) -> TableInfo:
        """Fill empty seats with AI players and deal (host only)."""
        table = await self._table(table_id)
        async with table.lock:
            table.require_status("lobby")
            table.require_host(by_user_id)
            for s in table.row.seats:
                if s.user_id is None and not s.is_ai:
                    self._seat_ai(table, s)
            table.state = table.game.new_game(table.options, table.row.size, table.row.seed)
            table.seq = 0
            table.row.status = "playing"
            await self.store.save_table(table.row)
            await self.timers.arm(table)
            events = [public({"type": "started", "seed_hash": table.row.seed_hash}),
                      *table.game.start_events(table.state)]
            info = self._publish(table, "started", events)
        self.autoplay.kick(table)
        return info

    async def abandon(self, table_id: str, by_user_id: int, *, is_admin: bool = False) -> TableInfo:
        """Cancel a table (its host or a chat admin); the seed is revealed."""
        table = await self._table(table_id)
        async with table.lock:
            table.require_status("lobby", "playing")
            if not is_admin:
                table.require_host(by_user_id)
            table.row.status = "abandoned"
            table.row.deadline = None
            await self.store.save_table(table.row, with_seats=False)
            info = self._publish(table, "abandoned", [public({"type": "abandoned", "seed": table.row.seed})])
        self.autoplay.forget(table.id)
        return info

    # play ---------------------------------------------------------------------

    async def act(self, table_id: str, user_id: int, action: Mapping[str, Any], seq: int) -> ActResult:
        """A person's move, made against ``seq``; raises Refusal and changes nothing when refused."""
        table = await self._table(table_id)
        seat = table.require_seat(user_id)
        check_action_shape(action)
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise MalformedAction(RefusalCode.MOVE_WITHOUT_SEQ)
        async with table.lock:
            table.require_status("playing")
            if seq != table.seq:
                raise Refusal(RefusalCode.STALE)
            events = await self.apply_locked(table, seat, action, auto=False)
        self.autoplay.kick(table)
        return ActResult(table.seq, for_seat(events, seat))

    async def apply_locked(self, table: LiveTable, seat: int, action: Mapping[str, Any], *, auto: bool) -> list[Event]:
        """Apply, store, then publish one move; the caller holds the table's lock."""
        state, events = table.game.apply(table.state, seat, action)
        entry = LoggedAction(table.seq + 1, seat, dict(action), auto)
        try:
            await self.store.append(table.id, entry)
        except Refusal:
            await self._reload(table)
            raise
        table.state, table.seq = state, entry.seq
        seat_row = table.seat_row(seat)
        if not auto:
            table.standins.discard(seat)
        if not auto and (seat_row.autopilot or seat_row.missed):
            seat_row.autopilot, seat_row.missed = False, 0
            await self.store.save_table(table.row)
        outcome = table.game.outcome(state)
        if outcome is None:
            await self.timers.arm(table)
            self._publish(table, "moved", events)
            return events
        table.row.status = "finished"
        table.row.deadline = None
        table.row.result = outcome.as_dict()
        await self.store.save_table(table.row, with_seats=False)
        events = [*events, public({"type": "finished", **outcome.as_dict(), "seed": table.row.seed})]
        self._publish(table, "finished", events)
        return events

    async def _reload(self, table: LiveTable) -> None:
        """Another process moved this table on: rebuild it from the store."""
        row = await self.store.load_table(table.id)
        if row is not None:
            fresh = await self._revive(row)
            table.row, table.state, table.seq = fresh.row, fresh.state, fresh.seq
            self._tables[table.id] = table

    # reading ------------------------------------------------------------------

    async def info(self, table_id: str) -> TableInfo:
        """The public snapshot of a table."""
        return (await self._table(table_id)).info()

    async def view(self, table_id: str, user_id: int | None) -> dict[str, Any]:
        """What a user (None: a spectator) may see: the table and, once dealt, their view of the game."""
        table = await self._table(table_id)
        return self.view_of(table, table.seat_of(user_id) if user_id is not None else None)

    def view_of(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        """The view of a table for a seat, without touching the store."""
        return {
            "table": table.info().as_dict(),
            "seq": table.seq,
            "you": seat,
            "state": table.game.view(table.state, seat) if table.state is not None else None,
        }

    def live(self, table_id: str) -> LiveTable | None:
        """The table if this process is serving it."""
        return self._tables.get(table_id)

    async def tables_of(self, user_id: int) -> list[TableInfo]:
        """Unfinished tables where the user has a seat."""
        return [t.info() for t in self._tables.values()
                if t.row.status in ("lobby", "playing") and t.seat_of(user_id) is not None]

    def tables_in_chat(self, chat_id: int, *statuses: str) -> list[TableInfo]:
        """Unfinished tables opened from a chat, newest first (every unfinished table is in memory)."""
        wanted = statuses or ("lobby", "playing")
        found = [t for t in self._tables.values() if t.row.chat_id == chat_id and t.row.status in wanted]
        found.sort(key=lambda t: t.row.created_at, reverse=True)
        return [t.info() for t in found]

    def subscribe(self, table_id: str | None = None) -> Subscription:
        """Receive updates of one table (or every table)."""
        return self.bus.subscribe(table_id)

    async def set_meta(self, table_id: str, key: str, value: Any) -> None:
        """Remember an adapter's value (a message id, say) with the table."""
        table = await self._table(table_id)
        async with table.lock:
            table.row.meta[key] = value
            await self.store.save_table(table.row, with_seats=False)

    async def get_meta(self, table_id: str, key: str) -> Any:
        """An adapter's value stored with the table, or None."""
        return (await self._table(table_id)).row.meta.get(key)

    def _publish(self, table: LiveTable, kind: str, events: list[Event] | None = None) -> TableInfo:
        info = table.info()
        self.bus.publish(Update(table.id, table.seq, kind, tuple(events or ()), info))
        return info
