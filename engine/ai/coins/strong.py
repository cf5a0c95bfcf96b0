"""The strong Coins player: Monte Carlo search over deals consistent with the seat's view.

Each playout samples the unseen cards into the other hands (``seen.sample_hands``),
picks one of the seat's cards by UCB1, and plays the hand out on plain lists of card
ints with the precomputed trick table (``fast.WINNERS``): the last card of a trick is
its player's best, the others mostly what the easy player would play and sometimes
random (``GREEDY``). A playout runs until someone reaches the
target (a win is 1, a loss 0) or the hand ends (the race odds from the scores). The
playout count is the budget; the clock is only a safety cap. Randomness comes from
``deal_rng(seed, ...)``, so a seed and a playout budget give one answer.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.ai.coins.fast import COIN, RANK, STRIDE0, STRIDE1, WINNERS, race_odds
from engine.ai.coins.seen import Seen, card_choice, read_view, sample_hands
from engine.core.cards import SPANISH
from engine.core.rng import deal_rng
from engine.core.rules import Action
from engine.games.coins.state import COINS, WIDTH, N

DEFAULT_PLAYOUTS = 1200
DEFAULT_SECONDS = 0.2
EXPLORE = 0.7
GREEDY = 0.8  # measured: 0.0 won 56% against two easy players, 0.5 won 67%, 0.9 won 69%
_CLOCK_EVERY = 32
_COINS_END = (COINS + 1) * WIDTH


def _end_value(scores: list[int], target: int, me: int) -> float:
    a, b = (me + 1) % N, (me + 2) % N
    return race_odds(target - scores[me], target - scores[a], target - scores[b])


def _last_card(hand: list[int], c0: int, c1: int) -> int:
    """The index in ``hand`` of the best last card: most points won, fewest given, lowest rank."""
    base = c0 * STRIDE0 + c1 * STRIDE1
    at_stake = COIN[c0] + COIN[c1]
    best_i = 0
    best = -1000
    for i, card in enumerate(hand):
        points = at_stake + COIN[card]
        key = (points if WINNERS[base + card] == 2 else -points) * 16 - RANK[card]
        if key > best:
            best, best_i = key, i
    return best_i


def _first_card(hand: list[int]) -> int:
    """The index in ``hand`` of its lowest plain card (its lowest Coins card if it has no other)."""
    best_i = 0
    best = 1000
    for i, card in enumerate(hand):
        key = COIN[card] * 16 + RANK[card]
        if key < best:
            best, best_i = key, i
    return best_i


def _second_card(hand: list[int], led: int) -> int:
    """Over a led Coins card, the lowest higher card of its suit; else the lowest plain card."""
    if COIN[led]:
        best_i = -1
        for i, card in enumerate(hand):
            if led < card < _COINS_END and (best_i < 0 or card < hand[best_i]):
                best_i = i
        if best_i >= 0:
            return best_i
    return _first_card(hand)


def playout(
    hands: list[list[int]], trick: list[int], leader: int, scores: list[int], target: int, me: int,
    rnd: Callable[[], float], greedy: float = 0.0,
) -> float:
    """Play the hand out from this position (mutating its arguments); ``me``'s value in [0, 1].

    The last card of each trick is the best one for its player; the others are random, or
    with chance ``greedy`` the easy player's choice.
    """
    n = len(trick)
    while True:
        while n < N:
            hand = hands[(leader + n) % N]
            if n == 2:
                i = _last_card(hand, trick[0], trick[1])
            elif rnd() < greedy:
                i = _second_card(hand, trick[0]) if n else _first_card(hand)
            else:
                i = int(rnd() * len(hand))
            trick.append(hand[i])
            hand[i] = hand[-1]
            hand.pop()
            n += 1
        c0, c1, c2 = trick
        w = (leader + WINNERS[c0 * STRIDE0 + c1 * STRIDE1 + c2]) % N
        points = COIN[c0] + COIN[c1] + COIN[c2]
        if points:
            # coins/RULES.md §3.2 TRICK_DONE, §4: the game ends the moment the target is reached.
            total = scores[w] + points
            scores[w] = total
            if total >= target:
                return 1.0 if w == me else 0.0
        if not hands[w]:
            return _end_value(scores, target, me)
        leader = w
        trick = []
        n = 0


class StrongCoins:
    """Determinized Monte Carlo with UCB1 over the seat's own cards."""

    def __init__(
        self, playouts: int = DEFAULT_PLAYOUTS, seconds: float | None = DEFAULT_SECONDS,
        clock: Callable[[], float] = time.perf_counter, greedy: float = GREEDY,
    ) -> None:
        self.playouts = playouts
        self.greedy = greedy
        self.seconds = seconds
        self.clock = clock
        self.playouts_done = 0
        self.seconds_spent = 0.0

    def is_costly(self, view: dict[str, Any], legal: Sequence[Action]) -> bool:
        """A choice between two cards or more is searched."""
        return sum(1 for a in legal if a.get("card") is not None) > 1

    def choose(self, view: dict[str, Any], legal: Sequence[Action], seed: str) -> Action:
        """The card with the most playouts after the search."""
        seen = read_view(view)
        texts = {a.get("card") for a in legal}
        moves = [c for c in seen.hand if SPANISH.text(c) in texts]
        if len(moves) < 2:
            return card_choice(legal, moves[0]) if moves else legal[0]
        return card_choice(legal, self.search(seen, moves, seed))

    def search(self, seen: Seen, moves: list[int], seed: str) -> int:
        """The best of ``moves`` for ``seen`` within the budget."""
        start = self.clock()
        deadline = None if self.seconds is None else start + self.seconds
        rnd = random.Random(deal_rng(seed, "ai:coins:strong").below(1 << 62)).random
        k = len(moves)
        visits = [0] * k
        totals = [0.0] * k
        me = seen.seat
        done = 0
        for done in range(1, self.playouts + 1):
            if done <= k:
                i = done - 1
            else:
                log_n = EXPLORE * math.sqrt(math.log(done))
                i = max(range(k), key=lambda j: totals[j] / visits[j] + log_n / math.sqrt(visits[j]))
            hands = sample_hands(seen, rnd)
            card = moves[i]
            hands[me].remove(card)
            trick = [*seen.trick, card]
            value = playout(hands, trick, seen.leader, list(seen.scores), seen.target, me, rnd, self.greedy)
            visits[i] += 1
            totals[i] += value
            if deadline is not None and done % _CLOCK_EVERY == 0 and self.clock() >= deadline:
                break
        self.playouts_done += done
        self.seconds_spent += self.clock() - start
        return moves[max(range(k), key=lambda j: (visits[j], totals[j]))]
