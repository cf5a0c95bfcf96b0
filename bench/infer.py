"""How well Sergeant Major deal samples place the other hands' cards, with and without inference from the play.

Plays hand 1 of classic deals with three strong players; at every card to play after the first trick it draws
``--samples`` deals for the seat on turn from the constraint-only sampler (voids and exchanges: today's
strong) and from the same sampler weighted by what the others' plays suggest (``infer.weighted_draw``), and
prints, over every card in the other two hands, the mean share of deals that put it in the hand that truly
holds it (higher is better; the trick play of strong searches over these deals), and how often a card the
play says a seat probably lacks is truly not there.

    python -m bench.infer --deals 20 --jobs 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import Pool

from bench.ai import make_player
from engine.ai.sergeant_major.infer import likely_lacks, weighted_draw
from engine.ai.sergeant_major.seen import N, Sampler, read_view
from engine.core.cards import cards_in
from engine.games.sergeant_major import GAME as SM

Figures = tuple[float, float, int, int, int]  # placed right (plain, weighted), cards, inferred, inferred true


def one_hand(job: tuple[str, int, int]) -> Figures:
    """One hand: the sums of the placing shares over every card checked."""
    seed, samples, playouts = job
    players = [make_player("sergeant_major", "strong", playouts, True) for _ in range(N)]
    state = SM.new_game({"variant": "classic", "first_dealer": "seat:0"}, N, seed)
    plain = weighted = 0.0
    cards = inferred = right = 0
    for move in range(200):
        if SM.outcome(state) is not None or state.match.hand_no > 1:
            break
        (seat,) = SM.to_act(state)
        view, legal = SM.view(state, seat), SM.legal_actions(state, seat)
        if view.get("phase") == "play" and view.get("played"):
            seen = read_view(view)
            sampler = Sampler(seen)
            lacks = likely_lacks(view, seen)
            draw = weighted_draw(sampler, lacks)
            for s in range(N):
                if s != seat:
                    inferred += lacks[s].bit_count()
                    right += (lacks[s] & ~state.hands[s]).bit_count()
            for label, drawn in (("plain", sampler.sample), ("weighted", draw)):
                rnd = random.Random(f"{seed}:{move}").random
                deals = [drawn(rnd).hands for _ in range(samples)]
                share = 0.0
                for s in range(N):
                    if s == seat:
                        continue
                    for card in cards_in(state.hands[s]):
                        share += sum(1 for h in deals if h[s] >> card & 1) / samples
                        if label == "plain":
                            cards += 1
                if label == "plain":
                    plain += share
                else:
                    weighted += share
        action = players[seat].choose(view, legal, f"{seed}:{move}")
        state, _ = SM.apply(state, seat, action)
    return plain, weighted, cards, inferred, right


def main(argv: list[str] | None = None) -> int:
    """Play the hands and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with Pool(args.jobs) as pool:
        found = pool.map(one_hand, [(f"infer:{d}", args.samples, args.playouts) for d in range(args.deals)])
    plain, weighted, cards, inferred, right = (sum(f[i] for f in found) for i in range(5))
    print(f"{args.deals} hands of strong players, {int(cards)} card placements checked, {args.samples} deals each; "
          f"{time.perf_counter() - started:.0f} s")
    print(f"  share of deals that put a card in the hand that holds it: constraints only {plain / cards:.3f}, "
          f"weighted by the play {weighted / cards:.3f}")
    print(f"  cards the play says a seat probably lacks: {int(inferred)}, truly not there: {int(right)} "
          f"({right / max(1, inferred):.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
