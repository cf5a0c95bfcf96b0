"""A transposition table of alpha-beta bounds, shared by the exact endgame solvers.

Each position's entry is the (lower, upper) bound its search proved: a value found outside
the window it was searched with is only a bound on one side.
"""

from __future__ import annotations

INF = float("inf")
Bounds = dict[tuple[int, ...], tuple[float, float]]


def probe(table: Bounds, key: tuple[int, ...], alpha: float, beta: float) -> tuple[float | None, float, float]:
    """The position's value when the table settles it, else None and the window narrowed by what it knows."""
    entry = table.get(key)
    if entry is None:
        return None, alpha, beta
    lo, hi = entry
    if lo >= beta or lo == hi:
        return lo, alpha, beta
    if hi <= alpha:
        return hi, alpha, beta
    return None, max(alpha, lo), min(beta, hi)


def record(table: Bounds, key: tuple[int, ...], best: float, alpha: float, beta: float) -> None:
    """Keep what a search of the window (``alpha``, ``beta``) that found ``best`` proved about the position."""
    lo, hi = table.get(key, (-INF, INF))
    if best <= alpha:
        hi = min(hi, best)
    elif best >= beta:
        lo = max(lo, best)
    else:
        lo = hi = best
    table[key] = (lo, hi)
