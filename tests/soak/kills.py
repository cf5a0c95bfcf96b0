"""The kill soak: the real ``python -m webapp`` stopped (SIGKILL, or SIGTERM as a deploy does) at random moments while
people and AI players play; the store checked while it is down, and every table seen to move on once it is back.

``run_kills`` plays several tables (people signed in locally, against AI players; some
people leave so AI players finish the game alone), waits until they are all under way, stops
the process at random moments (after a random pause, right after a move is acknowledged,
right after a game's final move), checks the store while the process is down, restarts it and
checks that every table left with an AI to act moves on.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from engine import games
from engine.core.rules import replay
from engine.store.database import Store
from tests.soak.harness import Player, Server, SoakFailure, Stats


@dataclass
class KillFigures:
    """What a run of kills did and found."""

    kills: int = 0
    kills_after_ack: int = 0
    kills_after_finish: int = 0
    moves_sent: int = 0
    moves_acked: int = 0
    actions_stored: int = 0
    games_finished: int = 0
    tables: int = 0
    ai_tables_checked: int = 0
    restart_seconds: list[float] = field(default_factory=list)
    stop_seconds: list[float] = field(default_factory=list)  # SIGTERM to exit, when stopped gracefully
    refused: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


async def check_store(server: Server, stats: Stats, figures: KillFigures) -> None:
    """With the process dead: every acked move stored once at its seq; every game over stored finished."""
    store = Store(server.store_url())
    await store.open()
    try:
        stored = 0
        logs: dict[str, list[Any]] = {}
        for table_id in sorted(stats.tables):
            row = await store.tables.load_table(table_id)
            if row is None:
                figures.problems.append(f"table {table_id} is not stored")
                continue
            log = logs[table_id] = await store.tables.load_actions(table_id)
            stored += len(log)
            if [a.seq for a in log] != list(range(1, len(log) + 1)):
                figures.problems.append(f"table {table_id} has seqs {[a.seq for a in log]}")
            stats.status[table_id] = row.status
            seen = (row.status, row.version, len(log))
            if row.status not in ("playing", "finished") or stats.replayed.get(table_id) == seen:
                continue  # unchanged since a check that replayed it
            stats.replayed[table_id] = seen
            game = games.get(row.game)
            state = replay(game, game.parse_options(row.options), row.size, row.seed,
                           [(a.seat, a.action) for a in log])
            outcome = game.outcome(state)
            machines = {s.seat for s in row.seats if s.is_ai or s.autopilot}
            if outcome is None and row.status == "playing" and game.to_act(state) & machines:
                stats.ai_to_act[table_id] = len(log)
            else:
                stats.ai_to_act.pop(table_id, None)
            if outcome is not None and (row.status != "finished" or row.result != outcome.as_dict()):
                figures.problems.append(f"table {table_id}: the log is over but it is stored {row.status}")
            if outcome is None and row.status == "finished":
                figures.problems.append(f"table {table_id} is stored finished with a game still on")
        for ref, move in stats.sent.items():
            if move.acked is None or ref in stats.verified:
                continue
            if move.acked != move.seq + 1:
                figures.problems.append(f"{ref} made at {move.seq} was acked with seq {move.acked}")
            log = logs.get(move.table_id, [])
            entry = log[move.acked - 1] if 0 < move.acked <= len(log) else None
            if entry is None or entry.seat != move.seat or entry.action != move.action or entry.auto:
                figures.problems.append(f"acked move {ref} ({move.table_id} seq {move.acked}) is not stored as sent")
            else:
                stats.verified.add(ref)
        figures.actions_stored = stored
    finally:
        await store.close()


async def check_ai_tables_move(server: Server, stats: Stats, figures: KillFigures, init_data: str,
                               wait: float = 8.0) -> None:
    """After a restart: every table the store left with an AI to act moves on (or ends) within ``wait``.

    Which tables those are comes from the store while the process was dead (the replayed logs), so a
    table whose AI moved the instant the process came back still counts.
    """
    headers = {"Authorization": f"tma {init_data}"}
    waiting = dict(stats.ai_to_act)
    figures.ai_tables_checked += len(waiting)
    async with aiohttp.ClientSession() as session:
        deadline = time.monotonic() + wait
        while waiting and time.monotonic() < deadline:
            for table_id, seq in list(waiting.items()):
                async with session.get(f"{server.url}/api/tables/{table_id}", headers=headers) as resp:
                    data: dict[str, Any] = await resp.json()
                    if resp.status == 429:  # one person looking at every table: within their request budget
                        await asyncio.sleep(float(resp.headers.get("Retry-After", "1")))
                        continue
                    if resp.status != 200:
                        raise SoakFailure(f"GET table {table_id}: {resp.status} {data}")
                table = data["table"]
                if table["status"] != "playing" or table["seq"] > seq:
                    del waiting[table_id]
            await asyncio.sleep(0.1)
    figures.problems += [f"AI table {t} did not move after a restart" for t in waiting]


async def under_way(stats: Stats, players: int, figures: KillFigures, within: float = 60.0) -> None:
    """Wait until every person is at a table and one has left theirs to its AI players, so each stop meets tables
    in play, some with an AI to act, however slow the machine (a problem if not within ``within`` seconds)."""
    began = time.monotonic()
    while len(stats.tables) < players or not stats.ai_only:
        if time.monotonic() - began > within:
            figures.problems.append(f"{len(stats.tables)} of {players} people at a table and {len(stats.ai_only)} "
                                    f"left to AI players after {within:.0f} s")
            return
        await asyncio.sleep(0.05)


async def run_kills(data_dir: Path, *, kills: int, players: int = 4, database: str | None = None,
                    seed: int = 1, max_pause: float = 1.0, graceful: bool = False) -> tuple[KillFigures, Server]:
    """Kill the server ``kills`` times at random moments while people play; check the store after each.

    ``graceful``: stop it with SIGTERM (a deploy) instead, and count it a problem if it does not exit within 10 s.
    """
    rng = random.Random(seed)
    server = Server(data_dir, database)
    stats, figures = Stats(), KillFigures()
    figures.restart_seconds.append(await server.start())
    stop = asyncio.Event()
    people = [Player(server, f"P{i}", stats, random.Random(seed * 100 + i), leaves=i % 2 == 1)
              for i in range(players)]
    tasks = [asyncio.create_task(p.run(stop)) for p in people]
    try:
        await under_way(stats, players, figures)
        for _ in range(0 if figures.problems else kills):
            moment = rng.choice(("pause", "ack", "finish"))
            stats.acked.clear()
            stats.finished.clear()
            if moment == "pause":
                await asyncio.sleep(rng.uniform(0.05, max_pause))
            else:
                event = stats.acked if moment == "ack" else stats.finished
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), timeout=max_pause * 5)
                if moment == "ack" and event.is_set():
                    figures.kills_after_ack += 1
                elif moment == "finish" and event.is_set():
                    figures.kills_after_finish += 1
            if graceful:
                took = await asyncio.to_thread(server.stop)
                if took is None:
                    figures.problems.append("the server did not exit within 10 s of SIGTERM")
                else:
                    figures.stop_seconds.append(took)
            else:
                server.kill()
            figures.kills += 1
            await check_store(server, stats, figures)
            if figures.problems:
                break
            figures.restart_seconds.append(await server.start())
            signer = next((p.init_data for p in people if p.init_data), "")
            if signer:
                await check_ai_tables_move(server, stats, figures, signer)
            if figures.problems:
                break
        await asyncio.sleep(0.2)
    finally:
        stop.set()
        for task in tasks:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 5)
        server.kill()
    # a person who met what the soak forbids (an error frame, an API call refused) stopped playing there
    figures.problems += [str(task.exception()) for task in tasks
                         if task.done() and not task.cancelled() and task.exception() is not None]
    if not figures.problems:
        await check_store(server, stats, figures)
    figures.moves_sent = len(stats.sent)
    figures.moves_acked = sum(1 for m in stats.sent.values() if m.acked is not None)
    figures.games_finished = stats.games_finished
    figures.tables = len(stats.tables)
    figures.refused = dict(stats.refused)
    return figures, server
