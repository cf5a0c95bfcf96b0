"""The table service: the one owner of every change to a table and of every publish.

Every change happens under the table's lock, is checked by the rules, stored (a move
and everything it implies, such as the game's end, in one transaction), and only then
applied in memory and published. A move carries the ``seq`` it was made against; an
old or repeated one is refused with ``stale`` and never applied twice (the store's
unique ``(table_id, seq)`` guards across processes too).

Autoplay and the turn timers are schedulers: they say when an AI turn or a deadline is
due, and the service makes the change (``_ai_step``, ``_timer_due``). A supervisor
(``heal``) restarts any table whose AI or deadline was left with nobody acting on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import time
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Concatenate, ParamSpec, TypeVar

from engine import games
from engine.core.errors import BadOptions, MalformedAction, Refusal, RefusalCode
from engine.core.events import Event, for_seat, public
from engine.core.rng import new_seed, seed_hash
from engine.core.rules import Outcome, replay
from engine.core.settings import options_dict
from engine.service import ratings
from engine.service.autoplay import Autoplay
from engine.service.bus import MemoryBus, Subscription, Update
from engine.service.live import LiveTable, Snapshot, TableInfo
from engine.service.peers import LocalPeers, Notice, Peers, PostgresPeers
from engine.service.record import Record
from engine.service.table_settings import (
    TABLE_SETTINGS,
    check_action_shape,
    default_size,
    parse_level,
    parse_size,
    parse_timer,
)
from engine.service.timers import AUTOPILOT_AFTER, REMINDER_LEAD, Due, TurnTimers, deadline_after, remind_time
from engine.store.database import StaleRow, Store
from engine.store.rows import Finish, LoggedAction, SeatResult, SeatRow, TableRow

log = logging.getLogger(__name__)
AI_NAMES = ("Ada", "Basil", "Cleo", "Dmitri", "Esme", "Felix")
HEAL_EVERY = 10.0  # seconds between the supervisor's rounds
MAX_LOADED = 5000  # tables kept in memory; idle ones beyond this are unloaded, least recently used first
CONFLICT_TRIES = 4  # a change that meets another process's write reloads the table and tries again
P = ParamSpec("P")
R = TypeVar("R")


def with_standins(meta: Mapping[str, Any], standins: Iterable[int]) -> dict[str, Any]:
    """The table's meta with its stand-ins (seats whose timed-out turn an AI plays) set."""
    seats = sorted(set(standins))
    fresh = {k: v for k, v in meta.items() if k != "standins"}
    if seats:
        fresh["standins"] = seats
    return fresh


