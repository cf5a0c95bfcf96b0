"""What a Kings in the Corner seat knows of the hidden cards, and deals of them that agree with it.

Every card not on the board or in the seat's hand is in another hand or in the stock. Two
things narrow where: a seat that ended its turn held no King it had to place (RULES.md §3.3
A6), so with ``king_compulsory`` its Kings can only be ones it drew since; and the seat that
played just before (its whole turn is in the view's ``recent`` events) is read as one that
played every card it could: of its hand, only the cards drawn after it chose to stop may fit
on the board it left. The board it left is the present one with this turn's moves undone.
The second is a reading of the player, not a rule; it holds for the easy player and for most
people, and where the counts show it does not (it held back cards), only the first is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.ai.kings_corner.easy import Piles, Rules
from engine.core.cards import FRENCH, Card, Mask
from engine.games.kings_corner.board import CORNERS, FITS_ON, KING_MASK, SIDES, SPACE_INDEX

PLAYS = ("built", "king_placed", "side_filled")
_NEW_HAND = ("hand_over", "laid_out")


class Seen:
    """The hidden cards (``pool``) and, per seat, the cards it may hold only among its ``free`` latest draws."""

    __slots__ = ("barred", "counts", "free", "me", "pool", "stock")

    def __init__(self, me: int, pool: Mask, counts: Sequence[int], stock: int) -> None:
        self.me = me
        self.pool = pool
        self.counts = list(counts)
        self.stock = stock
        self.barred = [0] * len(counts)
        self.free = list(counts)

    def bar(self, seat: int, cards: Mask, free: int) -> None:
        """``seat`` holds cards of ``cards`` only among ``free`` of its cards."""
        self.barred[seat] |= cards & self.pool
        self.free[seat] = max(0, min(free, self.free[seat], self.counts[seat]))


def _undo(board: list[list[Card]], event: dict[str, Any]) -> bool:
    """Take one public event back off the board; False when the board does not agree with it."""
    kind = event.get("type")
    if kind in PLAYS:
        space = SPACE_INDEX[event.get("space") or event.get("corner") or event.get("side") or ""]
        if not board[space] or board[space][-1] != FRENCH.parse(event["card"]):
            return False
        board[space].pop()
    elif kind == "pile_moved":
        moved = [FRENCH.parse(t) for t in event["cards"]]
        src, dst = SPACE_INDEX[event["src"]], SPACE_INDEX[event["dst"]]
        if board[src] or board[dst][len(board[dst]) - len(moved):] != moved:
            return False
        del board[dst][len(board[dst]) - len(moved):]
        board[src] = moved
    elif kind == "corner_collected":
        corner = SPACE_INDEX[event["corner"]]
        if board[corner]:
            return False
        board[corner] = [FRENCH.parse(t) for t in event["cards"]]
    return True


def _stop_index(turn: list[dict[str, Any]], rules: Rules, start: bool) -> int:
    """Where in its turn's events the last player chose to stop: its end-of-turn draw, else its turn end."""
    ends = [i for i, e in enumerate(turn) if e.get("type") == "turn_ended"]
    if not ends:
        return -1
    if not start:
        for i, e in enumerate(turn):
            if e.get("type") == "drew" and i < ends[-1]:
                return i
    return ends[-1]


def _playable(board: list[list[Card]], rules: Rules) -> Mask:
    """Every card that could go somewhere on this board from a hand (A1, A2, A3)."""
    cards = 0
    for pile in board:
        if pile:
            cards |= FITS_ON[pile[-1]]
    if any(not board[c] for c in CORNERS) or rules.compulsory:
        cards |= KING_MASK  # with king_compulsory a King may not be kept in any case
    if any(not board[s] for s in SIDES):
        cards |= FRENCH.full if rules.king_sides else FRENCH.full & ~KING_MASK
    return cards


