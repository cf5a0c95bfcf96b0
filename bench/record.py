"""How fast the record answers with many finished games: a group's leaderboard and a player's history.

    python -m bench.record [--games 100000] [--groups 2000] [--large-groups 10]

Fills a fresh SQLite file (and a fresh PostgreSQL database when one answers on loopback)
with finished games of three seats each, spread over groups and players, rated as the
service rates them, then times the two indexed queries the bot and the Mini App run.
Each backend runs twice: the games spread over many groups, and the same games in a few
large groups (10,000 games each by default), where a leaderboard that totalled the group's
results per request would slow down; the standings kept as running totals keep it flat.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
from sqlalchemy import insert

from engine.store.database import Store, database_url
from engine.store.schema import ratings, results, tables, users

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
BATCH = 5000


async def fill(store: Store, games: int, groups: int, seed: int) -> None:
    rng = random.Random(seed)
    players = max(30, groups * 6)
    async with store.writer.engine.begin() as conn:
        await conn.execute(insert(users), [
            {"id": p, "name": f"P{p}", "notify": True, "can_message": True, "created_at": 0.0}
            for p in range(1, players + 1)])
        await conn.execute(insert(ratings), [
            {"user_id": p, "game": "coins", "mu": rng.gauss(25, 3), "sigma": rng.uniform(2, 8), "games": 10,
             "wins": 3, "updated_at": 0.0} for p in range(1, players + 1)])
    for start in range(0, games, BATCH):
        table_rows, result_rows = [], []
        for g in range(start, min(games, start + BATCH)):
            chat = -(1 + g % groups)
            base = (g % groups) * 6
            seated = rng.sample(range(base + 1, base + 7), 3)
            table_id = f"b{g:09d}"
            table_rows.append({
                "id": table_id, "game": "coins", "options": "{}", "size": 3, "status": "finished",
                "host_user_id": seated[0], "chat_id": chat, "seed": "s", "seed_hash": "h", "timer": "none",
                "deadline": None, "ai_turn": False, "meta": "{}", "result": None, "created_at": float(g),
                "updated_at": float(g), "version": 0})
            for seat, user in enumerate(seated):
                result_rows.append({"table_id": table_id, "seat": seat, "user_id": user, "name": f"P{user}",
                                    "game": "coins", "chat_id": chat, "placement": seat + 1, "score": 3 - seat,
                                    "finished_at": float(g)})
        async with store.writer.engine.begin() as conn:
            await conn.execute(insert(tables), table_rows)
            await conn.execute(insert(results), result_rows)
    await store.records.retotal_standings()  # what finishing each game one by one would have kept


async def timed(label: str, rounds: int, run: Callable[[], Awaitable[object]]) -> str:
    samples = []
    for _ in range(rounds):
        began = time.perf_counter()
        await run()
        samples.append(time.perf_counter() - began)
    samples.sort()
    p50, p95 = statistics.median(samples) * 1e3, samples[int(rounds * 0.95) - 1] * 1e3
    return f"  {label:<34} p50 {p50:7.2f} ms   p95 {p95:7.2f} ms"


async def measure(name: str, url: str, games: int, groups: int) -> None:
    store = Store(url)
    await store.open()
    began = time.perf_counter()
    await fill(store, games, groups, seed=7)
    filled = time.perf_counter() - began
    if store.is_shared:  # what autovacuum does after a load like this one: fresh planner statistics
        async with store.writer.engine.begin() as conn:
            await conn.exec_driver_sql("ANALYZE")
    rng = random.Random(3)
    print(f"{name}: {games} finished games in {groups} groups (filled in {filled:.1f} s)")
    print(await timed("leaderboard of a group", 50,
                      lambda: store.records.leaderboard(-rng.randint(1, groups), "coins")))
    print(await timed("history of a player (20 games)", 50, lambda: store.records.history(rng.randint(1, groups * 6))))
    await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--groups", type=int, default=2000)
    parser.add_argument("--large-groups", type=int, default=10, help="the large-group case: the games in so few groups")
    args = parser.parse_args()
    cases = (args.groups, args.large_groups)
    for groups in cases:
        with tempfile.TemporaryDirectory() as tmp:
            await measure("SQLite", database_url(None, Path(tmp)), args.games, groups)
    try:
        admin = await asyncpg.connect(POSTGRES)
    except OSError:
        print("PostgreSQL: no server on loopback, skipped")
        return
    try:
        for groups in cases:
            name = f"bench_record_{secrets.token_hex(4)}"
            await admin.execute(f'CREATE DATABASE "{name}"')
            try:
                await measure("PostgreSQL", database_url(POSTGRES.rsplit("/", 1)[0] + "/" + name, Path(".")),
                              args.games, groups)
            finally:
                await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
