"""Who has each table open and in front of them: per table, per person, the sockets that say so.

The Mini App reports whether its page is in front of the person (visible, and the Mini App
not put aside inside Telegram); each socket counts for its person while it says so, and a
socket that closes no longer does. A person is at the table while at least one of their
sockets there is active, on this process or another. Followers (the bot's notifier) hear
every change, with when the person left; nothing is stored.

Each process holds only its own sockets. With several processes on one database, each tells
the others of its own changes only (``follow_local``; ``engine.service.pg_peers`` carries
them) and hears theirs (``heard``), so the process that sends a person's turn message knows
they are at the table on another. A process that is gone (``forget_origin``), or a process
that may have missed notices (``forget_remote``, then it asks the others to say again who is
at their tables), counts nobody present through it until told again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable

log = logging.getLogger(__name__)

Follower = Callable[[str, int, bool], None]  # (table id, user id, now at the table)


class Presence:
    """The active sockets of each person at each table, and when each person last left one."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._active: dict[str, dict[int, set[Hashable]]] = {}  # table -> person -> their active sockets
        self._remote: dict[str, dict[int, set[str]]] = {}  # table -> person -> the other processes they are at it on
        self._left: dict[tuple[str, int], float] = {}  # (table, person) -> when they last stopped being there
        self._followers: list[Follower] = []
        self._local_followers: list[Follower] = []

    def follow(self, follower: Follower) -> Callable[[], None]:
        """Have ``follower`` told each time a person comes to or leaves a table; returns the way to stop."""
        self._followers.append(follower)
        return lambda: self._followers.remove(follower) if follower in self._followers else None

    def follow_local(self, follower: Follower) -> Callable[[], None]:
        """Have ``follower`` told each time a person comes to or leaves a table on this process's own sockets."""
        self._local_followers.append(follower)
        return lambda: self._local_followers.remove(follower) if follower in self._local_followers else None

    def report(self, table_id: str, user_id: int, socket: Hashable, active: bool) -> None:
        """A socket of the person says the table is (or is not) in front of them."""
        was_anywhere = self.is_present(table_id, user_id)
        people = self._active.setdefault(table_id, {})
        sockets = people.setdefault(user_id, set())
        was = bool(sockets)
        if active:
            sockets.add(socket)
        else:
            sockets.discard(socket)
        if not sockets:
            del people[user_id]
            if not people:
                del self._active[table_id]
        now = bool(sockets)
        if now != was:
            self._tell(self._local_followers, table_id, user_id, now)
        self._changed(table_id, user_id, was_anywhere)

    def heard(self, origin: str, table_id: str, user_id: int, present: bool) -> None:
        """Another process says the person came to (or left) the table on its sockets."""
        was_anywhere = self.is_present(table_id, user_id)
        people = self._remote.setdefault(table_id, {})
        origins = people.setdefault(user_id, set())
        if present:
            origins.add(origin)
        else:
            origins.discard(origin)
        if not origins:
            del people[user_id]
            if not people:
                del self._remote[table_id]
        self._changed(table_id, user_id, was_anywhere)

    def forget_origin(self, origin: str) -> None:
        """Another process is gone: nobody is at a table through it any more."""
        for table_id, user_id in [(t, u) for t, people in self._remote.items() for u, o in people.items()
                                  if origin in o]:
            self.heard(origin, table_id, user_id, False)

    def forget_remote(self) -> None:
        """Forget what the other processes said (notices may have been missed): until they say it again."""
        for table_id, user_id, origin in [(t, u, o) for t, people in self._remote.items()
                                          for u, origins in people.items() for o in origins]:
            self.heard(origin, table_id, user_id, False)

    def origins(self) -> set[str]:
        """The other processes someone is at a table through."""
        return {o for people in self._remote.values() for origins in people.values() for o in origins}

    def local(self) -> list[tuple[str, int]]:
        """Every (table, person) at the table on this process's own sockets."""
        return [(table_id, user_id) for table_id, people in self._active.items() for user_id in people]

    def _changed(self, table_id: str, user_id: int, was: bool) -> None:
        """Tell the followers when the person came to or left the table, on any process."""
        now = self.is_present(table_id, user_id)
        if now == was:
            return
        if not now:
            self._left[(table_id, user_id)] = self.clock()
            if len(self._left) > 10_000:  # long gone: anyone left an hour ago is simply away
                cutoff = self.clock() - 3600
                self._left = {k: t for k, t in self._left.items() if t > cutoff}
        self._tell(self._followers, table_id, user_id, now)

    def _tell(self, followers: list[Follower], table_id: str, user_id: int, now: bool) -> None:
        for follower in list(followers):
            try:
                follower(table_id, user_id, now)
            except Exception:
                log.exception("a presence follower failed for table %s", table_id)

    def closed(self, table_id: str, user_id: int, socket: Hashable) -> None:
        """A socket closed: it no longer keeps its person at the table."""
        self.report(table_id, user_id, socket, False)

    def is_present(self, table_id: str, user_id: int) -> bool:
        """Whether the person has the table open and in front of them on some socket (of any process)."""
        return user_id in self._active.get(table_id, {}) or user_id in self._remote.get(table_id, {})

    def sockets(self, table_id: str, user_id: int) -> int:
        """How many of the person's sockets at the table on this process say it is in front of them."""
        return len(self._active.get(table_id, {}).get(user_id, ()))

    def left_at(self, table_id: str, user_id: int) -> float | None:
        """When the person last stopped being at the table (``clock`` time; None: not since this process began)."""
        return None if self.is_present(table_id, user_id) else self._left.get((table_id, user_id))
