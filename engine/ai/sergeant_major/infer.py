"""What a Sergeant Major seat may infer from how the others played, beyond the voids: soft knowledge.

A player last to a trick who wants tricks (a trump or no-trump contract, sergeant_major/RULES.md §3.2 step 8)
wins it when it cheaply can. So when the last player followed suit and still lost to a plain card of the suit
led, it probably held no higher card of that suit; and when it threw a plain card of another suit while a
plain card was winning, it probably held no trump. Both are likely, not certain (a player may keep a high card
back), so a deal that breaks them is kept less often, not never: ``weighted_draw`` draws deals again with
acceptance odds ``ODDS`` per card that goes against them. In a misère (§5.3) nobody wants tricks, and nothing
is inferred.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.ai.sergeant_major.seen import SUIT_MASK, WIDTH, N, Sample, Sampler, Seen
from engine.core.cards import FRENCH, Mask
from engine.core.tricks import winner_index

ODDS = 0.3  # measured: 73 % of the cards so inferred were truly not there, against about half by chance
TRIES = 12


def likely_lacks(view: Mapping[str, Any], seen: Seen) -> list[Mask]:
    """Per seat: unseen cards that the finished tricks of this hand say it probably does not hold."""
    lacks = [0] * N
    if seen.call == "misere":
        return lacks
    trump = seen.trump
    for done in view.get("played") or ():
        trick = [(int(t["seat"]), FRENCH.parse(t["card"])) for t in done]
        if len(trick) != N:
            continue
        cards = [c for _, c in trick]
        win = cards[winner_index(cards, trump, WIDTH)]
        last_seat, last = trick[-1]
        led = cards[0] // WIDTH
        if win // WIDTH == trump or last == win:
            continue  # a trump won (overruffing is not cheap), or the last player won it
        if last // WIDTH == led:
            lacks[last_seat] |= SUIT_MASK[led] & ~((1 << (win + 1)) - 1)  # it could not beat the winner
        elif trump is not None and last // WIDTH != trump:
            lacks[last_seat] |= SUIT_MASK[trump]  # it did not ruff
    return [m & seen.unseen for m in lacks]


def weighted_draw(sampler: Sampler, lacks: list[Mask]) -> Callable[[Callable[[], float]], Sample]:
    """Deals from ``sampler``, kept with odds ``ODDS`` per card placed against ``lacks`` (the best of ``TRIES``)."""
    if not any(lacks):
        return sampler.sample
    seat = sampler.seen.seat

    def draw(rnd: Callable[[], float]) -> Sample:
        best: Sample | None = None
        best_k = 99
        for _ in range(TRIES):
            sample = sampler.sample(rnd)
            k = sum((sample.hands[s] & lacks[s]).bit_count() for s in range(N) if s != seat)
            if k == 0 or rnd() < ODDS**k:
                return sample
            if k < best_k:
                best, best_k = sample, k
        assert best is not None
        return best

    return draw
