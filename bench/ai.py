"""AI tournaments: one level against two of another, over the same deals with seats rotated.

Each line-up plays every deal three times, with the tested player in seat 0, 1 and 2
and the same seed (so the same cards and first dealer) each time; every line-up uses
the same seeds. Prints the tested player's win rate with a 95% Wilson interval, its
average points per game, its decision time p50/p95 and the strong player's playouts
per second.

    python -m bench.ai --deals 20 --playouts 1200 --seconds 0.2
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool

from engine.ai.base import AiPlayer, RandomPlayer
from engine.ai.coins import EasyCoins, StrongCoins
from engine.ai.coins.strong import GREEDY
from engine.games import get

LINEUPS = {
    "strong-random": ("strong", "random"),
    "strong-easy": ("strong", "easy"),
    "easy-random": ("easy", "random"),
}


@dataclass
class Tally:
    """What one line-up produced."""

    games: int = 0
    wins: int = 0
    points: int = 0
    times: list[float] = field(default_factory=list)
    playouts: int = 0
    search_seconds: float = 0.0

    def add(self, other: Tally) -> None:
        """Merge another tally into this one."""
        self.games += other.games
        self.wins += other.wins
        self.points += other.points
        self.times.extend(other.times)
        self.playouts += other.playouts
        self.search_seconds += other.search_seconds


def make_player(level: str, playouts: int, seconds: float | None, greedy: float) -> AiPlayer:
    """A fresh player for a level."""
    if level == "strong":
        return StrongCoins(playouts=playouts, seconds=seconds, greedy=greedy)
    if level == "easy":
        return EasyCoins()
    return RandomPlayer()


def play_game(job: tuple[str, str, str, int, int, int, float | None, float]) -> Tally:
    """One game: ``subject`` level in seat ``rot``, ``opponent`` level in the two others."""
    subject, opponent, seed, rot, target, playouts, seconds, greedy = job
    game = get("coins")
    players = [make_player(subject if s == rot else opponent, playouts, seconds, greedy) for s in range(3)]
    state = game.new_game({"target_score": target, "first_dealer": "seat:0"}, 3, seed)
    tally = Tally(games=1)
    move = 0
    while game.outcome(state) is None:
        (seat,) = game.to_act(state)
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        t0 = time.perf_counter()
        action = players[seat].choose(view, legal, f"{seed}:{rot}:{move}")
        elapsed = time.perf_counter() - t0
        if seat == rot and len(legal) > 1:
            tally.times.append(elapsed)
        state, _ = game.apply(state, seat, action)
        move += 1
    outcome = game.outcome(state)
    assert outcome is not None
    tally.wins = int(rot in outcome.winners)
    tally.points = outcome.scores[rot]
    me = players[rot]
    if isinstance(me, StrongCoins):
        tally.playouts, tally.search_seconds = me.playouts_done, me.seconds_spent
    return tally


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) of values, nearest rank."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def report(name: str, tally: Tally) -> str:
    """One line of results."""
    low, high = wilson(tally.wins, tally.games)
    rate = tally.wins / tally.games if tally.games else 0.0
    line = (
        f"{name:14} games {tally.games:4}  win {rate:6.1%} [{low:6.1%}, {high:6.1%}]"
        f"  points/game {tally.points / max(tally.games, 1):5.2f}"
        f"  decision p50 {percentile(tally.times, 0.5) * 1000:6.1f} ms"
        f"  p95 {percentile(tally.times, 0.95) * 1000:6.1f} ms"
    )
    if tally.search_seconds:
        line += f"  playouts/s {tally.playouts / tally.search_seconds:7.0f}"
    return line


def main(argv: list[str] | None = None) -> int:
    """Run the tournaments and print a table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20, help="deals per line-up (each played 3 times)")
    parser.add_argument("--playouts", type=int, default=1200, help="strong player's playouts per decision")
    parser.add_argument("--seconds", type=float, default=0.2, help="strong player's time cap per decision (0: none)")
    parser.add_argument("--greedy", type=float, default=GREEDY,
                        help="strong player's chance of an easy-player card in its playouts")
    parser.add_argument("--target", type=int, default=10, help="target score")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (timings are fairest with 1)")
    parser.add_argument("--lineups", nargs="*", choices=sorted(LINEUPS), default=list(LINEUPS))
    parser.add_argument("--seed", default="bench", help="prefix of the deal seeds")
    args = parser.parse_args(argv)
    seconds = args.seconds or None
    print(f"coins, target {args.target}, {args.deals} deals x 3 seats, strong: {args.playouts} playouts, "
          f"cap {seconds} s, {args.jobs} job(s)")
    for name in args.lineups:
        subject, opponent = LINEUPS[name]
        jobs = [
            (subject, opponent, f"{args.seed}:{d}", rot, args.target, args.playouts, seconds, args.greedy)
            for d in range(args.deals) for rot in range(3)
        ]
        total = Tally()
        started = time.perf_counter()
        if args.jobs > 1:
            with Pool(args.jobs) as pool:
                for tally in pool.imap_unordered(play_game, jobs):
                    total.add(tally)
        else:
            for job in jobs:
                total.add(play_game(job))
        print(report(name, total), f" ({time.perf_counter() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
