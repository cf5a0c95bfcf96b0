"""The expert Sergeant Major player: the strong player's search, and an exact ending.

Once the seat holds ``ENDGAME`` cards or fewer, each card it may play is judged by sampling deals
that agree with everything the seat has seen (``seen.Sampler``: voids shown by failing to follow,
the cards played, the exchange and the reveal) and solving each deal exactly (``solve``): the
card with the best total result over the deals is played. Earlier card plays and every other
decision (trump, call, discard, give, bid, swap) are the strong player's playout search. The
number of deals is the budget; the clock check between deals returns the best so far,
and a deal still being solved at the deadline is dropped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from engine.ai.sergeant_major.seen import Sampler, Seen
from engine.ai.sergeant_major.sim import end_need
from engine.ai.sergeant_major.solve import OutOfTime, solve
from engine.ai.sergeant_major.strong import DEFAULT_PLAYOUTS, StrongSergeantMajor
from engine.core.cards import FRENCH
from engine.core.rules import Action

ENDGAME = 6  # cards in hand: measured about 14 ms a deal at 6, 60 ms at 7, 160 ms at 8
SAMPLES = 24
SECONDS = 0.5


class ExpertSergeantMajor(StrongSergeantMajor):
    """Strong's search, with the last ``ENDGAME`` tricks solved exactly over sampled deals."""

    def __init__(
        self, playouts: int = DEFAULT_PLAYOUTS, seconds: float | None = SECONDS,
        clock: Callable[[], float] = time.perf_counter, samples: int = SAMPLES, endgame: int = ENDGAME,
    ) -> None:
        super().__init__(playouts=playouts, seconds=seconds, clock=clock)
        self.samples = samples
        self.endgame = endgame

    def _play(self, seen: Seen, legal: Sequence[Action], rnd: Callable[[], float], start: float) -> Action | None:
        cards = [FRENCH.parse(a["card"]) for a in legal if a.get("type") == "play"]
        if len(cards) < 2 or seen.hand.bit_count() > self.endgame:
            return super()._play(seen, legal, rnd, start)
        sampler = Sampler(seen)
        need = end_need(seen.options, seen.variant, seen.targets)
        misere = seen.call == "misere"
        trick = tuple(seen.trick)
        deadline = self._deadline(start)
        totals = [0.0] * len(cards)
        solved = 0
        for _ in range(max(1, self.samples)):
            hands = sampler.sample(rnd).hands
            try:
                values = solve(hands, trick, seen.trump, misere, seen.tricks, seen.targets, need, seen.seat, cards,
                               deadline, self.clock)
            except OutOfTime:
                break
            totals = [t + v for t, v in zip(totals, values, strict=True)]
            solved += 1
            self.playouts_done += 1
            if deadline is not None and self.clock() >= deadline:
                break
        if not solved:  # out of time inside the first deal: strong's search stops after its first deal
            return super()._play(seen, legal, rnd, start)
        best = max(range(len(cards)), key=lambda i: (totals[i], -i))
        return {"type": "play", "card": FRENCH.text(cards[best])}


def expert() -> ExpertSergeantMajor:
    """The expert player with its default budget."""
    return ExpertSergeantMajor()


__all__ = ["ENDGAME", "ExpertSergeantMajor", "expert"]
