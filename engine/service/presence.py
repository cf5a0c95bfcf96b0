"""Who has each table open and in front of them: per table, per person, the sockets that say so.

The Mini App reports whether its page is in front of the person (visible, and the Mini App
not put aside inside Telegram); each socket counts for its person while it says so, and a
socket that closes no longer does. A person is at the table while at least one of their
sockets there is active. Followers (the bot's notifier) hear every change, with when the
person left; nothing is stored, and each process knows only the sockets it holds.
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
        self._left: dict[tuple[str, int], float] = {}  # (table, person) -> when they last stopped being there
        self._followers: list[Follower] = []

    def follow(self, follower: Follower) -> Callable[[], None]:
        """Have ``follower`` told each time a person comes to or leaves a table; returns the way to stop."""
        self._followers.append(follower)
        return lambda: self._followers.remove(follower) if follower in self._followers else None

    def report(self, table_id: str, user_id: int, socket: Hashable, active: bool) -> None:
        """A socket of the person says the table is (or is not) in front of them."""
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
        if now == was:
            return
        if not now:
            self._left[(table_id, user_id)] = self.clock()
            if len(self._left) > 10_000:  # long gone: anyone left an hour ago is simply away
                cutoff = self.clock() - 3600
                self._left = {k: t for k, t in self._left.items() if t > cutoff}
        for follower in list(self._followers):
            try:
                follower(table_id, user_id, now)
            except Exception:
                log.exception("a presence follower failed for table %s", table_id)

    def closed(self, table_id: str, user_id: int, socket: Hashable) -> None:
        """A socket closed: it no longer keeps its person at the table."""
        self.report(table_id, user_id, socket, False)

    def is_present(self, table_id: str, user_id: int) -> bool:
        """Whether the person has the table open and in front of them on some socket."""
        return user_id in self._active.get(table_id, {})

    def sockets(self, table_id: str, user_id: int) -> int:
        """How many of the person's sockets at the table say it is in front of them."""
        return len(self._active.get(table_id, {}).get(user_id, ()))

    def left_at(self, table_id: str, user_id: int) -> float | None:
        """When the person last stopped being at the table (``clock`` time; None: not since this process began)."""
        return None if self.is_present(table_id, user_id) else self._left.get((table_id, user_id))
