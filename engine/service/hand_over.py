"""Handing this process's tables over on a graceful stop, so another process serves them at once.

Two steps, in this order, for the web process's stop sequence (``webapp.shutdown``):

1. ``finish_moves``: the AI, the turn timers and the supervisor stop (an AI move being
   stored is one transaction: stored whole or not at all), then each loaded table's lock is
   taken once, so every move already accepted is stored, applied and published before the
   process lets go. Adapters stop taking moves first (they refuse them as ``moving``).
2. ``release_leases``: every lease is freed at once (``engine.service.peers.HandsOver``) and the
   other processes are told, so they drive the tables now rather than after the heartbeat's
   ``STALE_AFTER``. No lease is taken again afterwards, so nothing here drives a table any more.
"""

from __future__ import annotations

import logging

from engine.service.due import DueWork
from engine.service.loading import Tables
from engine.service.peers import HandsOver, Peers

log = logging.getLogger(__name__)


class HandOver:
    """The graceful stop's part in the service: moves finished, leases handed over."""

    def __init__(self, due: DueWork, tables: Tables, peers: Peers) -> None:
        self.due = due
        self.tables = tables
        self.peers = peers

    async def finish_moves(self) -> int:
        """Stop the AI, timers and supervisor, then let every move already accepted finish; the tables waited on."""
        await self.due.close()
        tables = self.tables.all()
        for table in tables:
            async with table.lock:  # a move holding it is stored and published before this is granted
                pass
        return len(tables)

    async def release_leases(self) -> int:
        """Free every lease now, and take none again; how many tables this process drove."""
        held = [table.id for table in self.tables.all() if self.peers.holds(table.id)]
        if isinstance(self.peers, HandsOver):
            await self.peers.release_all()
        else:
            for table_id in held:
                await self.peers.release(table_id)
        log.info("handed over the leases of %d table(s)", len(held))
        return len(held)
