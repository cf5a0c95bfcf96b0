"""Woburn auctions between strong players: how high the winning bid goes and whether its bidder makes it.

Each deal (a seed) is played as hand 1 of a classic game with ``woburn_first_bid`` on, three strong
players, once with each seat as the nominal first dealer (so the same cards are bid in every order: duplicate
deals with seats rotated). Only hand 1 is played: the auction, then the hand. Printed per winning bid: how
many auctions ended there, the share its bidder made (tricks ≥ bid, or twelve tricks taken, which ends the
game at once) with a 95 % Wilson interval, the bidder's mean result (tricks − bid; a hand the bidder ended at
twelve tricks counts its tricks so far) and the other two seats' mean result; and the same over all auctions.

    python -m bench.woburn --deals 20 --jobs 2
    python -m bench.woburn --deals 20 --jobs 2 --playouts 200   # a lighter search for a quicker look
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass
from multiprocessing import Pool

from bench.ai import make_player, wilson
from engine.ai.sergeant_major import StrongSergeantMajor
from engine.ai.sergeant_major.bid import dealer_tricks
from engine.ai.sergeant_major.seen import read_view
from engine.games.sergeant_major import GAME as SM

MOVE_CAP = 400


@dataclass(frozen=True)
class Auction:
    """One hand-1 auction and how the hand went."""

    bid: int
    made: bool
    bidder_result: int
    others_result: float  # the mean of the other two seats' results
    won_game: bool  # the bidder took twelve tricks and so won the game in hand 1


def play_hand_one(job: tuple[str, int, int | None, bool]) -> Auction | None:
    """Hand 1 of one deal with ``first`` the nominal dealer; None when every seat passed (a redeal)."""
    seed, first, playouts, uncapped = job
    options = {"variant": "classic", "woburn_first_bid": True, "first_dealer": f"seat:{first}"}
    players = [make_player("sergeant_major", "strong", playouts, uncapped) for _ in range(3)]
    state = SM.new_game(options, 3, seed)
    bid: tuple[int, int] | None = None
    for move in range(MOVE_CAP):
        if SM.outcome(state) is not None or state.match.hand_no > 1:
            break
        if state.match.deal_no > 1 and bid is None:
            return None  # all passed: the redeal is another deal, not this one
        (seat,) = SM.to_act(state)
        view, legal = SM.view(state, seat), SM.legal_actions(state, seat)
        action = players[seat].choose(view, legal, f"{seed}:{first}:{move}")
        if action.get("type") == "bid":
            bid = (int(action["tricks"]), seat)
        state, _ = SM.apply(state, seat, action)
    if bid is None:
        return None
    tricks_bid, bidder = bid
    if state.match.history:
        results = state.match.history[0]
        won = False
    else:  # the game ended in hand 1: someone took twelve tricks
        results = tuple(t - g for t, g in zip(state.tricks, state.deal.targets, strict=True))
        won = SM.outcome(state) is not None and state.tricks[bidder] >= 12
    others = [results[s] for s in range(3) if s != bidder]
    made = results[bidder] >= 0 or won
    return Auction(tricks_bid, made, results[bidder], sum(others) / 2, won)


def calibrate_one(job: tuple[str, int, int | None, bool]) -> tuple[float, float]:
    """The nominal dealer's raw playout mean of its tricks as dealer, and the tricks (up to twelve) it then took
    dealing at 8 (the others pass) against two strong players."""
    seed, first, playouts, uncapped = job
    options = {"variant": "classic", "woburn_first_bid": True, "first_dealer": f"seat:{first}"}
    players = [make_player("sergeant_major", "strong", playouts, uncapped) for _ in range(3)]
    state = SM.new_game(options, 3, seed)
    player = players[first]
    assert isinstance(player, StrongSergeantMajor)
    view = SM.view(state, first)
    rnd = random.Random(f"{seed}:{first}").random
    raw, _ = dealer_tricks(read_view(view), view, player._search, player._world, rnd, player.clock(), player.greedy)
    for move in range(MOVE_CAP):
        if SM.outcome(state) is not None or state.match.hand_no > 1:
            break
        (seat,) = SM.to_act(state)
        view, legal = SM.view(state, seat), SM.legal_actions(state, seat)
        if state.phase == "bid":
            action: dict[str, object] = {"type": "bid", "tricks": 8} if seat == first else {"type": "pass"}
        else:
            action = dict(players[seat].choose(view, legal, f"{seed}:{first}:{move}"))
        state, _ = SM.apply(state, seat, action)
    took = state.match.trick_history[0][first] if state.match.trick_history else state.tricks[first]
    return raw, float(min(12, took))


def fit(pairs: list[tuple[float, float]]) -> str:
    """The least-squares line actual ≈ base + slope × raw, with its residual spread."""
    n = len(pairs)
    mx = sum(x for x, _ in pairs) / n
    my = sum(y for _, y in pairs) / n
    sxx = sum((x - mx) ** 2 for x, _ in pairs)
    slope = sum((x - mx) * (y - my) for x, y in pairs) / sxx if sxx else 0.0
    base = my - slope * mx
    spread = math.sqrt(sum((y - base - slope * x) ** 2 for x, y in pairs) / max(1, n - 2))
    return (f"{n} hands: raw mean {mx:.2f}, actual mean {my:.2f}; actual ≈ {base:.2f} + {slope:.3f} × raw "
            f"(residual sd {spread:.2f} tricks)")


def table(auctions: list[Auction]) -> list[str]:
    """The printed rows: per winning bid, then all."""
    rows = ["| winning bid | auctions | bidder made it [95% Wilson] | bidder's mean result | others' mean result |"
            " bidder won the game in hand 1 |", "|---|---|---|---|---|---|"]
    groups = sorted({a.bid for a in auctions})
    for label, group in [*((str(b), [a for a in auctions if a.bid == b]) for b in groups), ("all", auctions)]:
        n = len(group)
        made = sum(1 for a in group if a.made)
        low, high = wilson(made, n)
        mine, others = sum(a.bidder_result for a in group) / n, sum(a.others_result for a in group) / n
        rows.append(f"| {label} | {n} | {made} ({made / n:.0%} [{low:.0%}, {high:.0%}]) | {mine:+.2f} | {others:+.2f} "
                    f"| {sum(1 for a in group if a.won_game)} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20, help="deals, each bid from every seat in turn")
    parser.add_argument("--playouts", type=int, default=None, help="override strong's playout budget")
    parser.add_argument("--uncapped", action="store_true", help="no time cap per decision")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", default="woburn")
    parser.add_argument("--calibrate", action="store_true",
                        help="fit the raw dealer-trick mean to what strong dealers take (bid.CAL_BASE, CAL_SLOPE)")
    args = parser.parse_args(argv)
    if args.calibrate:
        jobs = [(f"{args.seed}:cal:{d}", first, args.playouts, args.uncapped) for d in range(args.deals)
                for first in range(3)]
        with Pool(args.jobs) as pool:
            print(fit(pool.map(calibrate_one, jobs, chunksize=1)))
        return 0
    work = [(f"{args.seed}:{d}", first, args.playouts, args.uncapped) for d in range(args.deals) for first in range(3)]
    started = time.perf_counter()
    with Pool(args.jobs) as pool:
        found = pool.map(play_hand_one, work, chunksize=1)
    auctions = [a for a in found if a is not None]
    print(f"{args.deals} deals x 3 first seats = {len(work)} hands; {len(work) - len(auctions)} passed out; "
          f"{len(auctions)} auctions; {time.perf_counter() - started:.0f} s")
    for row in table(auctions):
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
