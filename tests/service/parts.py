"""Fakes of the table service's parts and of its store, to build each part alone in a test.

``Race`` is a ruleset small enough to reason about by hand: the seats take turns to step
(seat 0 first), and the game is over after ``goal`` steps, the last stepper winning.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import IllegalAction, Refusal, RefusalCode
from engine.core.events import Event, public
from engine.core.rules import Outcome
from engine.service.kinds import UpdateKind
from engine.service.live import LiveTable, TableInfo
from engine.store.database import StaleRow
from engine.store.rows import LoggedAction, SeatRow, TableRow


@dataclass(frozen=True, slots=True)
class RaceState:
    """Steps taken so far, of ``goal``, at a table of ``players``."""

    players: int
    goal: int
    steps: int = 0


class Race:
    """Seats step in turn; after ``goal`` steps the last stepper wins."""

    name = "race"
    title = "Race"
    min_players = 2
    max_players = 4
    multi_action_turns = False
    settings = ()

    def parse_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        return {"goal": int((raw or {}).get("goal", 3))}

    def new_game(self, options: Any, players: int, seed: str) -> RaceState:
        return RaceState(players, int(options["goal"]))

    def start_events(self, state: RaceState) -> list[Event]:
        return []

    def to_act(self, state: RaceState) -> frozenset[int]:
        return frozenset() if state.steps >= state.goal else frozenset({state.steps % state.players})

    def legal_actions(self, state: RaceState, seat: int) -> Sequence[Mapping[str, Any]]:
        return [{"type": "step"}] if seat in self.to_act(state) else []

    def apply(self, state: RaceState, seat: int, action: Mapping[str, Any]) -> tuple[RaceState, list[Event]]:
        if seat not in self.to_act(state):
            raise IllegalAction(RefusalCode.NOT_YOUR_TURN)
        return RaceState(state.players, state.goal, state.steps + 1), [public({"type": "stepped", "seat": seat})]

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.steps < state.goal:
            return None
        last = (state.steps - 1) % state.players
        return Outcome(tuple(int(s == last) for s in range(state.players)),
                       tuple(1 if s == last else 2 for s in range(state.players)))

    def public_view(self, state: RaceState) -> dict[str, Any]:
        return {"steps": state.steps}

    def own_view(self, state: RaceState, seat: int) -> dict[str, Any]:
        return {"legal": list(self.legal_actions(state, seat))}

    def view(self, state: RaceState, seat: int | None) -> dict[str, Any]:
        return {**self.public_view(state), **({} if seat is None else self.own_view(state, seat))}

    def memory(self, state: RaceState, seat: int) -> dict[str, Any]:
        return {"seen_steps": state.steps}  # what the view would not show a seat that watched

    def snapshot(self, state: RaceState) -> dict[str, Any]:
        return {"steps": state.steps}


RACE = Race()


def race_row(table_id: str = "t1", *, people: Iterable[int] = (1, 2), status: str = "playing",
             timer: str = "none", lesson: bool = True) -> TableRow:
    """A stored Race table of these people (an AI in any seat beyond them when ``people`` is short)."""
    people = list(people)
    seats = [SeatRow(seat=i, name=f"P{i}", user_id=u) for i, u in enumerate(people)]
    return TableRow(id=table_id, game="race", options={"goal": 3}, size=len(seats), status=status,
                    host_user_id=people[0], chat_id=None, seed="seed", seed_hash="hash", timer=timer,
                    meta={"lesson": True} if lesson else {}, seats=seats)


def race_table(row: TableRow | None = None, *, steps: int = 0) -> LiveTable:
    """A live Race table over ``row``, ``steps`` steps in."""
    row = row or race_row()
    options = RACE.parse_options(row.options)
    state = RaceState(row.size, options["goal"], steps) if row.status != "lobby" else None
    return LiveTable(row, RACE, options, state, steps)  # type: ignore[arg-type]


@dataclass
class Published:
    """One call of ``publish``."""

    table_id: str
    kind: str
    events: list[Event]
    cause: object | None
    info: TableInfo


class FakeTables:
    """The tables in memory as other parts see them, publishing into a list."""

    def __init__(self, *tables: LiveTable) -> None:
        self.held_tables = {t.id: t for t in tables}
        self.published: list[Published] = []
        self.open_counts: dict[int, int] = {}
        self.unloaded: list[str] = []  # the tables a part asked to unload once cancelled

    async def get(self, table_id: str) -> LiveTable:
        table = self.held_tables.get(table_id)
        if table is None:
            raise Refusal(RefusalCode.TABLE_NOT_FOUND)
        return table

    def held(self, table_id: str) -> LiveTable | None:
        return self.held_tables.get(table_id)

    async def loaded(self, table_id: str) -> LiveTable | None:
        return None  # nothing is ever being loaded

    def all(self) -> list[LiveTable]:
        return list(self.held_tables.values())

    def ids(self) -> list[str]:
        return list(self.held_tables)

    def add(self, table: LiveTable) -> None:
        self.held_tables[table.id] = table

    def evict(self) -> None:
        pass

    def followed(self, table_id: str) -> bool:
        return False  # no socket follows a table here

    def unload_ended(self, table_id: str) -> None:
        self.unloaded.append(table_id)

    async def info(self, table_id: str) -> TableInfo:
        return (await self.get(table_id)).info()

    async def publish(self, table: LiveTable, kind: UpdateKind, events: list[Event] | None = None,
                      cause: object | None = None) -> TableInfo:
        info = table.info()
        self.published.append(Published(table.id, kind, list(events or ()), cause, info))
        return info

    async def count_open_tables(self, user_id: int) -> int:
        return sum(1 for t in self.held_tables.values()
                   if t.row.status in ("lobby", "playing") and t.seat_of(user_id) is not None)


class FakeAutoplay:
    """Records the AI kicks."""

    def __init__(self) -> None:
        self.kicked: list[str] = []
        self.forgotten: list[str] = []
        self.running: set[str] = set()
        self.views: list[dict[str, Any]] = []  # what each thought decided from

    def kick(self, table_id: str) -> None:
        self.kicked.append(table_id)

    def forget(self, table_id: str) -> None:
        self.forgotten.append(table_id)

    def is_running(self, table_id: str) -> bool:
        return table_id in self.running

    async def think(self, game: str, level: str, view: dict[str, Any], legal: Sequence[Mapping[str, Any]],
                    seed: str) -> dict[str, Any]:
        self.views.append(view)
        return dict(legal[0])

    async def idle(self) -> None:
        pass

    async def close(self) -> None:
        pass


class FakeMoves:
    """Commits a move in memory only, and records it."""

    def __init__(self) -> None:
        self.committed: list[tuple[str, int, dict[str, Any], bool]] = []
        self.stale = 0  # the next commits to refuse as meeting another process's move

    async def commit(self, table: LiveTable, seat: int, action: Mapping[str, Any], *, auto: bool,
                     cause: object | None = None) -> list[Event]:
        if self.stale:
            self.stale -= 1
            raise Refusal(RefusalCode.STALE)
        table.state, events = table.game.apply(table.state, seat, action)
        table.seq += 1
        self.committed.append((table.id, seat, dict(action), auto))
        return events


class FakeSchedule:
    """Deadlines never set; records what is armed and kicked."""

    def __init__(self) -> None:
        self.armed: list[tuple[str, float | None]] = []
        self.kicked: list[str] = []
        self.forgotten: list[str] = []

    def due(self, table: LiveTable) -> tuple[float | None, bool]:
        return None, bool(table.automatic_to_act())

    def refresh_due(self, table: LiveTable) -> None:
        table.row.deadline, table.row.ai_turn = self.due(table)

    def arm(self, table: LiveTable) -> None:
        self.armed.append((table.id, table.row.deadline))

    def kick(self, table: LiveTable) -> None:
        if table.automatic_to_act():
            self.kicked.append(table.id)

    def forget(self, table_id: str) -> None:
        self.forgotten.append(table_id)

    def is_running(self, table_id: str) -> bool:
        return False


class FakeSharing:
    """Another process never writes: catching up only counts."""

    def __init__(self) -> None:
        self.caught_up: list[str] = []
        self.reloaded: list[str] = []
        self.elsewhere: Callable[[LiveTable], None] = lambda table: None  # what a reload finds the other one did

    async def catch_up(self, table_id: str, notice: object = None) -> None:
        self.caught_up.append(table_id)

    async def reload(self, table: LiveTable) -> None:
        self.reloaded.append(table.id)
        self.elsewhere(table)

    async def catch_up_behind(self) -> None:
        pass

    async def catch_up_all(self) -> None:
        pass

    async def check(self, *, every_table: bool = False) -> list[str]:
        return []


@dataclass
class FakeStore:
    """The store calls parts make, recorded; ``refuse_append`` makes the next append meet another's write, and
    ``refuse_saves`` the next so many row writes."""

    is_shared: bool = False
    appended: list[tuple[str, LoggedAction, TableRow | None, Any]] = field(default_factory=list)
    saved: list[tuple[TableRow, tuple[int, str, str] | None]] = field(default_factory=list)
    created: list[TableRow] = field(default_factory=list)
    snapshots: list[tuple[str, int]] = field(default_factory=list)
    deadlines: list[tuple[str, str, float, float | None]] = field(default_factory=list)
    ai_turns: list[str] = field(default_factory=list)
    refuse_append: bool = False
    refuse_saves: int = 0
    write_delay: float = 0.0

    @property
    def tables(self) -> FakeStore:
        """The fake plays every repository the parts use."""
        return self

    @property
    def people(self) -> FakeStore:
        """The fake plays every repository the parts use."""
        return self

    async def append(self, table_id: str, entry: LoggedAction, row: TableRow | None, *, with_seats: bool,
                     finish: Any, version: int) -> None:
        if self.refuse_append:
            self.refuse_append = False
            raise Refusal(RefusalCode.STALE)
        self.appended.append((table_id, entry, row, finish))

    async def save_table(self, row: TableRow, *, with_seats: bool = True, notice: tuple[int, str, str] | None = None,
                         finish: Any = None) -> None:
        if self.refuse_saves:
            self.refuse_saves -= 1
            raise StaleRow(row.id)
        self.saved.append((row, notice))

    async def save_snapshot(self, table_id: str, seq: int, data: dict[str, Any]) -> None:
        self.snapshots.append((table_id, seq))

    async def create_table(self, row: TableRow) -> None:
        await asyncio.sleep(self.write_delay)
        self.created.append(row)

    async def upsert_user(self, user_id: int, name: str) -> None:
        await asyncio.sleep(self.write_delay)

    async def deadlines_before(self, until: float) -> list[tuple[str, str, float, float | None]]:
        return [d for d in self.deadlines if d[2] <= until]

    rows: dict[str, TableRow] = field(default_factory=dict)
    actions: dict[str, list[LoggedAction]] = field(default_factory=dict)
    loads: list[str] = field(default_factory=list)

    async def load_table(self, table_id: str) -> TableRow | None:
        self.loads.append(table_id)
        await asyncio.sleep(self.write_delay)
        return self.rows.get(table_id)

    async def load_snapshot(self, table_id: str) -> tuple[int, dict[str, Any]] | None:
        return None

    async def load_actions(self, table_id: str, after: int = 0) -> list[LoggedAction]:
        return [a for a in self.actions.get(table_id, []) if a.seq > after]

    async def ai_turn_tables(self, after: str) -> list[str]:
        return [t for t in sorted(self.ai_turns) if t > after][:2]
