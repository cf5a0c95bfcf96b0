"""What the three-process soak checks once its processes are stopped (``tests.soak.cluster``): the store (every
acknowledged move stored once, every log without a gap), each timed turn taken at its deadline, and every socket at
each move of its table within the catch-up bound."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import asyncpg

from engine.service.timers import TIMERS
from tests.soak.harness import Server, tracebacks
from tests.soak.kills import KillFigures, check_store

if TYPE_CHECKING:
    from tests.soak.cluster import Cluster, ClusterFigures

TURN = TIMERS["live"] or 60.0


@dataclass(frozen=True)
class Stored:
    """A stored move as the timer check reads it."""

    seq: int
    seat: int
    auto: bool
    created_at: float


def check_timers(cluster: Cluster, logs: dict[str, list[Stored]], figures: ClusterFigures, late: float) -> None:
    """Each stand-in's move at a timed table came at its deadline (a minute after the move before) give or take."""
    for table_id, absent in cluster.timed.items():
        log = logs.get(table_id, [])
        began = cluster.started.get(table_id, log[0].created_at if log else 0.0)
        seen = sorted(cluster.deadlines.get(table_id, ()))
        for before, entry in itertools.pairwise([Stored(0, -1, False, began), *log]):
            gap = entry.created_at - before.created_at
            if entry.seat != absent or gap < TURN / 2:  # its autopilot's, at once, after two turns missed
                continue
            if not entry.auto:
                figures.problems.append(f"timed table {table_id}: seq {entry.seq} is not automatic")
            # the turn's deadline as the watcher saw it stored; else a minute after the move before
            deadline = max((d for d in seen if d <= entry.created_at + 1.0), default=before.created_at + TURN)
            figures.timed_turns += 1
            figures.lateness.append(entry.created_at - deadline)
            if entry.created_at - deadline > late:
                figures.problems.append(f"timed table {table_id}: seq {entry.seq} taken "
                                        f"{entry.created_at - deadline:.1f} s after its deadline")


def first_seen(cluster: Cluster) -> dict[str, list[tuple[float, int]]]:
    """For each table and each seq the watcher saw stored: the first moment the store or a socket had it (or later)."""
    seen: dict[str, list[tuple[float, int]]] = {}
    for table_id, stored in cluster.stored.items():
        earliest: dict[int, float] = {}
        for at, seq in [*stored, *((t, q) for life in cluster.connections if life.table_id == table_id
                                   for t, q in life.reached)]:
            earliest[seq] = min(at, earliest.get(seq, at))
        best, out = float("inf"), []
        for seq in sorted(earliest, reverse=True):  # having a later seq means having this one too
            best = min(best, earliest[seq])
            out.append((best, seq))
        stored_seqs = {seq for _, seq in stored}
        seen[table_id] = sorted((at, seq) for at, seq in out if seq in stored_seqs)
    return seen


def check_sockets(cluster: Cluster, figures: ClusterFigures, catch_up: float, end: float) -> None:
    """Every socket open when a move was first seen reached it within ``catch_up`` seconds, unless it closed first."""
    seen = first_seen(cluster)
    for life in cluster.connections:
        closed = life.closed if life.closed is not None else end
        for stored_at, seq in seen.get(life.table_id, []):
            when = next((t for t, s in life.reached if s >= seq), None)
            if stored_at < life.opened or (when is None and stored_at + catch_up > closed):
                continue  # not open when it was first seen, or closed too soon after to judge
            if when is None or when - stored_at > catch_up:
                figures.stuck += when is None
                late = "never" if when is None else f"{when - stored_at:.1f} s later"
                figures.problems.append(f"a socket of table {life.table_id} on process {life.process} reached "
                                        f"seq {seq} {late}")
            else:
                figures.catch_up.append(max(0.0, when - stored_at))


async def check_all(cluster: Cluster, figures: ClusterFigures, late: float, catch_up: float, end: float) -> None:
    """Once the processes are stopped: the store, the timers and the sockets."""
    kill_figures = KillFigures()
    direct = Server(cluster.servers[0].data_dir, cluster.database)  # not through a proxy: for reading only
    await check_store(direct, cluster.stats, kill_figures)
    figures.problems += kill_figures.problems
    figures.lost = sum("is not stored as sent" in p for p in kill_figures.problems)
    figures.twice = sum(" has seqs " in p or "was acked with seq" in p for p in kill_figures.problems)
    figures.actions_stored = kill_figures.actions_stored
    connection = await asyncpg.connect(cluster.database)
    try:
        rows = await connection.fetch("SELECT table_id, seq, seat, auto, created_at FROM actions "
                                      "WHERE table_id = ANY($1::text[]) ORDER BY table_id, seq", list(cluster.timed))
    finally:
        await connection.close()
    logs: dict[str, list[Stored]] = {}
    for row in rows:
        logs.setdefault(row["table_id"], []).append(Stored(row["seq"], row["seat"], row["auto"], row["created_at"]))
    check_timers(cluster, logs, figures, late)
    check_sockets(cluster, figures, catch_up, end)
    stats = cluster.stats
    figures.tables = len(stats.tables)
    figures.timed_tables = len(cluster.timed)
    figures.games_finished = stats.games_finished
    figures.moves_sent = len(stats.sent)
    figures.moves_acked = sum(1 for m in stats.sent.values() if m.acked is not None)
    figures.refused = dict(stats.refused)
    figures.tracebacks = sum(len(tracebacks(server.log())) for server in cluster.servers)
