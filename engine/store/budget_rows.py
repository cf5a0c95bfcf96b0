"""The bot's budget of Bot API calls in the store, shared by every process on one PostgreSQL database.

Telegram counts all of a bot's calls together (about 30 a second), whichever process makes
them. Each budget is one row (``bot_budget``): the earliest time its next call may go, by the
database's clock, so the processes' clocks never need to agree. Taking a call's room is one
statement that moves that time on by the call's interval and says how long to wait for the
room it took (0: go now); calls so taken are spaced evenly, whoever takes them.

A budget of so many calls in any window (a group's 20 a minute) is that many rows, its slots
(``<key>:1`` ... ``<key>:<n>``), each spaced by the whole window. A post to a group takes its
room in the group's minute and in its chat's pace in one statement: it goes when both have come
(the slot that frees first, skipping any another process is moving at that moment, and the
chat's next room), and both are moved on from that moment, the moment it leaves. No slot holds
two posts within a window of their leaving, so no window holds more posts than there are slots,
and a burst of as many goes as fast as the chat's pace allows. (Moved on from the moment the
slot was taken instead, a post that then waited for its chat's room left that much later than
its slot said, and the slot's next post could arrive within the window of it: two processes
posting to one group had 20 posts in one of its minutes, and a 429 under load.) The slots are
made by a take that finds none free (idle ones are forgotten like any other budget's row, and a
window short of slots would only hold fewer calls).

Each process taking from the budgets marks itself on them (``taker:<name>``: when it last took,
or said it could): ``takers`` counts those marked lately (on the shared budget now) and those
marked at all within a longer window (every process of the bot, some perhaps on their own share
while the database is out of their reach), so the ones on the budget leave the others' share.
Nothing of it
needs to outlive a crash, so the table is unlogged and a take does not wait for the disk. Only on a
shared database: PostgreSQL's driver is imported when a connection is first opened.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

APPLICATION_NAME = "cardroom-bot-budget"  # every process taking from the budget, as PostgreSQL lists its connections
NOW = "extract(epoch from statement_timestamp())::float8"
TAKE = f"""
INSERT INTO bot_budget AS b (key, next_at) VALUES ($1, {NOW} + $2::float8)
ON CONFLICT (key) DO UPDATE SET next_at = greatest(b.next_at, {NOW}) + $2::float8
RETURNING greatest(0.0, next_at - $2::float8 - {NOW})
"""
SLOTS = f"""
INSERT INTO bot_budget (key, next_at) SELECT $1 || ':' || g, {NOW} FROM generate_series(1, $2::int) AS g
ON CONFLICT (key) DO NOTHING
"""
TAKE_POST = f"""
WITH slot AS (
    SELECT key, next_at FROM bot_budget WHERE key LIKE $2 || ':%' ORDER BY next_at LIMIT 1 FOR UPDATE SKIP LOCKED
), chat AS (
    INSERT INTO bot_budget AS b (key, next_at) SELECT $1, greatest(slot.next_at, {NOW}) + $3::float8 FROM slot
    ON CONFLICT (key) DO UPDATE SET next_at = greatest(b.next_at + $3::float8, excluded.next_at)
    RETURNING next_at - $3::float8 AS leaves
)
UPDATE bot_budget AS s SET next_at = chat.leaves + $4::float8 FROM slot, chat WHERE s.key = slot.key
RETURNING greatest(0.0, chat.leaves - {NOW})
"""
FORGET = f"DELETE FROM bot_budget WHERE key <> 'overall' AND next_at < {NOW} - $1::float8"
MARK = f"""
INSERT INTO bot_budget (key, next_at) VALUES ('taker:' || $1, {NOW})
ON CONFLICT (key) DO UPDATE SET next_at = excluded.next_at
"""
UNMARK = "DELETE FROM bot_budget WHERE key = 'taker:' || $1"
TAKERS = f"""
SELECT count(*) FILTER (WHERE next_at > {NOW} - $1::float8), count(*)
FROM bot_budget WHERE key LIKE 'taker:%' AND next_at > {NOW} - $2::float8
"""


class BudgetRows:
    """The shared budgets, over one connection of this process's own (a take is one round trip)."""

    def __init__(self, dsn: str, *, connect_timeout: float = 2.0) -> None:
        self.dsn = dsn
        self.connect_timeout = connect_timeout
        self._conn: Any = None  # asyncpg.Connection, opened on first use
        self._lock = asyncio.Lock()

    @property
    def connected(self) -> bool:
        """Whether the connection is open (a take is then one round trip)."""
        return self._conn is not None and not self._conn.is_closed()

    async def connect(self) -> None:
        """Open the connection, if it is not open."""
        async with self._lock:
            await self._connection()

    async def take(self, key: str, interval: float) -> float:
        """Take the room of one call from budget ``key`` (calls ``interval`` seconds apart): seconds to wait for it."""
        async with self._lock:
            conn = await self._connection()
            return float(await conn.fetchval(TAKE, key, interval))

    async def take_post(self, chat: str, interval: float, group: str, window: float, slots: int) -> float:
        """Take the room of one post from budget ``chat`` (posts ``interval`` seconds apart) and from budget ``group``
        (at most ``slots`` posts in any ``window`` seconds), both from the moment it leaves: seconds to wait for it."""
        async with self._lock:
            conn = await self._connection()
            for _ in range(3):
                wait = await conn.fetchval(TAKE_POST, chat, group, interval, window)
                if wait is not None:
                    return float(wait)
                await conn.execute(SLOTS, group, slots)  # no slot free to take: some are missing (new, or forgotten)
            raise TimeoutError(f"no slot of budget {group} could be taken")

    async def forget_idle(self, seconds: float) -> None:
        """Remove the chats' budgets not used for ``seconds`` (one comes back with the chat's next call)."""
        async with self._lock:
            conn = await self._connection()
            await conn.execute(FORGET, seconds)

    async def mark(self, name: str) -> None:
        """Say that process ``name`` takes from the shared budgets now."""
        async with self._lock:
            conn = await self._connection()
            await conn.execute(MARK, name)

    async def unmark(self, name: str) -> None:
        """Say that process ``name`` takes from them no more (it is stopping)."""
        async with self._lock:
            conn = await self._connection()
            await conn.execute(UNMARK, name)

    async def takers(self, lately: float, known: float) -> tuple[int, int]:
        """How many processes marked themselves within ``lately`` seconds (on the budgets now), and within ``known``
        seconds (every process of the bot's, on the budgets or on their own share)."""
        async with self._lock:
            conn = await self._connection()
            row = await conn.fetchrow(TAKERS, lately, known)
            return int(row[0]), int(row[1])

    async def _connection(self) -> Any:
        if self._conn is None or self._conn.is_closed():
            import asyncpg  # only a shared database takes from the budget

            self._conn = await asyncpg.connect(self.dsn, timeout=self.connect_timeout,
                                               server_settings={"application_name": APPLICATION_NAME,
                                                                "synchronous_commit": "off"})
        return self._conn

    def drop(self) -> None:
        """Forget the connection (it failed or a query on it was cut short): the next take opens a fresh one."""
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            conn.terminate()

    async def close(self) -> None:
        """Close the connection."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close(timeout=2.0)
