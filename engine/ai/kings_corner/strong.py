"""The strong Kings in the Corner player: whole turns planned, then judged by playing the game on.

It lists the ways its turn could end (every board and hand its moves reach where it may stop,
through the same move generator as the easy player, so holding cards back to block the next
player is one of them), keeps a few: the best by the easy score for each number of cards
played (so stopping early is always among them), then the next best; and plays each on
over deals of the unknown cards (the other hands and the stock, sampled to agree with what
the seat has seen, ``seen``): the end-of-turn draw, then every seat greedily
(``sim``) until the hand ends. The plan with the best mean result is followed one move at a
time. The number of deals is fixed by the playout budget (a seed gives one answer); the clock
is only a safety cap.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.ai.kings_corner.easy import Move, Piles, Rules, can_end, make, moves, parse_move, read_board, score
from engine.ai.kings_corner.seen import read_seen, sample
from engine.ai.kings_corner.sim import Pile, Settings, Table, end_turn, play_out, value
from engine.core.cards import Mask
from engine.core.rng import deal_rng
from engine.core.rules import Action

DEFAULT_PLAYOUTS = 256
DEFAULT_SECONDS = 0.22
PLANS = 8  # end-of-turn positions judged by playouts
NODES = 800  # positions the turn enumeration may visit
NOISE = 0.1  # chance of a random build in the playouts' greedy turns
ROUNDS = 6  # rounds of turns a playout looks ahead before judging by the cards left
_CLOCK_EVERY = 1


class Plan:
    """One way to end the turn: the board and hand it leaves, and its first move (None: stop now)."""

    __slots__ = ("easy", "first", "hand", "piles", "played", "taken")

    def __init__(self, piles: Piles, hand: Mask, taken: int, played: int, first: Move | None, easy: float) -> None:
        self.piles = piles
        self.hand = hand
        self.taken = taken
        self.played = played
        self.first = first
        self.easy = easy


def plans(piles: Piles, hand: Mask, rules: Rules, budget: int = NODES) -> list[Plan]:
    """Every distinct place the turn may stop, best easy score first (at most ``budget`` positions visited)."""
    found: dict[tuple[Any, ...], Plan] = {}
    left = [budget]

    def visit(p: Piles, h: Mask, taken: int, played: int, first: Move | None) -> None:
        key = (p, h)
        if key in found or left[0] <= 0:
            return
        left[0] -= 1
        if can_end(h, rules) or not h:
            found[key] = Plan(p, h, taken, played, first, score(p, h, taken))
        else:
            found[key] = Plan(p, h, taken, played, first, float("-inf"))
        if not h:
            return
        for move in moves(p, h, rules):
            after, rest, more = make(p, h, move, rules)
            visit(after, rest, taken + more, played + (move[0] in ("build", "place_king", "fill_side")),
                  first if first is not None else move)

    visit(piles, hand, 0, 0, None)
    out = [plan for plan in found.values() if plan.easy > float("-inf")]
    out.sort(key=lambda plan: -plan.easy)
    return out


def judged(found: list[Plan]) -> list[Plan]:
    """The plans in the order they are judged: the best (by the easy score) of each number of cards
    played, then the rest by the easy score. The easy score ranks every plan that plays one card fewer
    below all that play the most, so without this the few judged would rarely include holding cards
    back, which the playouts often find best (fewer places left for the next player's cards)."""
    levels: dict[int, Plan] = {}
    for plan in found:
        levels.setdefault(plan.played, plan)
    first = sorted(levels.values(), key=lambda plan: -plan.easy)
    chosen = {id(plan) for plan in first}
    return first + [plan for plan in found if id(plan) not in chosen]


def _table_piles(piles: Piles) -> list[Pile]:
    return [(p[0], p[-1], len(p)) if p else None for p in piles]


class StrongKingsCorner:
    """Plans whole turns and judges them with playouts over the unknown cards."""

    def __init__(
        self, playouts: int = DEFAULT_PLAYOUTS, seconds: float | None = DEFAULT_SECONDS,
        clock: Callable[[], float] = time.perf_counter, plans: int = PLANS,
    ) -> None:
        self.playouts = playouts
        self.seconds = seconds
        self.clock = clock
        self.plans = plans
        self.playouts_done = 0
        self.seconds_spent = 0.0

    def is_costly(self, view: dict[str, Any], legal: Sequence[Action]) -> bool:
        """Every turn with a choice is planned and its plans played out."""
        return len(legal) > 1

    def choose(self, view: dict[str, Any], legal: Sequence[Action], seed: str) -> Action:
        """The first move of the best plan for this turn."""
        start = self.clock()
        try:
            return self._choose(view, legal, seed, start)
        finally:
            self.seconds_spent += self.clock() - start

    def _choose(self, view: dict[str, Any], legal: Sequence[Action], seed: str, start: float) -> Action:
        piles, hand = read_board(view)
        options = view.get("options") or {}
        rules = Rules(options)
        me = int(view["seat"])
        n = int(view.get("players", len(view["hand_counts"])))
        settings = Settings(options, n)
        must_play = view.get("must_play") is not None
        played_now = int(view.get("played_this_turn", 0))
        candidates: list[tuple[Action, Plan]] = []
        if must_play:
            # draw_until_playable: only where the drawn card goes; the turn ends with one more draw.
            for action in legal:
                move = parse_move(action)
                if move is None:
                    continue
                after, rest, taken = make(piles, hand, move, rules)
                candidates.append((action, Plan(after, rest, taken, 1, move, score(after, rest, taken))))
        else:
            by_move = {parse_move(a): a for a in legal}
            for plan in judged(plans(piles, hand, rules)):
                step: Action | None = {"type": "end_turn"} if plan.first is None else by_move.get(plan.first)
                if step is not None and step in legal:
                    candidates.append((step, plan))
                if len(candidates) >= self.plans:
                    break
        if not candidates:
            return legal[0]
        if len(candidates) == 1 or len({str(a) for a, _ in candidates}) == 1:
            return candidates[0][0]
        rnd = random.Random(deal_rng(seed, "ai:kings:strong").below(1 << 62)).random
        seen = read_seen(view, piles, hand, rules)
        collected = [int(c) for c in view.get("collected") or [0] * n]
        idle = int(view.get("idle_streak", 0))
        deals = max(1, self.playouts // len(candidates))
        deadline = None if self.seconds is None else start + self.seconds
        totals = [0.0] * len(candidates)
        done = 0
        for done in range(1, deals + 1):
            hands, stock = sample(seen, rnd)
            stream = int(rnd() * (1 << 40))
            for i, (_action, plan) in enumerate(candidates):
                r = random.Random(stream).random
                h = list(hands)
                h[me] = plan.hand
                t = Table(_table_piles(plan.piles), h, list(stock), list(collected), idle)
                t.collected[me] += plan.taken
                if not plan.hand:
                    t.out = me
                elif must_play:
                    if t.stock:  # §3.3: one more card after the drawn card is played
                        t.hands[me] |= 1 << t.stock.pop(0)
                    t.idle = 0
                    play_out(t, (me + 1) % n, settings, r, NOISE, False, ROUNDS * n)
                elif not end_turn(t, me, played_now + plan.played, settings, r, NOISE) and t.out < 0:
                    play_out(t, (me + 1) % n, settings, r, NOISE, False, ROUNDS * n)
                totals[i] += value(t, me, settings)
            self.playouts_done += len(candidates)
            if deadline is not None and done % _CLOCK_EVERY == 0 and self.clock() >= deadline:
                break
        best = max(range(len(candidates)), key=lambda i: (totals[i], candidates[i][1].easy))
        return candidates[best][0]


__all__ = ["Plan", "StrongKingsCorner", "judged", "plans"]
