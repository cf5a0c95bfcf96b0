"""Engine benchmark: moves per second through the rules interface and through the table service.

Run: ``python -m bench.engine`` (``--help`` for sizes). Prints figures; asserts nothing.
1. Random play through the public rules interface (to_act, legal_actions, apply) of each game.
2. The table service with SQLite on disk: ``--tables`` concurrent tables of people moving
   flat out, every move durably stored (group commits), reported as stored moves per second.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from engine import games
from engine.service.tables import TableService
from engine.store.database import Store, database_url


def rules_rate(name: str, seconds: float) -> tuple[float, int]:
    """Moves per second of uniformly random play through the public interface."""
    game = games.get(name)
    n = game.max_players if game.min_players == game.max_players else game.min_players
    rnd = random.Random(7)
    moves = finished = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_game(None, n, f"bench-{finished}")
        for _ in range(5000):
            to_act = game.to_act(state)
            if not to_act:
                break
            seat = min(to_act)
            legal = game.legal_actions(state, seat)
            state, _ = game.apply(state, seat, legal[rnd.randrange(len(legal))])
            moves += 1
        finished += 1
    return moves / (time.perf_counter() - start), finished


async def service_rate(tables: int, moves_per_table: int, url: str) -> tuple[float, int, int]:
    """Stored moves per second with ``tables`` tables of three people moving concurrently."""
    store = Store(url)
    await store.open()
    service = TableService(store)
    await service.start()
    ids = []
    for t in range(tables):
        base = 1000 + 10 * t
        info = await service.create_table("coins", base, "A", {"target_score": 99})
        await service.join(info.id, base + 1, "B")
        await service.join(info.id, base + 2, "C")
        await service.start_game(info.id, base)
        ids.append((info.id, base))
    commits_before = store.commits

    async def drive(table_id: str, base: int) -> int:
        done = 0
        table = service.live(table_id)
        assert table is not None
        while done < moves_per_table and table.row.status == "playing":
            (seat,) = table.game.to_act(table.state)
            legal = table.game.legal_actions(table.state, seat)
            await service.act(table_id, base + seat, legal[0], table.seq)
            done += 1
        return done

    start = time.perf_counter()
    done = sum(await asyncio.gather(*(drive(t, b) for t, b in ids)))
    elapsed = time.perf_counter() - start
    commits = store.commits - commits_before
    await service.close()
    await store.close()
    return done / elapsed, done, commits


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of random play per game")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60, help="moves per table in the service run")
    parser.add_argument("--database-url", default=None, help="a PostgreSQL URL instead of SQLite")
    args = parser.parse_args()
    print("rules interface, uniformly random play:")
    for name in games.names():
        rate, played = rules_rate(name, args.seconds)
        print(f"  {name:16s} {rate:10,.0f} moves/s  ({played} games)")
    with tempfile.TemporaryDirectory() as tmp:
        url = database_url(args.database_url, Path(tmp))
        rate, done, commits = asyncio.run(service_rate(args.tables, args.moves, url))
    backend = "PostgreSQL" if args.database_url else "SQLite (WAL, synchronous=FULL)"
    print(f"table service, {args.tables} concurrent tables, {backend}:")
    print(f"  {rate:10,.0f} durably stored moves/s  ({done} moves in {commits} group commits, "
          f"{done / max(commits, 1):.1f} moves per commit)")


if __name__ == "__main__":
    main()
