"""AI tournaments for every game: one level against the others at a table, over duplicate deals.

Every deal (a seed: the same cards and the same first dealer) is played once per seat with the
tested player in that seat and the other level in the rest, so each line-up meets the same
cards from every chair, and every line-up uses the same seeds. For each line-up it prints
the tested player's share of games won (placed first; par is one in the table size) with a 95%
Wilson interval, and its decision time p50/p95/max in CPU time (decisions with a choice only). For Sergeant
Major it also prints the mean tricks over target per hand with a 95% bootstrap interval, and
the same figure for an easy player in the same chairs of the same deals (the ``easy`` line-up), and
with ``--option woburn_first_bid=true`` the hand-1 auctions: the final bid and whether its bidder
made it as dealer.

Every level decides from what its seat remembers (``remembering_view``: its view, and in Coins the
cards of this hand's older tricks). ``baseline`` is the strong level of 2026-12-03 kept for
comparison: the same player deciding from the view alone, as it did before it remembered.

A search level stops at its playout budget or its time cap per decision, whichever comes first;
on a busy machine the cap cuts the search short, so the results depend on the load. With
``--uncapped`` the search levels always spend their whole playout budget (every figure then
depends on the seeds alone). Decision times are always the process's CPU time, which other
processes on the machine do not inflate.

    python -m bench.ai --game sergeant_major --deals 10 --jobs 2
    python -m bench.ai --game kings_corner --players 2 3 4 --deals 30
    python -m bench.ai --game coins --deals 20 --uncapped
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from engine.ai.base import AiPlayer, RandomPlayer, player_for
from engine.core.rules import remembering_view
from engine.games import get

GAMES = ("coins", "sergeant_major", "kings_corner")
# line-up name -> (tested level, level of every other seat)
LINEUPS = {
    "strong-random": ("strong", "random"),
    "strong-easy": ("strong", "easy"),
    "easy-easy": ("easy", "easy"),
    "easy-random": ("easy", "random"),
    "expert-easy": ("expert", "easy"),
    "expert-strong": ("expert", "strong"),
    "strong-strong": ("strong", "strong"),
    "strong-baseline": ("strong", "baseline"),
}
BASELINE = "baseline"  # strong, deciding from its view alone (without memory)
DEFAULT_LINEUPS = ("strong-random", "strong-easy", "easy-easy")
MOVE_CAP = 20_000


@dataclass
class Tally:
    """What one line-up produced."""

    games: int = 0
    wins: float = 0.0
    hand_results: list[float] = field(default_factory=list)  # Sergeant Major: tricks over target per hand
    times: list[float] = field(default_factory=list)  # CPU seconds per decision with a choice
    auctions: list[tuple[int, bool, bool]] = field(default_factory=list)  # Woburn: (final bid, made, by subject)

    def add(self, other: Tally) -> None:
        """Merge another tally into this one."""
        self.games += other.games
        self.wins += other.wins
        self.hand_results.extend(other.hand_results)
        self.times.extend(other.times)
        self.auctions.extend(other.auctions)


def make_player(game: str, level: str, playouts: int | None, uncapped: bool = False) -> AiPlayer:
    """A fresh player for a level, with its playout budget overridden and its time cap lifted when asked."""
    if level == "random":
        return RandomPlayer()
    player = player_for(game, "strong" if level == BASELINE else level)
    if playouts is not None and hasattr(player, "playouts"):
        player.playouts = playouts
    if uncapped and hasattr(player, "seconds"):
        player.seconds = None
    return player


Job = tuple[str, str, str, str, int, int, dict[str, Any], int | None, bool]


def play_game(job: Job) -> Tally:
    """One game: the ``subject`` level in seat ``rot``, the ``opponent`` level in every other seat."""
    name, subject, opponent, seed, rot, n, options, playouts, uncapped = job
    clock = time.process_time
    game = get(name)
    players = [make_player(name, subject if s == rot else opponent, playouts, uncapped) for s in range(n)]
    state = game.new_game(options, n, seed)
    tally = Tally(games=1)
    bid: tuple[int, int] | None = None  # Woburn: the high bid of hand 1 and its bidder
    for move in range(MOVE_CAP):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        forgets = (subject if seat == rot else opponent) == BASELINE
        view = game.view(state, seat) if forgets else remembering_view(game, state, seat)
        t0 = clock()
        action = players[seat].choose(view, legal, f"{seed}:{rot}:{move}")
        elapsed = clock() - t0
        if seat == rot and (len(legal) > 1 or view.get("choose")):
            tally.times.append(elapsed)
        if action.get("type") == "bid":
            bid = (int(action["tricks"]), seat)
        state, _ = game.apply(state, seat, action)
    outcome = game.outcome(state)
    if bid is not None:
        tally.auctions.append(_auction(state, outcome, bid, rot))
    if outcome is None:
        return tally  # capped: counted as a game not won
    winners = [s for s in range(n) if outcome.placements[s] == 1]
    if rot in winners:
        tally.wins = 1.0 / len(winners)  # a shared first place shares the win
    if name == "sergeant_major":
        tally.hand_results = [float(r[rot]) for r in state.match.history]
    return tally


def _auction(state: Any, outcome: Any, bid: tuple[int, int], rot: int) -> tuple[int, bool, bool]:
    """A Woburn auction: the final bid, whether its bidder took that many tricks as dealer, by the subject."""
    tricks, bidder = bid
    history = state.match.history
    if history:
        made = history[0][bidder] >= 0  # hand 1's result against the bid
    else:  # the game ended in hand 1: the dealer made it only by winning there with enough tricks
        made = outcome is not None and outcome.placements[bidder] == 1 and tricks <= 12
    return tricks, made, bidder == rot


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def bootstrap(values: Sequence[float], rounds: int = 2000, seed: int = 7) -> tuple[float, float]:
    """A 95% percentile-bootstrap interval of the mean."""
    if not values:
        return 0.0, 0.0
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) of values, nearest rank."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def report(label: str, n: int, tally: Tally, seconds: float) -> str:
    """One row of the table."""
    low, high = wilson(tally.wins, tally.games)
    rate = tally.wins / tally.games if tally.games else 0.0
    worst = max(tally.times, default=0.0)
    row = (f"| {label:28} | {n} | {tally.games:5} | {rate:6.1%} [{low:5.1%}, {high:5.1%}] | {1 / n:4.0%} "
           f"| {percentile(tally.times, 0.5) * 1000:6.1f} | {percentile(tally.times, 0.95) * 1000:6.1f} "
           f"| {worst * 1000:6.0f} |")
    if tally.hand_results:
        mean = sum(tally.hand_results) / len(tally.hand_results)
        lo, hi = bootstrap(tally.hand_results)
        row += f" {mean:+5.2f} [{lo:+5.2f}, {hi:+5.2f}] ({len(tally.hand_results)} hands) |"
    return row + f" {seconds:5.0f} s"


def auction_report(label: str, tally: Tally) -> str:
    """The Woburn auctions of a line-up: how high the final bid went and how often its bidder made it."""
    if not tally.auctions:
        return ""
    n = len(tally.auctions)
    made = sum(1 for _b, m, _s in tally.auctions if m)
    high = sum(1 for b, _m, _s in tally.auctions if b >= 12)
    counts: dict[int, int] = {}
    for b, _m, _s in tally.auctions:
        counts[b] = counts.get(b, 0) + 1
    spread = ", ".join(f"{b}: {counts[b]}" for b in sorted(counts))
    low, hi = wilson(made, n)
    return (f"  {label} Woburn auctions: {n}; final bids {{{spread}}}; 12 or more: {high}; "
            f"bidder made it: {made} ({made / n:.0%} [{low:.0%}, {hi:.0%}])")


def run(name: str, lineup: str, n: int, options: dict[str, Any], deals: int, seed: str, jobs: int,
        playouts: int | None, uncapped: bool = False) -> tuple[Tally, float]:
    """Every deal of a line-up, the tested level in each seat in turn."""
    subject, opponent = LINEUPS[lineup]
    work: list[Job] = [(name, subject, opponent, f"{seed}:{name}:{n}:{d}", rot, n, options, playouts, uncapped)
                       for d in range(deals) for rot in range(n)]
    total = Tally()
    started = time.perf_counter()
    if jobs > 1:
        with Pool(jobs) as pool:
            for tally in pool.imap_unordered(play_game, work):
                total.add(tally)
    else:
        for job in work:
            total.add(play_game(job))
    return total, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    """Run the tournaments and print a table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", nargs="*", choices=GAMES, default=list(GAMES))
    parser.add_argument("--deals", type=int, default=10, help="deals per line-up (each played once per seat)")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4], help="Kings in the Corner table sizes")
    parser.add_argument("--lineups", nargs="*", choices=sorted(LINEUPS), default=list(DEFAULT_LINEUPS))
    parser.add_argument("--variant", default="classic", help="Sergeant Major variant")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option (repeatable), e.g. scoring=corners")
    parser.add_argument("--playouts", type=int, default=None, help="override the search levels' playout budget")
    parser.add_argument("--uncapped", action="store_true",
                        help="no time cap per decision: the whole playout budget, times in CPU seconds")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (timings are fairest with 1)")
    parser.add_argument("--seed", default="bench", help="prefix of the deal seeds")
    args = parser.parse_args(argv)
    extra: dict[str, Any] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        extra[key] = int(value) if value.isdigit() else {"true": True, "false": False}.get(value, value)
    capped = "no time cap" if args.uncapped else "time caps on"
    print(f"{args.deals} deals per line-up, each played once per seat; {args.jobs} job(s); {capped}; "
          "decision times in CPU ms")
    print("| game, line-up (tested vs others) | n | games | won [95% Wilson] | par | p50 ms | p95 ms | max ms |"
          " tricks over target per hand [95% bootstrap] | time")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.game:
        sizes = args.players if name == "kings_corner" else [3]
        options: dict[str, Any] = {"first_dealer": "seat:0", **extra} if name != "sergeant_major" else {
            "variant": args.variant, "first_dealer": "seat:0", **extra}
        if name == "coins":
            options = {"first_dealer": "seat:0"}
        for n in sizes:
            for lineup in args.lineups:
                tally, seconds = run(name, lineup, n, options, args.deals, args.seed, args.jobs, args.playouts,
                                     args.uncapped)
                label = f"{name if name != 'sergeant_major' else args.variant} {lineup}"
                print(report(label, n, tally, seconds), flush=True)
                if tally.auctions:
                    print(auction_report(label, tally), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
