"""Double-dummy search of a Sergeant Major ending: every hand known, the exact result of each card.

Once a deal is sampled the rest of the hand is a game of perfect information. ``Solver`` plays it
by alpha-beta (sergeant_major/RULES.md §3.2 step 8: follow suit, the highest trump or the
highest card of the suit led wins, the per-trick game end), the seat ``me`` against the other two
(each opponent makes ``me``'s result as bad as it can: the paranoid reading of a three-player
game). A position at the start of a trick is stored in a transposition table keyed by the three
hands' masks, the leader and the trick counts; the cards a hand holds next to each other among
the cards still out (the 9 and 10 of a suit whose 8 and J are elsewhere or gone) are one move.
The value is ``me``'s result as ``sim.rollout`` scores it: ``tricks − target`` (``maximum − tricks``
in a misère), or ``±WIN`` for a game won at once. ``brute_force`` is the same game searched
without pruning, tables or merged cards, for the tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.ai.bounds import Bounds, probe, record
from engine.ai.maxn import Values, prefers
from engine.ai.sergeant_major.seen import SUIT_MASK, WIDTH, N
from engine.ai.sergeant_major.sim import WIN
from engine.core.cards import Card, Mask

_SUIT_OF = tuple(c // WIDTH for c in range(52))
_INF = float("inf")
_CLOCK_EVERY = 512  # nodes between two looks at the clock


class OutOfTime(Exception):
    """The search passed its deadline; the caller keeps what it had."""


def _winner(trick: tuple[tuple[int, Card], ...], trump: int | None) -> int:
    """The seat that wins a full trick."""
    best_seat, best = trick[0]
    led = _SUIT_OF[best]
    best_trump = led == trump
    for seat, card in trick[1:]:
        suit = _SUIT_OF[card]
        if suit == trump:
            if not best_trump or card > best:
                best_seat, best, best_trump = seat, card, True
        elif suit == led and not best_trump and card > best:
            best_seat, best = seat, card
    return best_seat


def legal_cards(hand: Mask, trick: tuple[tuple[int, Card], ...]) -> Mask:
    """The cards of ``hand`` that may be played to ``trick`` (follow suit if you can)."""
    if not trick:
        return hand
    follow = hand & SUIT_MASK[_SUIT_OF[trick[0][1]]]
    return follow or hand


class Solver:
    """The exact paranoid value of a Sergeant Major ending for one seat."""

    def __init__(
        self, hands: list[Mask], trump: int | None, misere: bool, tricks: tuple[int, ...],
        targets: tuple[int, ...], need: tuple[int, ...] | None, me: int,
        deadline: float | None = None, clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.hands = list(hands)
        self.trump = trump
        self.misere = misere
        self.tricks = list(tricks)
        self.targets = targets
        self.need = need
        self.me = me
        self.table: Bounds = {}
        self.nodes = 0
        self.deadline = deadline
        self.clock = clock

    def _end(self) -> float:
        me = self.me
        if self.misere:
            return float(self.targets[me] - self.tricks[me])
        return float(self.tricks[me] - self.targets[me])

    def _moves(self, seat: int, trick: tuple[tuple[int, Card], ...]) -> list[Card]:
        """One card of each run of touching cards among the legal ones, the highest runs first."""
        hand = self.hands[seat]
        legal = legal_cards(hand, trick)
        out: list[Card] = []
        out_mask = self.hands[0] | self.hands[1] | self.hands[2]
        for _s, c in trick:
            out_mask |= 1 << c
        for s in range(4):
            mine = legal & SUIT_MASK[s]
            if not mine:
                continue
            present = out_mask & SUIT_MASK[s]
            in_run = False
            c = present.bit_length() - 1
            while c >= s * WIDTH:
                bit = 1 << c
                if present & bit:
                    if mine & bit:
                        if not in_run:
                            out.append(c)
                            in_run = True
                    else:
                        in_run = False
                c -= 1
        out.sort(key=lambda card: -(card % WIDTH))
        return out

    def value(self, card: Card, trick: tuple[tuple[int, Card], ...]) -> float:
        """``me``'s exact result if it plays ``card`` to ``trick`` (it is ``me``'s turn)."""
        return self._play(self.me, card, trick, -_INF, _INF)

    def _play(self, seat: int, card: Card, trick: tuple[tuple[int, Card], ...], alpha: float, beta: float) -> float:
        bit = 1 << card
        self.hands[seat] ^= bit
        now = (*trick, (seat, card))
        try:
            if len(now) < N:
                return self._search((seat + 1) % N, now, alpha, beta)
            w = _winner(now, self.trump)
            self.tricks[w] += 1
            try:
                need = self.need
                if need is not None and self.tricks[w] >= need[w]:
                    return WIN if w == self.me else -WIN
                return self._search(w, (), alpha, beta)
            finally:
                self.tricks[w] -= 1
        finally:
            self.hands[seat] ^= bit

    def _search(self, seat: int, trick: tuple[tuple[int, Card], ...], alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.deadline is not None and self.nodes % _CLOCK_EVERY == 0 and self.clock() >= self.deadline:
            raise OutOfTime
        key: tuple[int, ...] | None = None
        if not trick:
            if not self.hands[seat]:
                return self._end()
            key = (*self.hands, seat, *self.tricks)
            known, alpha, beta = probe(self.table, key, alpha, beta)
            if known is not None:
                return known
        a0, b0 = alpha, beta
        maximizing = seat == self.me
        best = -_INF if maximizing else _INF
        for card in self._moves(seat, trick):
            v = self._play(seat, card, trick, alpha, beta)
            if maximizing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if key is not None:
            record(self.table, key, best, a0, b0)
        return best


class SelfishSolver(Solver):
    """The exact result of an ending when every seat plays for its own result (max^n).

    Each seat picks the card best for its own result; between cards alike for it, the one worse
    for ``me``, then for the others (``maxn.prefers``, a total order, so the value does not depend
    on the order cards are tried in). Values are one result per seat, so there is no alpha-beta
    pruning.
    """

    def __init__(
        self, hands: list[Mask], trump: int | None, misere: bool, tricks: tuple[int, ...],
        targets: tuple[int, ...], need: tuple[int, ...] | None, me: int,
        deadline: float | None = None, clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(hands, trump, misere, tricks, targets, need, me, deadline, clock)
        self.vectors: dict[tuple[int, ...], Values] = {}

    def _ends(self) -> Values:
        t, g = self.tricks, self.targets
        if self.misere:
            return float(g[0] - t[0]), float(g[1] - t[1]), float(g[2] - t[2])
        return float(t[0] - g[0]), float(t[1] - g[1]), float(t[2] - g[2])

    def value(self, card: Card, trick: tuple[tuple[int, Card], ...]) -> float:
        """``me``'s result if it plays ``card`` to ``trick`` and everyone then plays for themselves."""
        return self._play_all(self.me, card, trick)[self.me]

    def _play_all(self, seat: int, card: Card, trick: tuple[tuple[int, Card], ...]) -> Values:
        bit = 1 << card
        self.hands[seat] ^= bit
        now = (*trick, (seat, card))
        try:
            if len(now) < N:
                return self._search_all((seat + 1) % N, now)
            w = _winner(now, self.trump)
            self.tricks[w] += 1
            try:
                need = self.need
                if need is not None and self.tricks[w] >= need[w]:
                    return _WON[w]
                return self._search_all(w, ())
            finally:
                self.tricks[w] -= 1
        finally:
            self.hands[seat] ^= bit

    def _search_all(self, seat: int, trick: tuple[tuple[int, Card], ...]) -> Values:
        self.nodes += 1
        if self.deadline is not None and self.nodes % _CLOCK_EVERY == 0 and self.clock() >= self.deadline:
            raise OutOfTime
        key: tuple[int, ...] | None = None
        if not trick:
            if not self.hands[seat]:
                return self._ends()
            key = (*self.hands, seat, *self.tricks)
            found = self.vectors.get(key)
            if found is not None:
                return found
        best: Values | None = None
        for card in self._moves(seat, trick):
            v = self._play_all(seat, card, trick)
            if best is None or prefers(v, best, seat, self.me):
                best = v
                if v[seat] >= WIN:
                    break
        assert best is not None
        if key is not None:
            self.vectors[key] = best
        return best


