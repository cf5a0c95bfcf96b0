"""Double-dummy search of a Coins ending: every hand known, the exact value of each card.

Once a deal is sampled the rest of the hand is a game of perfect information. ``Solver`` plays it
by alpha-beta (coins/RULES.md §3.2: any card is legal, the trick table ``fast.WINNERS`` names the
winner, the game ends the moment someone reaches the target), the seat ``me`` against the other
two (each opponent makes ``me``'s value as bad as it can: the paranoid reading of a three-player
race). The value is the one ``strong.playout`` gives: 1 for reaching the target first, 0 when
another seat does, the race odds from the scores when the hand ends. A position at the start of a
trick is stored in a transposition table keyed by the three hands' masks, the leader and the
scores; cards of one suit that a hand holds next to each other among the cards still out are one
move (within a suit only rank decides, coins/RULES.md §3.3). ``brute_force`` is the same game
searched without pruning, tables or merged cards, for the tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.ai.bounds import Bounds, probe, record
from engine.ai.coins.fast import COIN, SIZE, STRIDE0, STRIDE1, WINNERS, race_odds
from engine.ai.maxn import Values, prefers
from engine.games.coins.state import WIDTH, N

_INF = float("inf")
_CLOCK_EVERY = 512  # nodes between two looks at the clock


class OutOfTime(Exception):
    """The search passed its deadline; the caller keeps what it had."""
_SUIT_MASK = tuple(((1 << WIDTH) - 1) << (s * WIDTH) for s in range(SIZE // WIDTH))


def _winner(trick: tuple[tuple[int, int], ...]) -> int:
    (s0, c0), (_s1, c1), (_s2, c2) = trick
    return (s0 + WINNERS[c0 * STRIDE0 + c1 * STRIDE1 + c2]) % N


def end_value(scores: list[int], target: int, me: int) -> float:
    """``me``'s chance to reach the target first once the hand is over (each later point alike)."""
    a, b = (me + 1) % N, (me + 2) % N
    return race_odds(target - scores[me], target - scores[a], target - scores[b])


