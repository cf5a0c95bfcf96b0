"""The long soak: ``python -m bench.soak --kills 200 --frames 100000`` (add ``--postgres URL`` for PostgreSQL).

``--processes 3 --seconds 600 --postgres URL`` runs its other long form instead: three processes on one
PostgreSQL database, killed and cut off from it in turn while people on every process play, some at tables
with a live turn timer (``tests.soak.cluster``); printed are the moves acknowledged, lost and applied twice,
the deadlines and sockets left stuck, how late each timed turn was taken and how soon sockets caught up.

Kills the real web process at random moments while people and AI players play, checking
after each kill that every acknowledged move is stored exactly once and every game over is
stored finished, and after each restart that every AI table moves on; then sends hostile
frames and bodies while a healthy client pings. Prints the figures; exits 1 on any problem.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

from tests.soak.cluster import run_cluster
from tests.soak.harness import Server, tracebacks
from tests.soak.hostile import run_fuzz
from tests.soak.kills import run_kills


def _quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def cluster(args: argparse.Namespace) -> int:
    """Three processes on PostgreSQL through kills and cuts; prints the figures, 1 on any problem."""
    with tempfile.TemporaryDirectory(prefix="cardroom-soak-") as tmp:
        database = await _database(args.postgres)
        assert database is not None, "--processes 3 needs --postgres"
        began = time.monotonic()
        figures, _servers = await run_cluster(Path(tmp), database, seconds=args.seconds, untimed=args.tables,
                                              timed=args.timed_tables, every=args.every, seed=args.seed)
        late, catch = figures.lateness, figures.catch_up
        print(f"three processes, {args.seconds:.0f} s ({time.monotonic() - began:.0f} s in all): "
              f"{figures.kills} kills, {figures.cuts} cuts of one process's database connections")
        print(f"  tables {figures.tables} ({figures.timed_tables} timed), games finished {figures.games_finished}, "
              f"moves sent {figures.moves_sent}, acknowledged {figures.moves_acked}, "
              f"actions stored {figures.actions_stored}")
        print(f"  acknowledged moves lost {figures.lost}, applied twice {figures.twice}, stuck {figures.stuck}")
        print(f"  timed turns {figures.timed_turns}: taken after their deadline by p50 {_quantile(late, 0.5):.2f} s, "
              f"p95 {_quantile(late, 0.95):.2f} s, max {max(late, default=float('nan')):.2f} s")
        print(f"  sockets at each stored move: p50 {_quantile(catch, 0.5) * 1000:.0f} ms, "
              f"p95 {_quantile(catch, 0.95) * 1000:.0f} ms, max {max(catch, default=float('nan')) * 1000:.0f} ms "
              f"after the first to have it ({len(catch)} socket-moves)")
        print(f"  refusals seen by players: {figures.refused}; tracebacks in the logs: {figures.tracebacks}; "
              f"problems: {len(figures.problems)}")
        for problem in figures.problems[:20]:
            print("   ", problem)
        if args.json:
            print(asdict(figures))
        await _drop(args.postgres, database)
    return 1 if figures.problems else 0


async def _drop(admin_url: str, database: str) -> None:
    """Drop the soak's database (its figures are printed; nothing in it is needed again)."""
    import asyncpg

    admin = await asyncpg.connect(admin_url)
    await admin.execute(f'DROP DATABASE IF EXISTS "{database.rsplit("/", 1)[1]}" WITH (FORCE)')
    await admin.close()


async def _database(admin_url: str | None) -> str | None:
    if not admin_url:
        return None
    import asyncpg

    name = f"cardroom_soak_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(admin_url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    return admin_url.rsplit("/", 1)[0] + "/" + name


async def main(args: argparse.Namespace) -> int:
    """Run both parts and print what they found."""
    problems = 0
    with tempfile.TemporaryDirectory(prefix="cardroom-soak-") as tmp:
        began = time.monotonic()
        database = await _database(args.postgres)
        figures, server = await run_kills(Path(tmp) / "kills", kills=args.kills, players=args.players,
                                          database=database, seed=args.seed, max_pause=args.max_pause)
        restarts = sorted(figures.restart_seconds)
        print(f"kills: {figures.kills} ({figures.kills_after_ack} right after an ack, "
              f"{figures.kills_after_finish} right after a game's end) in {time.monotonic() - began:.0f} s")
        print(f"  tables {figures.tables}, games finished {figures.games_finished}, moves sent {figures.moves_sent}, "
              f"acked {figures.moves_acked}, actions stored {figures.actions_stored}")
        print(f"  AI tables checked to move on after a restart: {figures.ai_tables_checked}")
        print(f"  restart seconds: median {restarts[len(restarts) // 2]:.2f}, max {restarts[-1]:.2f}")
        print(f"  refusals seen by players: {figures.refused}")
        print(f"  tracebacks in the log: {len(tracebacks(server.log()))}; problems: {len(figures.problems)}")
        for problem in figures.problems[:20]:
            print("   ", problem)
        problems += len(figures.problems) + len(tracebacks(server.log()))

        server = Server(Path(tmp) / "fuzz", await _database(args.postgres), BODY_TIMEOUT="1")
        await server.start()
        began = time.monotonic()
        try:
            fuzz = await run_fuzz(server, frames=args.frames, rounds_of_bodies=args.body_rounds,
                                  sockets=args.sockets, seed=args.seed)
        finally:
            server.stop()
        print(f"hostile: {fuzz.frames} frames, {fuzz.answered} answered, closes {fuzz.closes}; "
              f"{fuzz.bodies} bodies, statuses {fuzz.statuses}; in {time.monotonic() - began:.0f} s")
        print(f"  healthy ping p99: quiet {fuzz.quiet_p99_ms:.1f} ms, under attack {fuzz.loaded_p99_ms:.1f} ms "
              f"({fuzz.loaded_pings} pings); tracebacks {fuzz.tracebacks}")
        for problem in fuzz.problems[:20]:
            print("   ", problem)
        if fuzz.loaded_p99_ms > 10 * fuzz.quiet_p99_ms:
            print("  the healthy client's p99 grew more than tenfold")
            problems += 1
        problems += len(fuzz.problems)
        if args.json:
            print({"kills": asdict(figures), "fuzz": asdict(fuzz)})
    return 1 if problems else 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--max-pause", type=float, default=1.0, help="longest random pause before a kill (s)")
    parser.add_argument("--frames", type=int, default=100_000, help="hostile frames in all")
    parser.add_argument("--sockets", type=int, default=4, help="hostile sockets at once")
    parser.add_argument("--body-rounds", type=int, default=20, help="rounds of hostile HTTP requests")
    parser.add_argument("--postgres", help="a PostgreSQL admin URL: soak on a fresh database there")
    parser.add_argument("--processes", type=int, choices=(1, 3), default=1,
                        help="3: the three-process soak on PostgreSQL (needs --postgres)")
    parser.add_argument("--seconds", type=float, default=600.0, help="three processes: how long they play")
    parser.add_argument("--tables", type=int, default=6, help="three processes: untimed tables at once")
    parser.add_argument("--timed-tables", type=int, default=4, help="three processes: tables with a live timer")
    parser.add_argument("--every", type=float, default=12.0, help="three processes: seconds between troubles")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="also print every figure")
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse()
    sys.exit(asyncio.run(cluster(arguments) if arguments.processes == 3 else main(arguments)))