_WON: tuple[Values, ...] = ((WIN, -WIN, -WIN), (-WIN, WIN, -WIN), (-WIN, -WIN, WIN))


def solve_selfish(
    hands: list[Mask], trick: tuple[tuple[int, Card], ...], trump: int | None, misere: bool,
    tricks: tuple[int, ...], targets: tuple[int, ...], need: tuple[int, ...] | None, me: int,
    cards: list[Card],
) -> list[float]:
    """``me``'s result after each of ``cards`` when every seat plays for itself (every hand known)."""
    solver = SelfishSolver(hands, trump, misere, tricks, targets, need, me)
    return [solver.value(card, trick) for card in cards]


def brute_force_selfish(
    hands: list[Mask], trick: tuple[tuple[int, Card], ...], trump: int | None, misere: bool,
    tricks: tuple[int, ...], targets: tuple[int, ...], need: tuple[int, ...] | None, me: int, card: Card,
) -> float:
    """The same value as ``solve_selfish`` by plain max^n over every legal card (for tests)."""
    h = list(hands)
    t = list(tricks)

    def ends() -> Values:
        if misere:
            return float(targets[0] - t[0]), float(targets[1] - t[1]), float(targets[2] - t[2])
        return float(t[0] - targets[0]), float(t[1] - targets[1]), float(t[2] - targets[2])

    def play(seat: int, c: Card, tr: tuple[tuple[int, Card], ...]) -> Values:
        h[seat] ^= 1 << c
        now = (*tr, (seat, c))
        if len(now) < N:
            v = search((seat + 1) % N, now)
        else:
            w = _winner(now, trump)
            t[w] += 1
            v = _WON[w] if need is not None and t[w] >= need[w] else search(w, ())
            t[w] -= 1
        h[seat] ^= 1 << c
        return v

    def search(seat: int, tr: tuple[tuple[int, Card], ...]) -> Values:
        if not tr and not h[seat]:
            return ends()
        legal = legal_cards(h[seat], tr)
        best: Values | None = None
        for c in range(52):
            if legal >> c & 1:
                v = play(seat, c, tr)
                if best is None or prefers(v, best, seat, me):
                    best = v
        assert best is not None
        return best

    return play(me, card, trick)[me]


