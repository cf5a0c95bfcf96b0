"""A fast Kings in the Corner game for search: the rest of a hand played out with a greedy policy.

A pile is ``(bottom, top, length)`` (only those matter to the rules, kings_corner/RULES.md §3.3),
``None`` when the space is empty; hands are card masks and the stock a list, top card first.
Every seat plays each turn greedily (Kings to corners, builds, pile moves that free a side,
then an empty side filled with its highest card), with now and then a random card instead,
then draws by the settings (draw count and timing, draw until playable), until a seat goes
out or the hand is blocked (§4). ``value`` says how good the end is for one seat.

The fit rule, the Kings and the penalty points come from the rules' tables (``engine.games.kings_corner``;
an AI module holds no rules function, which would lead back to the game state); where a card may go,
the pile moves, the draws and the blocked count are restated on this faster board, and
tests/engine/test_sim_parity_kings_corner.py holds them to the rules.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from engine.core.cards import Card, Mask, cards_in
from engine.games.kings_corner.board import CORNERS, FITS_ON, FULL_CORNER, KING_MASK, SIDES, VALUES
from engine.games.kings_corner.scoring import CARD_PENALTY, KING_PENALTY

Pile = tuple[Card, Card, int] | None
TURN_CAP = 400
CUTOFF_SLOPE = 0.6


class Settings:
    """The settings that change how a hand plays out."""

    __slots__ = ("compulsory", "corners", "count", "king_sides", "movable", "n", "scoring", "start", "until")

    def __init__(self, options: dict[str, Any], n: int) -> None:
        self.n = n
        self.compulsory = bool(options.get("king_compulsory", True))
        self.king_sides = bool(options.get("king_on_empty_side", False))
        self.movable = options.get("layout_kings", "movable") == "movable"
        self.scoring = str(options.get("scoring", "first_out"))
        self.corners = self.scoring == "corners"
        self.count = int(options.get("draw_count", 1))
        self.start = options.get("draw_timing", "end") == "start"
        self.until = options.get("pass_rule", "draw_one") == "draw_until_playable"


class Table:
    """One determinized hand in progress."""

    __slots__ = ("collected", "hands", "idle", "out", "piles", "stock")

    def __init__(self, piles: list[Pile], hands: list[Mask], stock: list[Card], collected: list[int],
                 idle: int) -> None:
        self.piles = piles
        self.hands = hands
        self.stock = stock
        self.collected = collected
        self.idle = idle
        self.out = -1

    def copy(self) -> Table:
        """An independent copy."""
        return Table(list(self.piles), list(self.hands), list(self.stock), list(self.collected), self.idle)


def playable(piles: list[Pile], card: Card, s: Settings) -> bool:
    """Whether ``card`` can go anywhere now (A1, A2, A3)."""
    if KING_MASK >> card & 1:
        return any(piles[c] is None for c in CORNERS) or (s.king_sides and any(piles[x] is None for x in SIDES))
    for p in piles:
        if p is not None and FITS_ON[p[1]] >> card & 1:
            return True
    return any(piles[x] is None for x in SIDES)


def _collect(t: Table, seat: int, space: int, s: Settings) -> None:
    # §3.3 corners: a corner completed by a card or a pile move leaves the game, collected by the mover.
    p = t.piles[space]
    if s.corners and space >= 4 and p is not None and p[2] == FULL_CORNER:
        t.piles[space] = None
        t.collected[seat] += 1


def _put(t: Table, seat: int, space: int, card: Card, s: Settings) -> None:
    p = t.piles[space]
    t.piles[space] = (card, card, 1) if p is None else (p[0], card, p[2] + 1)
    t.hands[seat] &= ~(1 << card)
    _collect(t, seat, space, s)


def play_card(t: Table, seat: int, card: Card, s: Settings) -> bool:
    """Put ``card`` somewhere it fits (a build first, then a corner, then an empty side)."""
    piles = t.piles
    if KING_MASK >> card & 1:
        for c in CORNERS:
            if piles[c] is None:
                _put(t, seat, c, card, s)
                return True
        if not s.king_sides:
            return False
    else:
        for i in range(8):
            p = piles[i]
            if p is not None and FITS_ON[p[1]] >> card & 1:
                _put(t, seat, i, card, s)
                return True
    for x in SIDES:
        if piles[x] is None:
            _put(t, seat, x, card, s)
            return True
    return False


def _move_piles(t: Table, seat: int, s: Settings) -> bool:
    piles = t.piles
    fits = 0
    for q in piles:
        if q is not None:
            fits |= FITS_ON[q[1]]
    corner_free = s.movable and (piles[4] is None or piles[5] is None or piles[6] is None or piles[7] is None)
    for src in SIDES:
        p = piles[src]
        if p is None:
            continue
        bottom_fits = fits >> p[0] & 1
        king_bottom = corner_free and KING_MASK >> p[0] & 1
        if not (bottom_fits or king_bottom):
            continue
        if king_bottom:
            for c in CORNERS:
                if piles[c] is None:
                    piles[c] = p
                    piles[src] = None
                    _collect(t, seat, c, s)
                    return True
        for dst in range(8):
            q = piles[dst]
            if dst != src and q is not None and FITS_ON[q[1]] >> p[0] & 1:
                piles[dst] = (q[0], p[1], q[2] + p[2])
                piles[src] = None
                _collect(t, seat, dst, s)
                return True
    return False


def greedy_turn(t: Table, seat: int, s: Settings, rnd: Callable[[], float], noise: float) -> int:
    """Play cards until nothing fits (or the hand is empty); the number of cards played."""
    played = 0
    while t.hands[seat]:
        hand = t.hands[seat]
        piles = t.piles
        fits = 0
        for p in piles:
            if p is not None:
                fits |= FITS_ON[p[1]]
        build = hand & fits
        kings = hand & KING_MASK
        if kings and (piles[4] is None or piles[5] is None or piles[6] is None or piles[7] is None):
            play_card(t, seat, (kings & -kings).bit_length() - 1, s)
        elif build:
            cards = cards_in(build)
            card = cards[int(rnd() * len(cards))] if rnd() < noise else max(cards, key=VALUES.__getitem__)
            play_card(t, seat, card, s)
        elif _move_piles(t, seat, s):
            continue
        elif (piles[0] is None or piles[1] is None or piles[2] is None or piles[3] is None) and (
                hand & ~KING_MASK or s.king_sides):
            pool = hand if s.king_sides else hand & ~KING_MASK
            card = max(cards_in(pool), key=VALUES.__getitem__)
            play_card(t, seat, card, s)
        else:
            break
        played += 1
        if not t.hands[seat]:
            t.out = seat
            return played
    return played


def end_turn(t: Table, seat: int, played: int, s: Settings, rnd: Callable[[], float], noise: float) -> bool:
    """The end-of-turn draw (§3.3 TURN_END) and the blocked count; True when the hand is over."""
    if not s.start:
        if s.until and not played:
            while t.stock:
                card = t.stock.pop(0)
                t.hands[seat] |= 1 << card
                if playable(t.piles, card, s):
                    play_card(t, seat, card, s)
                    played = 1
                    if not t.hands[seat]:
                        t.out = seat
                        return True
                    if t.stock:
                        t.hands[seat] |= 1 << t.stock.pop(0)
                    break
        else:
            for _ in range(min(s.count, len(t.stock))):
                t.hands[seat] |= 1 << t.stock.pop(0)
    t.idle = t.idle + 1 if not t.stock and not played else 0
    return t.idle >= s.n


def play_out(t: Table, seat: int, s: Settings, rnd: Callable[[], float], noise: float, first_drawn: bool,
             turns: int = TURN_CAP) -> None:
    """From the start of ``seat``'s turn (its start draw done if ``first_drawn``) to the end of the hand,
    or for at most ``turns`` turns."""
    drawn = first_drawn
    for _ in range(turns):
        if s.start and not drawn:
            for _ in range(min(s.count, len(t.stock))):
                t.hands[seat] |= 1 << t.stock.pop(0)
        drawn = False
        played = greedy_turn(t, seat, s, rnd, noise)
        if t.out >= 0:
            return
        if end_turn(t, seat, played, s, rnd, noise) or t.out >= 0:
            return
        seat = (seat + 1) % s.n


def value(t: Table, me: int, s: Settings) -> float:
    """How the hand ended for ``me``: 1 for a win, 0 for a loss, shared on a tie (penalty: points ahead)."""
    n = s.n
    counts = [h.bit_count() for h in t.hands]
    if s.scoring == "penalty":
        kings = [(h & KING_MASK).bit_count() for h in t.hands]
        pen = [0 if q == t.out else KING_PENALTY * kings[q] + CARD_PENALTY * (counts[q] - kings[q]) for q in range(n)]
        others = (sum(pen) - pen[me]) / (n - 1)
        return 0.5 + (others - pen[me]) / 40.0
    keys: list[tuple[int, ...]]
    if s.corners:
        keys = [(t.collected[q], int(t.out == q), -counts[q]) for q in range(n)]
    else:
        if t.out < 0 and t.idle < n:
            # Cut off before the end: the fewer cards against the best other hand, the better the odds.
            ahead = min(counts[q] for q in range(n) if q != me) - counts[me]
            return 1.0 / (1.0 + math.exp(-CUTOFF_SLOPE * ahead))
        keys = [(int(t.out == q), -counts[q]) for q in range(n)]
    best = max(keys)
    if keys[me] != best:
        return 0.0
    return 1.0 / sum(1 for k in keys if k == best)
