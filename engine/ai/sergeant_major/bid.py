"""The strong player's Woburn bid (sergeant_major/RULES.md §5.2.1): bid only what it expects to make.

A bid promises tricks as dealer; the winner's targets come from the balancing table. On deals that agree
with the seat's view, the seat's own playouts give the tricks it takes as dealer (``dealer_tricks``: the
trump and the kitty chosen by the easy heuristics, the hand played out by the playout policy), counted up to
twelve (twelve tricks win the game at once, and a made bid needs no more). That raw mean is turned into the
tricks strong players actually take by a line fitted over played hands (``CAL_BASE``, ``CAL_SLOPE``,
``bench/woburn.py --calibrate``): the playouts flatter a strong hand and undersell a weak one (a slope
under one), since their quick policy plays neither side's cards as well as strong does.

A high bid so far says its bidder's hand is strong: the deals are drawn again (up to ``TRIES`` times) until
that seat's hand is one the easy estimate would bid near that high (``SLACK`` below it), so neither the
dealing nor the passing is judged against a holder with an average hand (the winner's curse of an auction).

The lowest allowed bid is made only when it is expected to be made (expected tricks − bid ≥ 0) and its
expected result is at least that of passing: with a high bidder so far, its dealing at its bid with this seat
at the table's target for its place (the same deals, the same random stream); with no bid yet, a redeal (0).
Weighing against passing alone let a seat whose pass looked bad outbid into a loss (bids of 9 made 42 % of
the time, the bidder 0.9 tricks down on average while each other seat gained). The game-winning bonus of the
card play's search (``sim.WIN``) is left out: the bid level never changes whether twelve tricks end the game,
only the targets, and counting the win drove strong hands to outbid each other up to 13 to be dealer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.ai.sergeant_major.hand import SUIT_BONUS, best_trump, trump_estimate
from engine.ai.sergeant_major.seen import N, Sampler, Seen
from engine.ai.sergeant_major.sim import WIN, World, finish
from engine.core.cards import Mask, cards_in
from engine.core.rules import Action
from engine.games.sergeant_major.options import GAME_END_TRICKS, RULES, WOBURN_TARGETS

# Actual tricks (up to twelve) of a strong dealer against two strong players ≈ CAL_BASE + CAL_SLOPE × the raw
# playout mean; fitted by ``python -m bench.woburn --calibrate``.
CAL_BASE, CAL_SLOPE = 2.81, 0.718  # 90 hands: raw mean 8.76, actual 9.10, residual sd 1.53 tricks
CAP = GAME_END_TRICKS["twelve_tricks"]
TRIES, SLACK = 30, 1.0

Search = Callable[..., list[float]]
Draw = Callable[[Seen, Callable[[], float], Sampler], World]


def table_targets(dealer: int, bid: int) -> tuple[int, ...]:
    """Every seat's target when ``dealer`` deals at ``bid`` (the balancing table, §5.2.1)."""
    e_target, m_target = WOBURN_TARGETS[bid]
    by_pos = (bid, e_target, m_target)
    return tuple(by_pos[(s - dealer) % N] for s in range(N))


def strength(hand: Mask) -> float:
    """The easy player's estimate of a hand's tricks as dealer (its own bid's measure)."""
    cards = cards_in(hand)
    return trump_estimate(cards, best_trump(cards)) + SUIT_BONUS


def _stages(seen: Seen) -> list[str]:
    return ["trump", *(["kitty"] if RULES[seen.variant].kitty_size else []), "play"]


def dealer_tricks(seen: Seen, view: dict[str, Any], search: Search, draw: Draw, rnd: Callable[[], float],
                  start: float, greedy: float) -> tuple[float, float | None]:
    """The raw playout mean of this seat's tricks as dealer (up to twelve), and its result if it passes now.

    The second is None with no bid yet. Both come from the same deals and random streams.
    """
    me = seen.seat
    bidding = view.get("bidding") or {}
    holder = -1 if bidding.get("by") is None else int(bidding["by"])
    high = int(bidding.get("high") or 0)
    passing = holder >= 0 and holder != me and high in WOBURN_TARGETS
    # No game end short of sixteen tricks: the playout counts every trick the dealer takes.
    options = {**seen.options, "game_end": "all_sixteen"}
    setups = [(me, (0,) * N)]
    if passing:
        setups.append((holder, table_targets(holder, high)))
    sampler = Sampler(seen)
    todo = _stages(seen)

    def score(i: int, world: World, stream: Callable[[], float]) -> float:
        w = world.copy()
        w.dealer, w.targets = setups[i]
        w.options = options
        w.transfers = []
        result = finish(w, todo, me, stream, greedy)
        if i == 0:
            return float(min(CAP, 16 if result >= WIN else result))
        return result if abs(result) < WIN else (16 - w.targets[me] if result > 0 else -w.targets[me])

    def conditioned(r: Callable[[], float]) -> World:
        world = draw(seen, r, sampler)
        for _ in range(TRIES if passing else 0):
            if strength(world.hands[holder]) >= high - SLACK:
                break
            world = draw(seen, r, sampler)
        return world

    means = search(seen, len(setups), score, conditioned, rnd, start)
    return means[0], (means[1] if passing else None)


def expected_tricks(raw: float) -> float:
    """Tricks a strong dealer takes against strong players, from the raw playout mean (the fitted line)."""
    return CAL_BASE + CAL_SLOPE * raw


def woburn_bid(seen: Seen, view: dict[str, Any], legal: Sequence[Action], search: Search, draw: Draw,
               rnd: Callable[[], float], start: float, greedy: float) -> Action:
    """The lowest allowed bid when it is expected to be made and to do at least as well as passing, else a pass."""
    bids = [int(a["tricks"]) for a in legal if a.get("type") == "bid"]
    if not bids:
        return {"type": "pass"}
    low = min(bids)
    raw, passing = dealer_tricks(seen, view, search, draw, rnd, start, greedy)
    bidding = expected_tricks(raw) - low
    return {"type": "bid", "tricks": low} if bidding >= max(0.0, passing or 0.0) else {"type": "pass"}