def solve(
    hands: list[Mask], trick: tuple[tuple[int, Card], ...], trump: int | None, misere: bool,
    tricks: tuple[int, ...], targets: tuple[int, ...], need: tuple[int, ...] | None, me: int,
    cards: list[Card], deadline: float | None = None, clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """``me``'s exact result after each of ``cards`` (raises ``OutOfTime`` past ``deadline``)."""
    solver = Solver(hands, trump, misere, tricks, targets, need, me, deadline, clock)
    return [solver.value(card, trick) for card in cards]


def brute_force(
    hands: list[Mask], trick: tuple[tuple[int, Card], ...], trump: int | None, misere: bool,
    tricks: tuple[int, ...], targets: tuple[int, ...], need: tuple[int, ...] | None, me: int, card: Card,
) -> float:
    """The same value as ``solve`` by plain minimax over every legal card (for tests)."""
    h = list(hands)
    t = list(tricks)

    def end() -> float:
        return float(targets[me] - t[me]) if misere else float(t[me] - targets[me])

    def play(seat: int, c: Card, tr: tuple[tuple[int, Card], ...]) -> float:
        h[seat] ^= 1 << c
        now = (*tr, (seat, c))
        if len(now) < N:
            v = search((seat + 1) % N, now)
        else:
            w = _winner(now, trump)
            t[w] += 1
            v = (WIN if w == me else -WIN) if need is not None and t[w] >= need[w] else search(w, ())
            t[w] -= 1
        h[seat] ^= 1 << c
        return v

    def search(seat: int, tr: tuple[tuple[int, Card], ...]) -> float:
        if not tr and not h[seat]:
            return end()
        legal = legal_cards(h[seat], tr)
        values = [play(seat, c, tr) for c in range(52) if legal >> c & 1]
        return max(values) if seat == me else min(values)

    return play(me, card, trick)
