"""Other processes on the same PostgreSQL database: what they changed, and which process drives each table.

Several web processes may serve the same tables (any player on any process). Two
things keep them in step, both on PostgreSQL itself, so there is nothing more to run:

* **Change notices.** Every write of a table sends ``NOTIFY`` in the same transaction
  (``Writer.notice``), so a notice is delivered exactly when its change is committed,
  in commit order. A process that has the table in memory catches up from the store
  (the log after its own ``seq``), which also heals any notice it missed; and it checks
  every loaded table against the store every few seconds (``Sharing.check``), so a
  notice that never comes delays nobody for long.
* **Leases.** One process drives a table's AI seats and turn timers: the one named by the
  table's row in ``leases``. A lease is taken over by another process once its holder is
  gone: its listening connection closed (a process that died: at once) or its heartbeat
  (``processes.seen_at``, written every ``HEARTBEAT_EVERY`` seconds) older than
  ``STALE_AFTER`` seconds (a process cut off from the server, or hung); each change of hands
  adds one to the row's ``fence``. Moves from any process still go through the optimistic
  ``(table_id, seq)`` guard and each table row's version, so nothing is applied twice during
  a hand-over. A process whose heartbeat has not been confirmed for ``HOLD_FOR`` seconds
  stops acting for its tables (``holds`` and ``lease`` say no, with no I/O), and once heard
  again it keeps only the leases still its own. The others also end the listening session of
  a process silent for ``STALE_AFTER`` seconds (``pg_terminate_backend``), so it reconnects
  afresh, and take its tables over at once. The connection carries the server's keepalives and
  user timeout (``engine.store.dialects``), so the server notices a client that vanished. A
  process stopping gracefully deletes its leases at once (``release_all``) and says ``free``:
  the others take its tables at once, with no heartbeat to wait for. Rows use no room in the
  server's shared lock table, and a table's owner is one indexed lookup.

* **Presence.** Who is at a table is known by the process holding their socket, and the
  turn message is sent by the process driving the table. Each process tells the others
  of its own changes only (``PRESENCE``: a person came to or left a table), in order on
  this connection; on (re)connecting it says hello, upon which the others forget what it
  said before and tell it who is at their tables, and it tells them who is at its own. A
  process that dies says nothing more: every ``ORIGINS_EVERY`` seconds the others drop
  the people they counted present through a process whose connection is gone.

* **Addresses.** A process started with its own address (``PROCESS_URL``) keeps it in the
  ``processes`` table under its origin, written on each (re)connection. ``owner`` names the
  address of the live process holding a table's lease, so a socket that reaches another
  process can be sent there (``webapp.ws``).

That connection may be lost (PostgreSQL restarted, the connection killed, a network
that stops answering a ping). The others may then take every lease it held, so this
process forgets them at once; it reconnects with a growing pause, listens again and
calls ``on_resume``, which catches up every table in memory (the notices sent while it
was away are lost; one query finds the tables that moved) and lets the supervisor take back the tables nobody drives.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any

import asyncpg

from engine.service.peers import Notice, OnNotice, OnResume
from engine.service.presence import Presence
from engine.store.database import CHANNEL
from engine.store.dialects import connection_settings
from engine.store.peer_queries import END_SILENT, FORGET_GONE, HEARTBEAT, OWNER, REGISTER, STILL_MINE, TAKE
from engine.store.reach import unreachable_errors

log = logging.getLogger(__name__)
UNREACHABLE = unreachable_errors()
LOST: tuple[type[BaseException], ...] = (*UNREACHABLE, ConnectionError)  # out of reach, or not connected just now
RECONNECT_FIRST, RECONNECT_MAX = 0.1, 5.0  # seconds between tries to reconnect: doubling up to the longest
HEARTBEAT_EVERY = 1.0  # seconds between two heartbeats (each also looks for processes silent too long)
HOLD_FOR = 4.0  # seconds a lease is acted on after the last confirmed heartbeat
STALE_AFTER = 6.0  # seconds of silence after which another process ends this one's session and takes its tables
QUERY_TIMEOUT = 5.0  # seconds a connect, ping or lease query may take before the connection counts as lost
PRESENCE = "cardroom_presence"  # NOTIFY: "<origin>|+|<table>|<user>" (came), "-" (left), "hello", "bye", "free"
APPLICATION = "cardroom-peers:"  # each process's listening connection is named this and its origin
ORIGINS_EVERY = 5.0  # seconds between looks for processes gone without a word, while someone is present through one


class PostgresPeers:
    """Notices by LISTEN/NOTIFY, leases as rows and the heartbeat, on one connection of this process's own."""

    def __init__(self, dsn: str, url: str | None = None) -> None:
        self.dsn = dsn
        self.url = url  # this process's own address, for sockets other processes send here
        self.origin = secrets.token_hex(6)
        self._conn: Any = None  # asyncpg.Connection; None while lost
        self._lock = asyncio.Lock()  # one query at a time on the connection
        self._held: set[str] = set()
        self._on_notice: OnNotice | None = None
        self._on_resume: OnResume | None = None
        self._gone = asyncio.Event()  # set while the connection is lost
        self._keeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.resumed = 0  # times the connection was lost and this process caught up again
        self._presence: Presence | None = None
        self._said: asyncio.Queue[str] = asyncio.Queue()  # presence notices to send, in order
        self._confirmed = 0.0  # time.monotonic() of the last heartbeat the server confirmed
        self._taking: asyncio.Task[None] | None = None  # taking over the tables of a process found silent
        self.ended = 0  # sessions of silent processes this one ended
        self.ended_refused = False  # the server refused to end them (the role may not)
        self.leaving = False  # every lease handed over (a graceful stop): none is taken again

    async def start(self, on_notice: OnNotice, on_resume: OnResume) -> None:
        """Open the connection, listen on the change channel, and keep the connection from now on."""
        self._on_notice, self._on_resume = on_notice, on_resume
        await self._connect()
        self._keeper = asyncio.create_task(self._keep(), name="peers-keeper")
        if self._presence is not None:
            for name, work in (("peers-presence", self._say), ("peers-origins", self._watch_origins)):
                task: asyncio.Task[None] = asyncio.create_task(work(), name=name)
                self._tasks.add(task)
                task.add_done_callback(self._done)

    def share_presence(self, presence: Presence) -> None:
        """Tell the other processes who comes to and leaves tables here, and tell ``presence`` what they say."""
        self._presence = presence
        presence.follow_local(lambda table_id, user_id, present: self._tell("+" if present else "-", table_id,
                                                                             user_id))

    async def close(self) -> None:
        """Close the connection: every lease it held is freed first and the others told, so they take the tables at
        once (closing alone frees them too, but says nothing: the others would wait for their supervisor's round)."""
        if self._held and self._conn is not None and not self.leaving:
            await self.release_all()
        if self._presence is not None and self._conn is not None:  # the others stop counting people here at once
            with contextlib.suppress(Exception):
                await self._query("SELECT pg_notify($1, $2)", PRESENCE, f"{self.origin}|bye")
        tasks = [task for task in (self._keeper, self._taking, *self._tasks) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._keeper = None
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close(timeout=QUERY_TIMEOUT)
        self._held.clear()

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self.dsn, timeout=QUERY_TIMEOUT, command_timeout=QUERY_TIMEOUT,
                                     server_settings={**connection_settings(), "application_name": APPLICATION
                                                      + self.origin})
        try:
            await conn.add_listener(CHANNEL, self._heard)
            if self._presence is not None:
                await conn.add_listener(PRESENCE, self._heard_presence)
        except BaseException:
            conn.terminate()
            raise
        try:  # every process has a row (its heartbeat); "" is no address; the leases of processes gone go with them
            await conn.execute(REGISTER, self.origin, self.url or "", len(APPLICATION) + 1, APPLICATION + "%")
            await conn.execute(FORGET_GONE)
        except BaseException:
            conn.terminate()
            raise
        conn.add_termination_listener(self._terminated)
        self._conn = conn
        self._confirmed = time.monotonic()
        self._gone.clear()
        if self._presence is not None:  # what the others said may have been missed: they say it again
            self._presence.forget_remote()
            while not self._said.empty():
                self._said.get_nowait()
            self._said.put_nowait(f"{self.origin}|hello")
            self._announce()

    def _tell(self, kind: str, table_id: str, user_id: int) -> None:
        self._said.put_nowait(f"{self.origin}|{kind}|{table_id}|{user_id}")

    def _announce(self) -> None:
        """Tell the others who is at a table here."""
        if self._presence is not None:
            for table_id, user_id in self._presence.local():
                self._tell("+", table_id, user_id)

    async def _say(self) -> None:
        """Send the presence notices in order; one that cannot be sent is dropped (a reconnection says it all again)."""
        while True:
            payload = await self._said.get()
            with contextlib.suppress(*LOST):
                await self._query("SELECT pg_notify($1, $2)", PRESENCE, payload)

    def _heard_presence(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        origin, kind, table_id, user = [*payload.split("|", 3), "", "", ""][:4]
        presence = self._presence
        if origin == self.origin or presence is None:
            return
        if kind == "free":  # a process stopping handed its tables over: take them now, not a heartbeat later
            self._take_over()
        elif kind in ("hello", "bye"):
            presence.forget_origin(origin)
            if kind == "hello":
                self._announce()
        elif kind in ("+", "-") and user.lstrip("-").isdigit():
            presence.heard(origin, table_id, int(user), kind == "+")

    async def _watch_origins(self) -> None:
        """Now and then, drop the people counted present through a process whose connection is gone."""
        while True:
            await asyncio.sleep(ORIGINS_EVERY)
            if self._presence is None or not self._presence.origins() or self._conn is None:
                continue
            try:
                live = await self._query(
                    "SELECT coalesce(array_agg(substr(application_name, $1)), '{}') FROM pg_stat_activity "
                    "WHERE application_name LIKE $2 AND datname = current_database()",
                    len(APPLICATION) + 1, APPLICATION + "%")
            except LOST:
                continue
            for origin in self._presence.origins() - set(live):
                self._presence.forget_origin(origin)

    def _terminated(self, conn: Any) -> None:
        if conn is self._conn:
            self._lose()

    def _lose(self) -> None:
        """The connection is gone or no longer answers: the others may take its leases, so this process holds none."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        self._held.clear()
        self._gone.set()
        if not conn.is_closed():
            conn.terminate()
        log.warning("lost the PostgreSQL connection that listens for other processes and holds leases; reconnecting")

    async def _keep(self) -> None:
        """Beat every ``HEARTBEAT_EVERY`` seconds; once the connection is lost, reconnect with a growing pause and
        catch up."""
        while True:
            while self._conn is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._gone.wait(), HEARTBEAT_EVERY)
                if self._conn is not None and not await self._beat():
                    self._lose()
            pause = RECONNECT_FIRST
            while not await self._resume():
                await asyncio.sleep(pause)
                pause = min(RECONNECT_MAX, pause * 2)

    async def _beat(self) -> bool:
        """Say this process is alive, and end the sessions of those silent too long; whether the server answered."""
        try:
            silent = time.monotonic() - self._confirmed >= HOLD_FOR
            await self._query(HEARTBEAT, self.origin, self.url or "")
            if silent and self._held:  # heard again after a silence: another process may have taken some leases
                self._held &= set(await self._query(STILL_MINE, self.origin))
            self._confirmed = time.monotonic()
            ended = await self._query(END_SILENT, self.origin, len(APPLICATION) + 1, APPLICATION + "%", STALE_AFTER)
        except UNREACHABLE:
            return False
        except asyncpg.PostgresError as error:  # e.g. a role that may not end others' sessions: said once, not fatal
            if not self.ended_refused:
                log.error("cannot end the sessions of silent processes (%s: %s); their tables wait for PostgreSQL to "
                          "notice they are gone", type(error).__name__, error)
            self.ended_refused = True
            return True
        if ended:
            self.ended += int(ended)
            log.warning("ended the sessions of %s other process(es) silent for over %.0f s; taking their tables",
                        ended, STALE_AFTER)
            self._take_over()
        return True

    def _take_over(self) -> None:
        """Catch up and drive the tables nobody drives (another process's leases were freed), unless doing so."""
        if self._on_resume is not None and not self.leaving and (self._taking is None or self._taking.done()):
            self._taking = asyncio.create_task(self._on_resume(), name="peers-take-over")
            self._taking.add_done_callback(self._done)

    def is_confirmed(self) -> bool:
        """Whether this process's hold on its leases was confirmed by the server within ``HOLD_FOR`` seconds."""
        return self._conn is not None and time.monotonic() - self._confirmed < HOLD_FOR

    def in_touch(self) -> bool:
        """Whether this process is in touch with the others now (no I/O)."""
        return self.is_confirmed()

    async def _resume(self) -> bool:
        """Reconnect, listen again, and catch up with what was missed; whether all of it worked."""
        try:
            if self._conn is None:
                await self._connect()
            if self._on_resume is not None:
                await self._on_resume()
        except Exception as error:
            log.warning("could not resume sharing the database yet (%s: %s); trying again", type(error).__name__,
                        error)
            return False
        if self._conn is None:
            return False  # lost again while catching up: catch up again once back
        self.resumed += 1
        log.warning("reconnected to PostgreSQL and caught up with the other processes")
        return True

    async def _query(self, sql: str, *args: Any) -> Any:
        """One query on the connection; a connection that fails it or takes too long counts as lost."""
        conn = self._conn
        if conn is None:
            raise ConnectionError("not connected")
        try:
            async with asyncio.timeout(QUERY_TIMEOUT):
                async with self._lock:
                    return await conn.fetchval(sql, *args)
        except UNREACHABLE:
            if conn is self._conn:
                self._lose()
            raise

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        """A transaction's notices, one a line (``Writer.notice``): each caught up with in turn."""
        for line in payload.split("\n"):
            origin, table_id, seq, kind, version, events = [*line.split("|", 5), "", "", "", "", ""][:6]
            if origin == self.origin or self._on_notice is None or not seq.isdigit() or not version.isdigit():
                continue
            notice = Notice(table_id, int(seq), kind, int(version), events)
            task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._on_notice(notice))
            self._tasks.add(task)
            task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("catching up with another process failed", exc_info=task.exception())

    async def lease(self, table_id: str) -> bool:
        """Take the table's lease if it is free, or its holder is gone or silent; keep it until released, this process
        stops or another takes it after this one fell silent (False while this process is silent)."""
        if self.leaving:
            return False
        if table_id in self._held:
            return self.is_confirmed()
        try:
            fence = await self._query(TAKE, table_id, self.origin, APPLICATION, STALE_AFTER)
        except UNREACHABLE:
            return False
        got = fence is not None
        if got and self._conn is not None:
            self._held.add(table_id)
        return got

    async def release(self, table_id: str) -> None:
        """Give the table's lease up so another process may drive it."""
        if table_id not in self._held:
            return
        self._held.discard(table_id)
        with contextlib.suppress(*UNREACHABLE):
            await self._query("DELETE FROM leases WHERE table_id = $1 AND origin = $2", table_id, self.origin)

    async def release_all(self) -> None:
        """Hand every lease over at once and take none again (a graceful stop); the others are told to take them."""
        self.leaving = True
        self._held.clear()
        with contextlib.suppress(*LOST):
            await self._query("DELETE FROM leases WHERE origin = $1", self.origin)
            await self._query("SELECT pg_notify($1, $2)", PRESENCE, f"{self.origin}|free")

    def holds(self, table_id: str) -> bool:
        """Whether this process holds the lease (and its heartbeat confirms it still may act on it)."""
        return table_id in self._held and self.is_confirmed()

    async def owner(self, table_id: str) -> str | None:
        """The address of the other live process holding the table's lease (None: none does, it has no address, or
        the database is out of reach)."""
        if table_id in self._held:
            return None
        try:
            url = await self._query(OWNER, table_id, APPLICATION, STALE_AFTER)
        except LOST:
            return None
        return str(url) if url and url != self.url else None