class Solver:
    """The exact paranoid value of a Coins ending for one seat."""

    def __init__(
        self, hands: list[int], scores: tuple[int, ...], target: int, me: int,
        deadline: float | None = None, clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.hands = list(hands)
        self.scores = list(scores)
        self.target = target
        self.me = me
        self.table: Bounds = {}
        self.nodes = 0
        self.deadline = deadline
        self.clock = clock

    def _moves(self, seat: int, trick: tuple[tuple[int, int], ...]) -> list[int]:
        """One card of each run of touching cards of a suit in the hand, Coins and high ranks first."""
        hand = self.hands[seat]
        out: list[int] = []
        out_mask = self.hands[0] | self.hands[1] | self.hands[2]
        for _s, c in trick:
            out_mask |= 1 << c
        for s, suit_mask in enumerate(_SUIT_MASK):
            mine = hand & suit_mask
            if not mine:
                continue
            present = out_mask & suit_mask
            in_run = False
            for c in range(present.bit_length() - 1, s * WIDTH - 1, -1):
                bit = 1 << c
                if present & bit:
                    if mine & bit:
                        if not in_run:
                            out.append(c)
                            in_run = True
                    else:
                        in_run = False
        out.sort(key=lambda card: -(COIN[card] * 16 + card % WIDTH))
        return out

    def value(self, card: int, trick: tuple[tuple[int, int], ...]) -> float:
        """``me``'s exact value if it plays ``card`` to ``trick`` (it is ``me``'s turn)."""
        return self._play(self.me, card, trick, -_INF, _INF)

    def _play(self, seat: int, card: int, trick: tuple[tuple[int, int], ...], alpha: float, beta: float) -> float:
        bit = 1 << card
        self.hands[seat] ^= bit
        now = (*trick, (seat, card))
        try:
            if len(now) < N:
                return self._search((seat + 1) % N, now, alpha, beta)
            w = _winner(now)
            points = COIN[now[0][1]] + COIN[now[1][1]] + COIN[now[2][1]]
            self.scores[w] += points
            try:
                if points and self.scores[w] >= self.target:
                    return 1.0 if w == self.me else 0.0
                return self._search(w, (), alpha, beta)
            finally:
                self.scores[w] -= points
        finally:
            self.hands[seat] ^= bit

    def _search(self, seat: int, trick: tuple[tuple[int, int], ...], alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.deadline is not None and self.nodes % _CLOCK_EVERY == 0 and self.clock() >= self.deadline:
            raise OutOfTime
        key: tuple[int, ...] | None = None
        if not trick:
            if not self.hands[seat]:
                return end_value(self.scores, self.target, self.me)
            key = (*self.hands, seat, *self.scores)
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


def end_values(scores: list[int], target: int) -> Values:
    """Every seat's chance to reach the target first once the hand is over."""
    v0, v1, v2 = (end_value(scores, target, s) for s in range(N))
    return v0, v1, v2


class SelfishSolver(Solver):
    """The exact value of a Coins ending when every seat plays for its own chance (max^n).

    Each seat picks the card that is best for itself (its chance to reach the target first);
    between cards alike for it, the one worse for ``me``, then for the others (``maxn.prefers``, a
    total order, so the value does not depend on the order cards are tried in). Values are one
    chance per seat, so there is no alpha-beta pruning: only a seat sure to win stops looking.
    """

    def __init__(
        self, hands: list[int], scores: tuple[int, ...], target: int, me: int,
        deadline: float | None = None, clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(hands, scores, target, me, deadline, clock)
        self.vectors: dict[tuple[int, ...], Values] = {}

    def value(self, card: int, trick: tuple[tuple[int, int], ...]) -> float:
        """``me``'s chance if it plays ``card`` to ``trick`` and everyone then plays for themselves."""
        return self._play_all(self.me, card, trick)[self.me]

    def _play_all(self, seat: int, card: int, trick: tuple[tuple[int, int], ...]) -> Values:
        bit = 1 << card
        self.hands[seat] ^= bit
        now = (*trick, (seat, card))
        try:
            if len(now) < N:
                return self._search_all((seat + 1) % N, now)
            w = _winner(now)
            points = COIN[now[0][1]] + COIN[now[1][1]] + COIN[now[2][1]]
            self.scores[w] += points
            try:
                if points and self.scores[w] >= self.target:
                    return _WON[w]
                return self._search_all(w, ())
            finally:
                self.scores[w] -= points
        finally:
            self.hands[seat] ^= bit

    def _search_all(self, seat: int, trick: tuple[tuple[int, int], ...]) -> Values:
        self.nodes += 1
        if self.deadline is not None and self.nodes % _CLOCK_EVERY == 0 and self.clock() >= self.deadline:
            raise OutOfTime
        key: tuple[int, ...] | None = None
        if not trick:
            if not self.hands[seat]:
                return end_values(self.scores, self.target)
            key = (*self.hands, seat, *self.scores)
            found = self.vectors.get(key)
            if found is not None:
                return found
        best: Values | None = None
        for card in self._moves(seat, trick):
            v = self._play_all(seat, card, trick)
            if best is None or prefers(v, best, seat, self.me):
                best = v
                if v[seat] >= 1.0:
                    break
        assert best is not None
        if key is not None:
            self.vectors[key] = best
        return best


_WON: tuple[Values, ...] = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def solve_selfish(
    hands: list[int], trick: tuple[tuple[int, int], ...], scores: tuple[int, ...], target: int, me: int,
    cards: list[int], deadline: float | None = None, clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """``me``'s chance after each of ``cards`` when every seat plays for itself (``OutOfTime`` past ``deadline``)."""
    solver = SelfishSolver(hands, scores, target, me, deadline, clock)
    return [solver.value(card, trick) for card in cards]


def brute_force_selfish(
    hands: list[int], trick: tuple[tuple[int, int], ...], scores: tuple[int, ...], target: int, me: int,
    card: int,
) -> float:
    """The same value as ``solve_selfish`` by plain max^n over every card (for tests)."""
    h = list(hands)
    sc = list(scores)

    def play(seat: int, c: int, tr: tuple[tuple[int, int], ...]) -> Values:
        h[seat] ^= 1 << c
        now = (*tr, (seat, c))
        if len(now) < N:
            v = search((seat + 1) % N, now)
        else:
            w = _winner(now)
            points = sum(COIN[x] for _s, x in now)
            sc[w] += points
            v = _WON[w] if points and sc[w] >= target else search(w, ())
            sc[w] -= points
        h[seat] ^= 1 << c
        return v

    def search(seat: int, tr: tuple[tuple[int, int], ...]) -> Values:
        if not tr and not h[seat]:
            return end_values(sc, target)
        best: Values | None = None
        for c in range(SIZE):
            if h[seat] >> c & 1:
                v = play(seat, c, tr)
                if best is None or prefers(v, best, seat, me):
                    best = v
        assert best is not None
        return best

    return play(me, card, trick)[me]


def solve(
    hands: list[int], trick: tuple[tuple[int, int], ...], scores: tuple[int, ...], target: int, me: int,
    cards: list[int],
) -> list[float]:
    """``me``'s exact value after each of ``cards`` (``me`` to play to ``trick``, every hand known)."""
    solver = Solver(hands, scores, target, me)
    return [solver.value(card, trick) for card in cards]


def brute_force(
    hands: list[int], trick: tuple[tuple[int, int], ...], scores: tuple[int, ...], target: int, me: int,
    card: int,
) -> float:
    """The same value as ``solve`` by plain minimax over every card (for tests)."""
    h = list(hands)
    sc = list(scores)

    def play(seat: int, c: int, tr: tuple[tuple[int, int], ...]) -> float:
        h[seat] ^= 1 << c
        now = (*tr, (seat, c))
        if len(now) < N:
            v = search((seat + 1) % N, now)
        else:
            w = _winner(now)
            points = sum(COIN[x] for _s, x in now)
            sc[w] += points
            v = (1.0 if w == me else 0.0) if points and sc[w] >= target else search(w, ())
            sc[w] -= points
        h[seat] ^= 1 << c
        return v

    def search(seat: int, tr: tuple[tuple[int, int], ...]) -> float:
        if not tr and not h[seat]:
            return end_value(sc, target, me)
        values = [play(seat, c, tr) for c in range(SIZE) if h[seat] >> c & 1]
        return max(values) if seat == me else min(values)

    return play(me, card, trick)