def fresh_on_conflict(
    change: Callable[Concatenate[TableService, str, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[TableService, str, P], Coroutine[Any, Any, R]]:
    """Run a change of a table again on its fresh row when another process wrote the row first."""

    async def run(service: TableService, table_id: str, /, *args: P.args, **kwargs: P.kwargs) -> R:
        for _ in range(CONFLICT_TRIES - 1):
            try:
                return await change(service, table_id, *args, **kwargs)
            except StaleRow:
                await service.catch_up(table_id)
        return await change(service, table_id, *args, **kwargs)

    run.__name__, run.__qualname__, run.__doc__ = change.__name__, change.__qualname__, change.__doc__
    return run


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
        heal_every: float | None = HEAL_EVERY,
        max_loaded: int = MAX_LOADED,
        peers: Peers | None = None,
    ) -> None:
        self.store = store
        self.peers: Peers = peers or (PostgresPeers(store.dsn) if store.is_shared else LocalPeers())
        self.record = Record(store)
        self.bus = bus or MemoryBus()
        self.clock = clock
        self._tables: dict[str, LiveTable] = {}  # the tables in use, least recently used first
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        self.autoplay = Autoplay(self._ai_step, delay=ai_delay, claim=self.peers.lease)
        self.timers = TurnTimers(clock, self._timer_due, run_loop=run_timers)
        self.heal_every = heal_every
        self.max_loaded = max_loaded
        self._healer: asyncio.Task[None] | None = None
        self._scanned_until = 0.0  # deadlines up to here are armed
        self._first_round = asyncio.Event()

    # life cycle ---------------------------------------------------------------

    async def start(self) -> None:
        """Serve at once: tables load when used; the AI turns and deadlines a restart left are resumed from the store.

        Nothing here grows with the number of tables in the database: AI turns are paged
        through in the background, deadlines are armed a window ahead, and stored
        deadlines are kept as they were, so a restart gives nobody extra time.
        """
        await self.peers.start(self._heard)
        self.store.origin = self.peers.origin
        await self._arm_from_store()
        self.timers.start()
        if self._healer is None:  # one round at once (the AI turns a restart left), then every heal_every
            self._healer = asyncio.create_task(self._heal_loop(self.heal_every), name="table-healer")

    async def idle(self) -> None:
        """Wait until the first supervisor round has run and no AI seat anywhere is about to move."""
        if self._healer is not None:
            await self._first_round.wait()
        await self.autoplay.idle()

    async def close(self) -> None:
        """Stop the supervisor, the AI and the timers."""
        if self._healer is not None:
            self._healer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._healer
            self._healer = None
        await self.timers.close()
        await self.autoplay.close()
        await self.peers.close()

    async def _finish_revived(self, table: LiveTable) -> None:
        """A game stored before its end was: store the result it implies (an older crash could leave this)."""
        outcome = table.game.outcome(table.state)
        assert outcome is not None
        row = replace(table.row, status="finished", deadline=None, ai_turn=False, result=outcome.as_dict())
        await self.store.save_table(row, with_seats=False, notice=self._notice(table, "finished"),
                                    finish=self._finish_record(table, row, outcome))
        table.row = row
        log.warning("table %s was over but stored as playing; finished it", table.id)
        self._publish(table, "finished", [public({"type": "finished", **outcome.as_dict(), "seed": row.seed})])

    async def heal(self) -> int:
        """Restart the AI of any table whose automatic seat is to act with nobody acting; re-arm lost deadlines.

        Loaded tables are checked in memory; tables not loaded are found in the store
        (``ai_turn``), so an AI turn left by a crash or a restart is resumed too.
        """
        healed = 0
        for table in list(self._tables.values()):
            if table.row.status != "playing":
                continue
            if (table.automatic_to_act() and not self.autoplay.is_running(table.id) and not table.lock.locked()
                    and await self.peers.lease(table.id)):
                log.warning("table %s had an AI to act and nobody acting; restarted it", table.id)
                self.autoplay.kick(table.id)
                healed += 1
            if table.row.deadline is not None and self.timers.armed(table.id) is None:
                self._arm(table)
                healed += 1
        after = ""
        while page := await self.store.ai_turn_tables(after):
            for table_id in page:
                if table_id in self._tables or self.autoplay.is_running(table_id):
                    continue
                if await self.peers.lease(table_id):
                    self.autoplay.kick(table_id)
                    healed += 1
            after = page[-1]
        await self._arm_from_store()
        self._evict()
        return healed

    async def _heal_loop(self, every: float | None) -> None:
        while True:
            try:
                await self.heal()
            except Exception:
                log.exception("the table supervisor failed")
            self._first_round.set()
            if not every:
                return
            await asyncio.sleep(every)

    async def _arm_from_store(self) -> None:
        """Arm the stored deadlines (and reminders) due within the next scan window, loaded tables or not."""
        until = self.clock() + 2 * (self.heal_every or HEAL_EVERY) + REMINDER_LEAD
        if until <= self._scanned_until:
            return
        for table_id, timer, deadline, reminded in await self.store.deadlines_before(until):
            if table_id not in self._tables:
                remind_at = None if reminded == deadline else remind_time(timer, deadline)
                self.timers.arm(table_id, deadline, remind_at)
        self._scanned_until = until

    async def tick_timers(self) -> None:
        """Handle the reminders and expiries due now (the timer loop does this by itself)."""
        await self._arm_from_store()
        await self.timers.tick()

    def tables(self) -> list[LiveTable]:
        """The tables this process has in memory now."""
        return list(self._tables.values())

    async def _revive(self, row: TableRow) -> LiveTable:
        game = games.get(row.game)
        table = LiveTable(row, game, game.parse_options(row.options))
        if row.status in ("playing", "finished"):
            log_entries = await self.store.load_actions(row.id)
            table.state = replay(game, table.options, row.size, row.seed, [(a.seat, a.action) for a in log_entries])
            table.seq = len(log_entries)
        return table

    async def _table(self, table_id: str) -> LiveTable:
        """The table, loaded from the store if it is not in memory (once, however many ask at the same time)."""
        table = self._tables.get(table_id)
        if table is not None:
            self._tables[table_id] = self._tables.pop(table_id)  # most recently used last
            return table
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            raise Refusal(RefusalCode.TABLE_NOT_FOUND)
        loading = self._loading.get(table_id)
        if loading is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[LiveTable] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            row = await self.store.load_table(table_id)
            if row is None:
                raise Refusal(RefusalCode.TABLE_NOT_FOUND)
            table = await self._revive(row)
            self._tables[table_id] = table
            if table.row.status == "playing" and table.game.outcome(table.state) is not None:
                async with table.lock:
                    await self._finish_revived(table)
            elif table.row.status == "playing":
                self._arm(table)
                self._kick(table)
            future.set_result(table)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: whoever waits gets it, nobody else needs to
            raise
        finally:
            del self._loading[table_id]
        self._evict()
        return table

    def _evict(self) -> None:
        """Keep memory bounded: unload the least recently used idle tables beyond ``max_loaded``."""
        excess = len(self._tables) - self.max_loaded
        if excess <= 0:
            return
        for table_id, table in list(self._tables.items()):
            if excess <= 0:
                return
            busy = (table.lock.locked() or table.standins or self.autoplay.is_running(table_id)
                    or self.bus.subscriber_count(table_id))
            if not busy:
                del self._tables[table_id]  # its deadline stays armed: the table loads again when it comes due
                self._release_later(table_id)
                excess -= 1

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
        self._evict()
        return self._publish(table, "lobby")

    @fresh_on_conflict
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
            await self.store.save_table(table.row, notice=self._notice(table, "lobby"))
            return self._publish(table, "lobby")

    @fresh_on_conflict
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
            await self.store.save_table(table.row, notice=self._notice(table, "lobby"))
            return self._publish(table, "lobby")

    @staticmethod
    def _seat_ai(table: LiveTable, seat: SeatRow) -> None:
        taken = {s.name for s in table.row.seats}
        seat.is_ai, seat.user_id = True, None
        seat.ai_level = table.row.meta.get("ai_level", "easy")
        seat.name = next((f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in taken), f"AI {seat.seat + 1}")

    @fresh_on_conflict
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
            await self.store.save_table(table.row, notice=self._notice(table, "lobby"))
            return self._publish(table, "lobby")

    @fresh_on_conflict
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
                kind = "abandoned" if table.row.status == "abandoned" else "lobby"
                await self.store.save_table(table.row, notice=self._notice(table, kind))
                return self._publish(table, kind)
            name = row.name
            self._seat_ai(table, row)
            row.name = f"{name} (AI)" if not name.endswith("(AI)") else name
            self._refresh_due(table)
            left = [public({"type": "left", "seat": seat, "name": name})]
            await self.store.save_table(table.row, notice=self._notice(table, "seat_changed", left))
            self._arm(table)
            info = self._publish(table, "seat_changed", left)
        self._kick(table)
        return info

    @fresh_on_conflict
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
            self._refresh_due(table)
            back = [public({"type": "autopilot", "seat": row.seat, "on": False})]
            await self.store.save_table(table.row, notice=self._notice(table, "seat_changed", back))
            self._arm(table)
            return self._publish(table, "seat_changed", back)

    @fresh_on_conflict
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
            self._refresh_due(table)
            await self.store.save_table(table.row, notice=self._notice(table, "started"))
            self._arm(table)
            events = [public({"type": "started", "seed_hash": table.row.seed_hash}),
                      *table.game.start_events(table.state)]
            info = self._publish(table, "started", events)
        self._kick(table)
        return info

    @fresh_on_conflict
    async def abandon(self, table_id: str, by_user_id: int, *, is_admin: bool = False) -> TableInfo:
        """Cancel a table (its host or a chat admin); the seed is revealed."""
        table = await self._table(table_id)
        async with table.lock:
            table.require_status("lobby", "playing")
            if not is_admin:
                table.require_host(by_user_id)
            table.row.status = "abandoned"
            table.row.deadline, table.row.ai_turn = None, False
            gone = [public({"type": "abandoned", "seed": table.row.seed})]
            await self.store.save_table(table.row, with_seats=False, notice=self._notice(table, "abandoned", gone))
            self._arm(table)
            info = self._publish(table, "abandoned", gone)
        self.autoplay.forget(table.id)
        return info

    async def rematch(self, table_id: str, by_user_id: int, name: str) -> tuple[TableInfo, bool]:
        """The one rematch of a finished table: a lobby with its game and settings, hosted by the asker.

        However often (and from however many processes) it is asked for, a table gets one rematch: the
        link is stored, and later calls get the same lobby. Returns its info and whether this call opened it.
        """
        table = await self._table(table_id)
        async with table.lock:
            table.require_status("finished")
            existing = await self.store.rematch_of(table_id)
            if existing is not None:
                return await self.info(existing), False
            row = table.row
            options = {**row.options, "players": row.size, "timer": row.timer,
                       "ai_level": row.meta.get("ai_level", "easy")}
            fresh = await self.create_table(row.game, by_user_id, name, options, chat_id=row.chat_id)
            linked = await self.store.link_rematch(table_id, fresh.id)
        if linked != fresh.id:  # another process opened it first: keep theirs
            await self.abandon(fresh.id, by_user_id)
            return await self.info(linked), False
        return fresh, True

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> list[TableInfo]:
        """A group became a supergroup with a new id: its tables follow it there."""
        moved = []
        for table in [t for t in self._tables.values() if t.row.chat_id == old_chat_id]:
            async with table.lock:
                if table.row.chat_id != old_chat_id:
                    continue
                table.row.chat_id = new_chat_id
                await self.store.save_table(table.row, with_seats=False)
                moved.append(self._publish(table, "chat_moved"))
        return moved

    async def expire_idle(self, *, lobby_after: float, game_after: float) -> list[TableInfo]:
        """Cancel lobbies untouched for ``lobby_after`` seconds and untimed games with no move for ``game_after``."""
        now = self.clock()
        idle = [t for t in self._tables.values()
                if t.row.status == "lobby" or (t.row.status == "playing" and t.row.deadline is None)]
        last_moves = await self.store.last_moves([t.id for t in idle if t.row.status == "playing"])
        expired = []
        for table in idle:
            async with table.lock:
                row = table.row
                touched = max(row.updated_at, row.created_at, last_moves.get(table.id, 0.0))
                limit = lobby_after if row.status == "lobby" else game_after
                if row.status not in ("lobby", "playing") or row.deadline is not None or now - touched < limit:
                    continue
                row.status, row.deadline = "abandoned", None
                await self.store.save_table(row, with_seats=False)
                self._arm(table)
                expired.append(self._publish(table, "abandoned", [
                    public({"type": "expired", "idle": now - touched, "seed": row.seed})]))
            self.autoplay.forget(table.id)
        return expired

    # play ---------------------------------------------------------------------

    async def act(self, table_id: str, user_id: int, action: Mapping[str, Any], seq: int) -> ActResult:
        """A person's move, made against ``seq``; raises Refusal and changes nothing when refused."""
        table = await self._table(table_id)
        seat = table.require_seat(user_id)
        check_action_shape(action)
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise MalformedAction(RefusalCode.MOVE_WITHOUT_SEQ)
        if seq > table.seq and self.store.is_shared:  # another process moved it and its notice is on the way
            await self.catch_up(table_id)
        async with table.lock:
            table.require_status("playing")
            if seq != table.seq:
                raise Refusal(RefusalCode.STALE)
            events = await self._commit_move(table, seat, action, auto=False)
        self._kick(table)
        return ActResult(table.seq, for_seat(events, seat))

    async def _commit_move(self, table: LiveTable, seat: int, action: Mapping[str, Any], *, auto: bool) -> list[Event]:
        """Apply one move, store it with everything it implies in one transaction, then publish; lock held.

        Nothing in memory changes until the store has the move: the table's new row
        (finished status and result, the next deadline, a seat back from autopilot)
        is built aside and swapped in after the commit.
        """
        state, events = table.game.apply(table.state, seat, action)
        entry = LoggedAction(table.seq + 1, seat, dict(action), auto)
        standins = set(table.standins)
        if not auto or (seat in standins and self._turn_over(table, seat, state)):
            standins.discard(seat)  # a stand-in plays only the turn that timed out
        meta = with_standins(table.row.meta, standins)
        seat_row = table.seat_row(seat)
        back = not auto and (seat_row.autopilot or seat_row.missed > 0)
        seats = [replace(s, autopilot=False, missed=0) if s.seat == seat else s for s in table.row.seats] if back \
            else table.row.seats
        outcome = table.game.outcome(state)
        if outcome is not None:
            row = replace(table.row, status="finished", deadline=None, ai_turn=False, result=outcome.as_dict(),
                          seats=seats, meta=with_standins(meta, ()))
        else:
            after = LiveTable(replace(table.row, seats=seats, meta=meta), table.game, table.options, state, entry.seq)
            row = replace(after.row, deadline=self._deadline(after), ai_turn=bool(after.automatic_to_act()))
            if row.deadline != table.row.deadline:
                row.meta = {k: v for k, v in row.meta.items() if k != "reminded"}
        changed = (row.status != table.row.status or row.deadline != table.row.deadline
                   or row.ai_turn != table.row.ai_turn or row.meta != table.row.meta or back)
        finish = self._finish_record(table, row, outcome) if outcome is not None else None
        try:
            await self.store.append(table.id, entry, row if changed else None, with_seats=back, finish=finish,
                                    version=table.row.version)
        except Refusal:
            await self._reload(table)
            raise
        table.row, table.state, table.seq = row, state, entry.seq
        if outcome is None:
            self._arm(table)
            self._publish(table, "moved", events)
            return events
        self._arm(table)
        events = [*events, public({"type": "finished", **outcome.as_dict(), "seed": table.row.seed})]
        self._publish(table, "finished", events)
        return events

    def _finish_record(self, table: LiveTable, row: TableRow, outcome: Outcome) -> Finish:
        """The results and rating update a finished game adds to the record."""
        people = tuple((s.user_id if not s.is_ai else None, s.ai_level) for s in row.seats)
        seats = tuple(SeatResult(s.seat, None if s.is_ai else s.user_id, s.name,
                                 outcome.placements[s.seat], outcome.scores[s.seat]) for s in row.seats)
        return Finish(row.id, row.game, row.chat_id, self.clock(), seats,
                      functools.partial(ratings.rate, people, outcome.placements))

    @staticmethod
    def _turn_over(table: LiveTable, seat: int, state: Any) -> bool:
        """Whether the seat's turn ended with this move (games of many-move turns: when it leaves to_act)."""
        if getattr(table.game, "multi_action_turns", False):
            return seat not in table.game.to_act(state)
        return True

    # automatic seats and deadlines ------------------------------------------------

    def _refresh_due(self, table: LiveTable) -> None:
        """Set the row's deadline and ``ai_turn`` for the seats to act now (before the row is saved)."""
        table.row.deadline = self._deadline(table)
        table.row.ai_turn = bool(table.automatic_to_act())

    def _deadline(self, table: LiveTable) -> float | None:
        """The deadline the table should have now: set while people are awaited at a timed table."""
        if table.row.status != "playing" or not table.waiting_people():
            return None
        return deadline_after(table.row.timer, self.clock())

    def _arm(self, table: LiveTable) -> None:
        """Tell the timers the table's stored deadline (and whether its reminder is still to come)."""
        deadline = table.row.deadline if table.row.status == "playing" else None
        remind_at = None
        if deadline is not None and table.row.meta.get("reminded") != deadline:
            remind_at = remind_time(table.row.timer, deadline)
        self.timers.arm(table.id, deadline, remind_at)

    def _kick(self, table: LiveTable) -> None:
        if table.automatic_to_act():
            self.autoplay.kick(table.id)

    async def _ai_step(self, table_id: str) -> bool:
        """One automatic turn at a table (loading it if needed); False once no automatic seat is to act."""
        try:
            table = await self._table(table_id)
        except Refusal:
            return False
        if not await self.peers.lease(table_id):
            return False  # another process drives this table's AI
        async with table.lock:
            waiting = table.automatic_to_act()
            if not waiting:
                return False
            seat = waiting[0]
            row = table.seat_row(seat)
            level = row.ai_level if row.is_ai else "easy"
            view = table.game.view(table.state, seat)
            legal = table.game.legal_actions(table.state, seat)
            seed = f"{table.row.seed}:{table.seq}:{seat}"
            action = await self.autoplay.think(table.game.name, level, view, legal, seed)
            await self._commit_move(table, seat, action, auto=True)
            return bool(table.automatic_to_act())

    async def _timer_due(self, table_id: str, deadline: float, kind: Due) -> None:
        """A reminder or an expiry came due: publish the reminder, or stand in for the people who ran out of time."""
        try:
            table = await self._table(table_id)
        except Refusal:
            return
        if not await self.peers.lease(table_id):
            return  # another process drives this table's timers (if it dies, the supervisor re-arms them here)
        async with table.lock:
            if table.row.deadline != deadline or table.row.status != "playing":
                return
            if kind is Due.REMIND:
                if table.row.meta.get("reminded") != deadline:
                    events = [public({"type": "reminder", "seat": s, "deadline": deadline})
                              for s in table.waiting_people()]
                    row = replace(table.row, meta={**table.row.meta, "reminded": deadline})
                    await self.store.save_table(row, with_seats=False, notice=self._notice(table, "reminder", events))
                    table.row = row
                    self._publish(table, "reminder", events)
                self.timers.reminded(table_id, deadline)
                return
            events, seats = [], []
            for seat in table.row.seats:
                if seat.seat in table.waiting_people():
                    missed = seat.missed + 1
                    autopilot = seat.autopilot or missed >= AUTOPILOT_AFTER
                    events.append(public({"type": "timed_out", "seat": seat.seat, "name": seat.name}))
                    if autopilot and not seat.autopilot:
                        events.append(public({"type": "autopilot", "seat": seat.seat, "on": True}))
                    seat = replace(seat, missed=missed, autopilot=autopilot)
                seats.append(seat)
            standins = set(table.standins) | set(table.waiting_people())
            row = replace(table.row, deadline=None, ai_turn=True, seats=seats,
                          meta=with_standins(table.row.meta, standins))
            await self.store.save_table(row, notice=self._notice(table, "timed_out", events))
            table.row = row
            self._arm(table)
            self._publish(table, "timed_out", events)
        self._kick(table)

    def _notice(self, table: LiveTable, kind: str, events: Iterable[Event] = ()) -> tuple[int, str, str]:
        """What the other processes are told with a row change: the seq, the kind and its public events."""
        shown = [event.data for event in events if event.to is None]
        return table.seq, kind, json.dumps(shown, separators=(",", ":")) if shown else ""

    async def claim(self, table_id: str) -> bool:
        """Drive the table from this process if no other does (its AI, timers and notifications); whether it does."""
        return await self.peers.lease(table_id)

    def drives(self, table_id: str) -> bool:
        """Whether this process drives the table (its AI, timers and, for adapters, its notifications)."""
        return self.peers.holds(table_id)

    def _release_later(self, table_id: str) -> None:
        if self.store.is_shared:
            task = asyncio.get_running_loop().create_task(self.peers.release(table_id))
            task.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def _heard(self, notice: Notice) -> None:
        """Another process changed a table: catch up if this process has it in memory and is behind."""
        table = self._tables.get(notice.table_id)
        if table is not None and (notice.seq > table.seq or notice.version > table.row.version):
            await self.catch_up(notice.table_id, notice)

    async def catch_up(self, table_id: str, notice: Notice | None = None) -> None:
        """Bring a loaded table up to the store (another process changed it) and publish what changed, in order."""
        table = self._tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if notice is not None and notice.seq <= table.seq and notice.version <= table.row.version:
                return  # an earlier catch-up already read this change
            moves_only = notice is not None and notice.kind == "moved" and notice.version == table.row.version
            row = table.row if moves_only and table.state is not None else await self.store.load_table(table_id)
            if row is None:
                return
            if table.state is None and row.status in ("playing", "finished"):
                fresh = await self._revive(row)
                start = table.game.new_game(fresh.options, row.size, row.seed)
                table.row, table.options, table.state, table.seq = fresh.row, fresh.options, fresh.state, fresh.seq
                events = [public({"type": "started", "seed_hash": row.seed_hash}), *table.game.start_events(start)]
                self._publish(table, "started", events if fresh.seq == 0 else [])
                return
            if moves_only and notice is not None and notice.seq == table.seq + 1 and notice.events:
                carried = json.loads(notice.events)  # the notice carries the move: nothing to read
                moves = [LoggedAction(notice.seq, carried["seat"], carried["action"])]
            elif table.state is not None:
                moves = await self.store.load_actions(table_id, after=table.seq)
            else:
                moves = []
            if moves:
                table.row = row
            for entry in moves:
                state, events = table.game.apply(table.state, entry.seat, entry.action)
                table.state, table.seq = state, entry.seq
                outcome = table.game.outcome(state)
                if outcome is not None:
                    events = [*events, public({"type": "finished", **outcome.as_dict(), "seed": row.seed})]
                self._publish(table, "moved" if outcome is None else "finished", events)
            if moves or row.version == table.row.version:
                table.row = row
                return
            table.row, table.options = row, table.game.parse_options(row.options)
            if notice is not None and notice.kind != "meta":
                shown = json.loads(notice.events) if notice.events else []
                self._publish(table, notice.kind, [public(data) for data in shown])
        if table.row.status == "playing":
            self._arm(table)

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
        return table.snapshot().view(seat)

    def snapshot(self, table_id: str) -> Snapshot | None:
        """The table as it is now, if this process serves it."""
        table = self._tables.get(table_id)
        return table.snapshot() if table is not None else None

    def live(self, table_id: str) -> LiveTable | None:
        """The table if this process is serving it."""
        return self._tables.get(table_id)

    async def tables_of(self, user_id: int, *, limit: int = 100, before: str | None = None) -> list[TableInfo]:
        """Unfinished tables where the user has a seat, newest first (a page of ``limit`` after table ``before``)."""
        ids = await self.store.table_ids_of_user(user_id, ("lobby", "playing"), limit, before)
        found = [await self._table(table_id) for table_id in ids]
        return [t.info() for t in found if t.row.status in ("lobby", "playing") and t.seat_of(user_id) is not None]

    async def count_open_tables(self, user_id: int) -> int:
        """How many tables in the lobby or being played the user has a seat at."""
        return await self.store.count_tables_of_user(user_id, ("lobby", "playing"))

    async def tables_in_chat(self, chat_id: int, *statuses: str) -> list[TableInfo]:
        """A chat's tables with these statuses (default: unfinished), newest first."""
        wanted = statuses or ("lobby", "playing")
        ids = await self.store.table_ids_in_chat(chat_id, wanted)
        found = [await self._table(table_id) for table_id in ids]
        return [t.info() for t in found if t.row.status in wanted]

    def subscribe(self, table_id: str | None = None) -> Subscription:
        """Receive updates of one table (or every table)."""
        return self.bus.subscribe(table_id)

    @fresh_on_conflict
    async def set_meta(self, table_id: str, key: str, value: Any) -> None:
        """Remember an adapter's value (a message id, say) with the table."""
        table = await self._table(table_id)
        async with table.lock:
            table.row.meta[key] = value
            await self.store.save_table(table.row, with_seats=False, notice=self._notice(table, "meta"))

    async def get_meta(self, table_id: str, key: str) -> Any:
        """An adapter's value stored with the table, or None."""
        return (await self._table(table_id)).row.meta.get(key)

    def _publish(self, table: LiveTable, kind: str, events: list[Event] | None = None) -> TableInfo:
        snapshot = table.snapshot()
        self.bus.publish(Update(table.id, table.seq, kind, tuple(events or ()), snapshot))
        return snapshot.info