def read_seen(view: dict[str, Any], piles: Piles, hand: Mask, rules: Rules) -> Seen:
    """What the seat of ``view`` knows of the other hands and the stock."""
    me = int(view["seat"])
    counts = [int(c) for c in view["hand_counts"]]
    n = len(counts)
    on_board = hand
    for pile in piles:
        for card in pile:
            on_board |= 1 << card
    seen = Seen(me, FRENCH.full & ~on_board, counts, int(view.get("stock", 0)))
    options = view.get("options") or {}
    start = options.get("draw_timing", "end") == "start"
    count = int(options.get("draw_count", 1))
    if rules.compulsory and _all_had_a_turn(options, int(view.get("stock", 0)), n, count):
        for seat in range(n):
            if seat != me:
                seen.bar(seat, KING_MASK, 0 if start else count)
    _read_last_turn(view, piles, rules, start, seen)
    seen.counts[me] = 0
    return seen


def _all_had_a_turn(options: dict[str, Any], stock: int, n: int, count: int) -> bool:
    # With draw_one each turn draws ``count`` cards, so n turns are over once the stock is n draws below
    # the smallest it can have been at the deal (up to 4 layout Kings may have taken stock cards).
    if options.get("pass_rule", "draw_one") != "draw_one":
        return False
    largest = FRENCH.size - 7 * n - 4 - (0 if options.get("layout_kings", "movable") == "movable" else 4)
    return stock <= largest - n * count


def _read_last_turn(view: dict[str, Any], piles: Piles, rules: Rules, start: bool, seen: Seen) -> None:
    recent: list[dict[str, Any]] = list(view.get("recent") or [])
    ends = [i for i, e in enumerate(recent) if e.get("type") == "turn_ended"]
    if not ends or any(e.get("type") in _NEW_HAND for e in recent[ends[-1]:]):
        return
    last, this = recent[: ends[-1] + 1], recent[ends[-1] + 1 :]
    if any(e.get("type") == "hand_over" for e in last):
        return
    seat = int(last[-1]["seat"])
    stop = _stop_index(last, rules, start)
    board = [list(p) for p in piles]
    for event in reversed(this + last[stop + 1 :]):
        if not _undo(board, event):
            return
    after = last[stop:]
    drawn = sum(int(e.get("count", 0)) for e in after if e.get("type") == "drew")
    forced = sum(1 for e in after if e.get("type") in PLAYS)
    free = drawn - forced
    kept = seen.counts[seat] - free
    barred = _playable(board, rules) & seen.pool
    if kept > (seen.pool & ~barred).bit_count():
        return  # it held back cards it could have played: nothing more to read
    seen.bar(seat, barred, free)


def sample(seen: Seen, rnd: Callable[[], float]) -> tuple[list[Mask], list[Card]]:
    """One deal of the hidden cards that keeps to ``seen``: every other hand, and the stock top first."""
    left = [c for c in range(FRENCH.size) if seen.pool >> c & 1]
    hands = [0] * len(seen.counts)

    def take(seat: int, k: int, allowed: Mask) -> None:
        nonlocal left
        pick = [c for c in left if allowed >> c & 1]
        k = min(k, len(pick))
        for i in range(k):
            j = i + int(rnd() * (len(pick) - i))
            pick[i], pick[j] = pick[j], pick[i]
            hands[seat] |= 1 << pick[i]
        chosen = hands[seat]
        left = [c for c in left if not chosen >> c & 1]

    # The most narrowed part of each hand first, then the draws that may be anything, then the stock.
    order = sorted(range(len(hands)), key=lambda s: -seen.barred[s].bit_count())
    for seat in order:
        kept = seen.counts[seat] - seen.free[seat]
        if kept > 0:
            take(seat, kept, ~seen.barred[seat])
    for seat in order:
        missing = seen.counts[seat] - hands[seat].bit_count()
        if missing > 0:
            take(seat, missing, FRENCH.full)
    for i in range(len(left) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        left[i], left[j] = left[j], left[i]
    return hands, left[: seen.stock]


__all__ = ["Seen", "read_seen", "sample"]
