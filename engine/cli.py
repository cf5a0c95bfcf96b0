"""The ``cardroom`` command: ``simulate`` plays whole games of AI players through the table service;
``ratings --rebuild`` recomputes every rating from the finished games' move logs; ``backup PATH`` and
``restore PATH`` copy the SQLite database while it is in use, and put a copy back (``engine.backups``)."""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from engine import games
from engine.backups import backup_command, restore_command
from engine.config import Settings
from engine.core.errors import Refusal
from engine.service.kinds import UpdateKind
from engine.service.record import Record
from engine.service.tables import TableService
from engine.store.database import Store, database_url


def progress(done: int, total: int, started: float, out: object = sys.stderr) -> None:
    """Draw a one-line progress bar with a rate and time left."""
    width = 30
    filled = width * done // max(total, 1)
    elapsed = time.perf_counter() - started
    rate = done / elapsed if elapsed else 0.0
    left = (total - done) / rate if rate else 0.0
    line = f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games  {rate:5.1f}/s  {left:4.0f}s left"
    print(line, end="" if done < total else "\n", file=out, flush=True)  # type: ignore[call-overload]


async def simulate(
    game: str, count: int, seed: str, level: str, data_dir: Path, players: int | None, parallel: int = 8
) -> int:
    """Play ``count`` all-AI games through the service and print the results."""
    store = Store(database_url(None, data_dir))
    await store.open()
    service = TableService(store)
    await service.start()
    wins: Counter[int] = Counter()
    totals: Counter[int] = Counter()
    moves = 0
    started = time.perf_counter()
    done = 0
    gate = asyncio.Semaphore(parallel)

    async def one(i: int) -> None:
        nonlocal done, moves
        async with gate:
            table_seed = hashlib.sha256(f"{seed}:{i}".encode()).hexdigest()
            options: dict[str, object] = {"ai_level": level}
            if players:
                options["players"] = players
            info = await service.create_table(game, 0, "Simulator", options, seed=table_seed)
            table = service.live(info.id)
            assert table is not None
            table.row.seats[0].is_ai = True  # the simulator hands its own seat to the AI too
            updates = service.subscribe(info.id)
            await service.start_game(info.id, 0)
            async for update in updates:
                if update.kind in (UpdateKind.FINISHED, UpdateKind.ABANDONED):
                    break
            updates.close()
            final = await service.info(info.id)
            if final.result is None:
                raise RuntimeError(f"game {i} did not finish (status {final.status})")
            for seat in final.result["winners"]:
                wins[seat] += 1
            for seat, score in enumerate(final.result["scores"]):
                totals[seat] += score
            moves += final.seq
            done += 1
            progress(done, count, started)

    try:
        await asyncio.gather(*(one(i) for i in range(count)))
    finally:
        await service.close()
        await store.close()
    elapsed = time.perf_counter() - started
    print(f"{count} games of {games.get(game).title}, {moves} moves in {elapsed:.1f}s "
          f"({moves / elapsed:.0f} stored moves/s)")
    for seat in sorted(totals):
        print(f"  seat {seat}: {wins[seat]} wins ({100 * wins[seat] / count:.1f}%), "
              f"average score {totals[seat] / count:.2f}")
    return 0


async def rebuild_ratings(url: str) -> int:
    """Recompute the ratings of the database at ``url`` from its move logs (first putting on record the games
    finished before the record began) and print how many games counted."""
    store = Store(url)
    await store.open()
    try:
        record = Record(store)
        added = await record.backfill()
        counted = await record.rebuild()
    finally:
        await store.close()
    if added:
        print(f"{added} games finished before the record began put on record from their logs")
    for name in games.names():
        print(f"{games.get(name).title}: {counted.get(name, 0)} finished games rated")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``cardroom`` command."""
    parser = argparse.ArgumentParser(prog="cardroom", description="Cardroom tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play whole games of AI players through the table service")
    sim.add_argument("--game", default="coins", help=f"one of: {', '.join(games.names())}")
    sim.add_argument("--games", type=int, default=10, help="how many games to play")
    sim.add_argument("--seed", default="cardroom", help="derives each table's seed, so runs repeat exactly")
    sim.add_argument("--level", default="easy", choices=("easy", "strong", "expert"), help="AI level")
    sim.add_argument("--players", type=int, default=None, help="seats, for games with a choice")
    sim.add_argument("--parallel", type=int, default=8, help="games played at the same time")
    sim.add_argument("--data-dir", type=Path, default=None, help="keep the database here (default: a temp dir)")
    rat = sub.add_parser("ratings", help="ratings from the finished games (DATABASE_URL or DATA_DIR says where)")
    rat.add_argument("--rebuild", action="store_true", required=True, help="recompute every rating from the logs")
    back = sub.add_parser("backup", help="a consistent copy of the SQLite database, while it is in use")
    back.add_argument("path", type=Path, help="the copy's file (or a folder to put cardroom.db in)")
    put = sub.add_parser("restore", help="put a backup in place of the SQLite database (stop the process first)")
    put.add_argument("path", type=Path, help="the backup's file")
    put.add_argument("--force", action="store_true", help="overwrite a database that holds tables or people")
    args = parser.parse_args(argv)
    if args.command == "backup":
        return backup_command(args.path, Settings.from_env())
    if args.command == "restore":
        return restore_command(args.path, Settings.from_env(), force=args.force)
    if args.command == "ratings":
        settings = Settings.from_env()
        return asyncio.run(rebuild_ratings(database_url(settings.database_url, settings.data_dir)))
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        games.get(args.game)
        if args.data_dir is not None:
            return asyncio.run(simulate(args.game, args.games, args.seed, args.level, args.data_dir, args.players,
                                        max(1, args.parallel)))
        with tempfile.TemporaryDirectory(prefix="cardroom-sim-") as tmp:
            return asyncio.run(simulate(args.game, args.games, args.seed, args.level, Path(tmp), args.players,
                                        max(1, args.parallel)))
    except Refusal as refusal:
        print(f"cardroom: {refusal.message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
