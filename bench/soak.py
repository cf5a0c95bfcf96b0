"""The long soak: ``python -m bench.soak --kills 200 --frames 100000`` (add ``--postgres URL`` for PostgreSQL).

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

from tests.soak.harness import Server, run_fuzz, run_kills, tracebacks


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
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="also print every figure")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse())))
