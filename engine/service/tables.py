"""The table service: the one owner of every change to a table and of every publish.

Adapters (the bot, the Mini App) call it and subscribe to its bus; nothing else changes a
table. It is a facade over parts, each built here with the collaborators it needs and
talking to the others only through their public methods: ``Tables`` (tables in memory and
publishing), ``Sharing`` (other processes on the same database), ``Moves``, ``Lobby`` (with
the cap on a person's open tables) and ``DueWork`` (AI turns, timers, the supervisor), over
a ``Schedule`` of deadlines and AI kicks they share. Every change happens under the table's
lock, is checked by the rules, stored, and only then applied in memory and published.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.service.autoplay import Autoplay
from engine.service.bot_budget import budget_for
from engine.service.bus import Listener, Listening, MemoryBus, Subscription
from engine.service.chat_moves import ChatMoves
from engine.service.chats import Chats
from engine.service.daily import Daily
from engine.service.due import HEAL_EVERY, DueWork
from engine.service.hand_over import HandOver
from engine.service.idle import IdleTables
from engine.service.loading import MAX_LOADED, Tables, peers_for
from engine.service.lobby import AI_NAMES, Lobby
from engine.service.metrics import ServiceMetrics
from engine.service.moves import ActResult, Moves
from engine.service.open_tables import MAX_OPEN_TABLES, OpenTablesCap
from engine.service.opening_pace import OpeningPace
from engine.service.peers import Peers, SharesPresence
from engine.service.people import People
from engine.service.presence import Presence
from engine.service.record import Record
from engine.service.schedule import Schedule
from engine.service.sharing import Sharing
from engine.service.sign_outs import SignOuts
from engine.service.timers import Due, TurnTimers
from engine.store.database import Store

__all__ = ["AI_NAMES", "ActResult", "TableService"]


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
        max_open_tables: int = MAX_OPEN_TABLES,
        peers: Peers | None = None,
        opening_pace: OpeningPace | None = None,
        daily_secret: str | None = None,
    ) -> None:
        self.store = store
        self.bus = bus or MemoryBus()
        self.clock = clock
        self.peers: Peers = peers or peers_for(store)
        self.record = Record(store, clock=clock)
        self.people = People(store)
        self.sign_outs = SignOuts(store)
        self.chats = Chats(store)
        self.metrics = ServiceMetrics()  # plain counts of what this process did (webapp.metrics exposes them)
        self.presence = Presence()  # who has each table open and in front of them (on any process)
        if isinstance(self.peers, SharesPresence):
            self.peers.share_presence(self.presence)
        self.bot_budget = budget_for(store)  # the whole bot's Bot API budget, on a shared database
        # the AI and the timers call back into due work, built last: through this facade, so nothing is cyclic
        self.autoplay = Autoplay(self._ai_step, delay=ai_delay, claim=self.peers.lease)
        self.timers = TurnTimers(clock, self._timer_due, run_loop=run_timers)
        self.schedule = Schedule(clock, self.autoplay, self.timers)
        self.loaded = Tables(store, self.bus, self.schedule, peers=self.peers, clock=clock, max_loaded=max_loaded)
        self.sharing = Sharing(store, self.peers, self.loaded, self.schedule)
        self.moves = Moves(store, self.loaded, self.sharing, self.schedule, clock=clock, metrics=self.metrics)
        self.cap = OpenTablesCap(self.loaded.count_open_tables, max_open_tables)
        self.lobby = Lobby(store, self.loaded, self.sharing, self.schedule, self.cap, clock=clock, pace=opening_pace)
        self.chat_moves = ChatMoves(store, self.loaded, self.sharing)
        self.daily = Daily(store, self.loaded, self.lobby, self.schedule, self.bus, clock=clock, secret=daily_secret)
        self.idle_tables = IdleTables(store, self.loaded, self.schedule, clock=clock)
        self.due = DueWork(store, self.loaded, self.sharing, self.moves, self.schedule, peers=self.peers, clock=clock,
                           heal_every=heal_every)
        self.hand_over = HandOver(self.due, self.loaded, self.peers)  # a graceful stop hands the tables over

        # reading
        self.info = self.loaded.info
        self.view = self.loaded.view
        self.tables_of = self.loaded.tables_of
        self.tables_in_chat = self.loaded.tables_in_chat
        self.count_open_tables = self.loaded.count_open_tables
        self.open_snapshots = self.loaded.open_snapshots
        self.live = self.loaded.held
        self.snapshot = self.loaded.snapshot
        self.tables = self.loaded.all
        self.awaited_tables = store.tables.person_turn_tables  # ids of games a person is to act in, paged
        # other processes
        self.claim = self.sharing.claim
        self.drives = self.sharing.drives
        self.owner_elsewhere = self.sharing.owner_elsewhere
        self.catch_up = self.sharing.catch_up
        self.catch_up_all = self.sharing.catch_up_all
        # moves
        self.act = self.moves.act
        # lobbies
        self.check_opening = self.lobby.check_opening
        self.create_table = self.lobby.create_table
        self.play_now = self.lobby.play_now
        self.start_lesson = self.lobby.start_lesson
        self.join = self.lobby.join
        self.add_ai = self.lobby.add_ai
        self.set_options = self.lobby.set_options
        self.leave = self.lobby.leave
        self.back = self.lobby.back
        self.start_game = self.lobby.start_game
        self.abandon = self.lobby.abandon
        self.rematch = self.lobby.rematch
        self.join_rematch = self.lobby.join_rematch
        self.move_chat = self.chat_moves.move_chat
        self.expire_idle = self.idle_tables.expire_idle
        # due work
        self.idle = self.due.idle
        self.heal = self.due.heal
        self.resume = self.due.resume
        self.when_resumed = self.due.when_resumed
        self.tick_timers = self.due.tick_timers

    @property
    def max_loaded(self) -> int:
        """Tables kept in memory; idle ones beyond this are unloaded, least recently used first."""
        return self.loaded.max_loaded

    @max_loaded.setter
    def max_loaded(self, value: int) -> None:
        self.loaded.max_loaded = value

    @property
    def max_open_tables(self) -> int:
        """Open tables (in the lobby or being played) a person may sit at; a new seat beyond is refused."""
        return self.cap.limit

    @max_open_tables.setter
    def max_open_tables(self, value: int) -> None:
        self.cap.limit = value

    async def start(self) -> None:
        """Serve at once: tables load when used; the AI turns and deadlines a restart left are resumed from the store.

        Nothing here grows with the number of tables in the database: AI turns are paged
        through in the background, deadlines are armed a window ahead, and stored
        deadlines are kept as they were, so a restart gives nobody extra time.
        """
        await self.peers.start(self.sharing.heard, self.due.resume)
        if self.bot_budget is not None:
            await self.bot_budget.start()
        self.store.origin = self.peers.origin
        await self.due.start()

    async def close(self) -> None:
        """Stop the supervisor, the AI and the timers."""
        await self.due.close()
        await self.peers.close()
        if self.bot_budget is not None:
            await self.bot_budget.close()

    def subscribe(self, table_id: str | None = None) -> Subscription:
        """Receive updates of one table (or every table)."""
        return self.bus.subscribe(table_id)

    def listen(self, table_id: str, listener: Listener) -> Listening:
        """Have ``listener`` awaited with each update of the table as it is published (see ``engine.service.bus``)."""
        return self.bus.listen(table_id, listener)

    async def _ai_step(self, table_id: str) -> bool:
        return await self.due.ai_step(table_id)

    async def _timer_due(self, table_id: str, deadline: float, kind: Due) -> None:
        await self.due.timer_due(table_id, deadline, kind)
