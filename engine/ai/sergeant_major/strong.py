"""The strong Sergeant Major player: every decision by search over deals that agree with its view.

For each decision it lists candidates (each legal card; each trump or call; a handful of
discards and gives built around the easy player's pick; bid or pass; swap or not), draws deals
that agree with everything its seat has seen (``seen.Sampler``), and scores every candidate on
the same deals and the same random stream (common random numbers, so the comparison is fair):
the decisions still ahead are made with the easy heuristics and the tricks are played out
(``sim``). The best mean result wins. The number of deals is fixed by the playout budget, so a
seed gives one answer; the clock is only a safety cap.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.ai.sergeant_major.bid import woburn_bid
from engine.ai.sergeant_major.choices import discard, give, give_gain, misere_discard
from engine.ai.sergeant_major.easy import EasySergeantMajor
from engine.ai.sergeant_major.hand import ACE, KING, best_trump, by_suit
from engine.ai.sergeant_major.seen import SUITS, TWO_DIAMONDS, WIDTH, N, Sampler, Seen, read_view
from engine.ai.sergeant_major.sim import WIN, World, end_need, finish, make_give, rollout, stages
from engine.core.cards import FRENCH, Card, Mask, cards_in
from engine.core.rng import deal_rng
from engine.core.rules import Action
from engine.core.tricks import winner_index
from engine.games.sergeant_major.options import RULES
from engine.games.sergeant_major.state import MISERE_MAX

DEFAULT_PLAYOUTS = 500
DEFAULT_SECONDS = 0.22
GREEDY = 0.9  # chance of the policy card (not a random one) at each play of a playout
# Usual dealer results of each alternate call, measured over 1500 random deals with ``sim.finish``
# (a suit call with one fixed suit as trump): a call is used once per player (§5.3), so it is best
# spent on the hand where it beats its par by the most.
CALL_PAR = {"suit": -1.37, "no_trump": -1.68, "misere": -0.44}
_MAX_COMBOS = 16
_SEARCHED = ("play", "trump", "call", "kitty", "exchange", "bid", "swap")
_CLOCK_EVERY = 1


def _texts(m: Mask) -> list[str]:
    return [FRENCH.text(c) for c in cards_in(m)]


def _mask(cards: Sequence[Card]) -> Mask:
    return sum(1 << c for c in cards)


class StrongSergeantMajor:
    """Determinized search for every decision of every variant."""

    def __init__(
        self, playouts: int = DEFAULT_PLAYOUTS, seconds: float | None = DEFAULT_SECONDS,
        clock: Callable[[], float] = time.perf_counter, greedy: float = GREEDY,
    ) -> None:
        self.playouts = playouts
        self.seconds = seconds
        self.clock = clock
        self.greedy = greedy
        self.playouts_done = 0
        self.seconds_spent = 0.0

    # the one entry point ---------------------------------------------------------------

    def is_costly(self, view: dict[str, Any], legal: Sequence[Action]) -> bool:
        """Every decision ``choose`` searches: a card, trump, call, bid or swap with a choice, every give and discard.

        A give or a discard lists one canonical action (the choice is in ``view["choose"]``) and is
        searched over a dozen candidate sets, so its cost follows the phase, not the count of actions.
        """
        phase = view.get("phase")
        if phase not in _SEARCHED or view.get("seat") is None:
            return False
        if phase in ("kitty", "exchange"):
            return bool(view.get("choose"))
        kinds = {"play": "play", "call": "call", "bid": "bid"}
        if phase in kinds:
            return sum(1 for a in legal if a.get("type") == kinds[phase]) > (0 if phase == "bid" else 1)
        return True


    def choose(self, view: dict[str, Any], legal: Sequence[Action], seed: str) -> Action:
        """The searched action; always one ``apply`` accepts for this view."""
        phase = view.get("phase")
        if phase not in _SEARCHED or view.get("seat") is None:
            return legal[0]
        start = self.clock()
        seen = read_view(view)
        rnd = random.Random(deal_rng(seed, "ai:sm:strong").below(1 << 62)).random
        action: Action | None
        match phase:
            case "play":
                action = self._play(seen, legal, rnd, start)
            case "trump":
                action = self._trump(seen, rnd, start)
            case "call":
                action = self._call(seen, legal, rnd, start)
            case "kitty":
                action = self._discard(seen, view, rnd, start)
            case "exchange":
                action = self._give(seen, view, rnd, start)
            case "bid":
                action = self._bid(seen, view, legal, rnd, start)
            case _:
                action = self._swap(seen, view, rnd, start)
        self.seconds_spent += self.clock() - start
        if action is None:
            return EasySergeantMajor().choose(view, legal, seed)
        if view.get("choose"):
            return action
        return action if action in legal else legal[0]

    # the search ------------------------------------------------------------------------

    def _deadline(self, start: float) -> float | None:
        return None if self.seconds is None else start + self.seconds

    def _search(
        self, seen: Seen, n_moves: int, score: Callable[[int, Any, Callable[[], float]], float],
        draw: Callable[[Callable[[], float]], Any], rnd: Callable[[], float], start: float,
    ) -> list[float]:
        """Mean score of each move over the same deals; ``draw`` makes one deal, ``score`` plays a move on it."""
        deals = max(1, self.playouts // max(1, n_moves))
        deadline = self._deadline(start)
        totals = [0.0] * n_moves
        done = 0
        for done in range(1, deals + 1):
            deal = draw(rnd)
            stream = int(rnd() * (1 << 40))
            for i in range(n_moves):
                totals[i] += score(i, deal, random.Random(stream).random)
            self.playouts_done += n_moves
            if deadline is not None and done % _CLOCK_EVERY == 0 and self.clock() >= deadline:
                break
        return [t / done for t in totals]

    def _world(self, seen: Seen, rnd: Callable[[], float], sampler: Sampler) -> World:
        sample = sampler.sample(rnd)
        away = sample.away
        kitty = _mask(away[: seen.kitty_count]) if seen.kitty_count else 0
        rest = away[seen.kitty_count :]
        escrow = [(g, r, m) for g, r, m in seen.escrow_known]
        for g, r, k in seen.escrow_hidden:
            escrow.append((g, r, _mask(rest[:k])))
            rest = rest[k:]
        tricks = list(seen.tricks)
        return World(seen.variant, seen.options, seen.dealer, sample.hands, kitty, seen.trump, seen.call,
                     seen.targets, list(seen.pending), escrow, seen.face_up, tricks)

    # card play -------------------------------------------------------------------------

    def _play(self, seen: Seen, legal: Sequence[Action], rnd: Callable[[], float], start: float) -> Action | None:
        cards = [FRENCH.parse(a["card"]) for a in legal if a.get("type") == "play"]
        if len(cards) < 2:
            return legal[0]
        sampler = Sampler(seen)
        me = seen.seat
        misere = seen.call == "misere"
        need = end_need(seen.options, seen.variant, seen.targets)

        def score(i: int, hands: list[Mask], stream: Callable[[], float]) -> float:
            h = list(hands)
            card = cards[i]
            h[me] &= ~(1 << card)
            trick = [*seen.trick, (me, card)]
            tricks = list(seen.tricks)
            turn = (me + 1) % N
            if len(trick) == N:
                turn = trick[winner_index([c for _, c in trick], seen.trump, WIDTH)][0]
                tricks[turn] += 1
                if need is not None and tricks[turn] >= need[turn]:
                    return WIN if turn == me else -WIN
                trick = []
            return rollout(h, trick, turn, seen.trump, misere, tricks, seen.targets, need, me, stream, self.greedy)

        means = self._search(seen, len(cards), score, lambda r: sampler.sample(r).hands, rnd, start)
        best = max(range(len(cards)), key=lambda i: (means[i], -i))
        return {"type": "play", "card": FRENCH.text(cards[best])}

    # decisions before the tricks -------------------------------------------------------

    def _evaluate(
        self, seen: Seen, moves: list[Callable[[World], None]], after: str, rnd: Callable[[], float], start: float,
        bonus: Sequence[float] | None = None, inclusive: bool = False,
    ) -> int:
        """The index of the best of ``moves`` (each changes a world); then the stages after ``after``
        (from ``after`` itself when ``inclusive``: the rest of a stage several seats take part in)."""
        sampler = Sampler(seen)
        todo = stages(seen.variant, seen.options, seen.options.get("misere_trump") == "dealer_names")
        rest = todo[todo.index(after) + (0 if inclusive else 1) :]
        me = seen.seat

        def score(i: int, world: World, stream: Callable[[], float]) -> float:
            w = world.copy()
            moves[i](w)
            return finish(w, rest, me, stream, self.greedy)

        means = self._search(seen, len(moves), score, lambda r: self._world(seen, r, sampler), rnd, start)
        if bonus is not None:
            means = [m + b for m, b in zip(means, bonus, strict=True)]
        return max(range(len(moves)), key=lambda i: (means[i], -i))

    def _trump(self, seen: Seen, rnd: Callable[[], float], start: float) -> Action:
        def name(suit: int) -> Callable[[World], None]:
            def move(w: World) -> None:
                w.trump = suit
            return move

        best = self._evaluate(seen, [name(s) for s in range(4)], "trump", rnd, start)
        return {"type": "name_trump", "suit": SUITS[best]}

    def _call(self, seen: Seen, legal: Sequence[Action], rnd: Callable[[], float], start: float) -> Action | None:
        calls = [a["call"] for a in legal if a.get("type") == "call"]
        if not calls:
            return None
        if len(calls) == 1:
            return {"type": "call", "call": calls[0]}
        maxima = tuple(MISERE_MAX[(s - seen.dealer) % N] for s in range(N))
        dealer_names = seen.options.get("misere_trump") == "dealer_names"

        def make(call: str) -> Callable[[World], None]:
            def move(w: World) -> None:
                w.call = call
                if call in SUITS:
                    w.trump = SUITS.index(call)
                elif call == "misere":
                    w.targets = maxima
                    if dealer_names:
                        w.trump = None  # named by the heuristic in the "trump" stage
            return move

        bonus = [-CALL_PAR["suit" if c in SUITS else c] for c in calls]
        best = self._evaluate(seen, [make(c) for c in calls], "call", rnd, start, bonus)
        return {"type": "call", "call": calls[best]}

    def _discard(self, seen: Seen, view: dict[str, Any], rnd: Callable[[], float], start: float) -> Action | None:
        choice = view.get("choose") or {}
        if choice.get("type") != "discard":
            return None
        offered = [FRENCH.parse(t) for t in choice["from"]]
        count = int(choice["count"])
        misere = seen.call == "misere"
        trump = seen.trump
        if trump is None and seen.call is None:
            trump = best_trump(offered)  # the Variation names trump after the kitty (§5.6)
        if misere:
            base = misere_discard(offered, count)
            ranked = sorted(offered, key=lambda c: (-(c % WIDTH), c))
        else:
            base = discard(offered, count, trump)
            ranked = sorted(offered, key=lambda c: (_keep(c, trump, offered), c))
        candidates = _combos(base, ranked[: count + 2], count)
        if not misere and trump is not None:
            candidates.extend(_void_discards(offered, count, trump, candidates))
        dealer = seen.dealer
        take_later = bool(seen.kitty_count)
        discard_trick = RULES[seen.variant].discard_trick

        def make(cards: list[Card]) -> Callable[[World], None]:
            out = _mask(cards)

            def move(w: World) -> None:
                w.hands[dealer] = w.hands[dealer] & ~out | (w.kitty if take_later else 0)
                w.kitty = 0
                if discard_trick:
                    w.tricks[dealer] += 1
            return move

        best = self._evaluate(seen, [make(c) for c in candidates], "kitty", rnd, start)
        return {"type": "discard", "cards": sorted(_texts(_mask(candidates[best])))}

    def _give(self, seen: Seen, view: dict[str, Any], rnd: Callable[[], float], start: float) -> Action | None:
        choice = view.get("choose") or {}
        if choice.get("type") != "give" or not seen.pending:
            return None
        hand = [FRENCH.parse(t) for t in choice["from"]]
        count = int(choice["count"])
        base = give(hand, count, seen.ace_low)
        ranked = sorted(hand, key=lambda c: (-give_gain(c, hand, 0, seen.ace_low), c % WIDTH, c))
        candidates = _combos(base, ranked[: count + 2], count)
        giver, receiver, _k = seen.pending[0]

        def make(cards: list[Card]) -> Callable[[World], None]:
            given = _mask(cards)

            def move(w: World) -> None:
                w.transfers = w.transfers[1:]
                make_give(w, giver, receiver, given)
            return move

        # the later givers of this exchange still give, in the "exchange" stage
        best = self._evaluate(seen, [make(c) for c in candidates], "exchange", rnd, start, inclusive=True)
        return {"type": "give", "cards": sorted(_texts(_mask(candidates[best])))}

    def _bid(self, seen: Seen, view: dict[str, Any], legal: Sequence[Action], rnd: Callable[[], float],
             start: float) -> Action:
        """Bid only what it expects to make (``bid.woburn_bid``)."""
        return woburn_bid(seen, view, legal, self._search, self._world, rnd, start, self.greedy)

    def _swap(self, seen: Seen, view: dict[str, Any], rnd: Callable[[], float], start: float) -> Action:
        face_up = seen.face_up
        me = seen.seat

        def take(w: World) -> None:
            w.hands[me] = w.hands[me] & ~(1 << TWO_DIAMONDS) | face_up
            w.face_up = 1 << TWO_DIAMONDS

        def keep(w: World) -> None:
            return None

        best = self._evaluate(seen, [take, keep], "swap", rnd, start)
        return {"type": "swap" if best == 0 else "decline_swap"}


def _keep(card: Card, trump: int | None, hand: Sequence[Card]) -> float:
    lengths = [len(r) for r in by_suit(hand)]
    r, s = card % WIDTH, card // WIDTH
    if s == trump:
        return 100 + r
    if r == ACE:
        return 90
    if r == KING and lengths[s] >= 2:
        return 50 + r
    return r + 0.1 * lengths[s]


def _combos(base: list[Card], pool: list[Card], count: int) -> list[list[Card]]:
    """The easy pick first, then picks of ``count`` cards from the pool (distinct, at most a few)."""
    out = [sorted(base)]
    seen_sets = {tuple(out[0])}
    for combo in itertools.combinations(pool, count):
        key = tuple(sorted(combo))
        if key not in seen_sets:
            seen_sets.add(key)
            out.append(list(key))
        if len(out) >= _MAX_COMBOS:
            break
    return out


def _void_discards(hand: list[Card], count: int, trump: int, have: list[list[Card]]) -> list[list[Card]]:
    """Discards that empty one short side suit, topped up with the lowest other side cards."""
    known = {tuple(c) for c in have}
    out: list[list[Card]] = []
    for s in range(4):
        if s == trump:
            continue
        suit_cards = [c for c in hand if c // WIDTH == s]
        if not suit_cards or len(suit_cards) > count:
            continue
        others = sorted((c for c in hand if c // WIDTH not in (s, trump)), key=lambda c: c % WIDTH)
        pick = sorted(suit_cards + others[: count - len(suit_cards)])
        if len(pick) == count and tuple(pick) not in known:
            known.add(tuple(pick))
            out.append(pick)
    return out


__all__ = ["StrongSergeantMajor"]
