"""The games a person is to act in, found when the process starts: their turn messages are this process's too.

Who is at a table lives only in memory, and a table is loaded only when something uses it, so
a process that starts (after a crash, say) would hear of a game whose turn waits on a person
only once someone moves there. The notifier pages through those games in the background
(``TableService.awaited_tables``), loads each, and hands it on as if it had just changed: the
turn-message planner then gives everyone not at the table the usual moment to open it, and
someone still not there is away, with their turn message sent (or the one sent before the
restart adopted).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from engine.core.errors import Refusal
from engine.service.live import Snapshot, TableInfo

log = logging.getLogger(__name__)

PAGE = 200  # games read from the store at a time


async def follow_awaited(awaited: Callable[[str, int], Awaitable[list[str]]],
                         load: Callable[[str], Awaitable[TableInfo]],
                         snapshot: Callable[[str], Snapshot | None],
                         found: Callable[[Snapshot], None], *, page: int = PAGE) -> int:
    """Load every game a person is to act in and hand each to ``found``; how many were found."""
    count, after = 0, ""
    while ids := await awaited(after, page):
        for table_id in ids:
            try:
                await load(table_id)
            except Refusal:  # gone meanwhile
                continue
            current = snapshot(table_id)
            if current is not None and current.info.status == "playing":
                found(current)
                count += 1
        after = ids[-1]
    return count
