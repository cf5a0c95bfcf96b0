"""How a seat chooses between outcomes in a max^n search, shared by the exact endgame solvers.

An outcome is one result per seat. The seat to play takes the best for itself; between outcomes
alike for it, the worse for ``me`` (the seat searched for); between outcomes alike for both, the
worse for the seat to its left, then for the one to its right. The order is total, so the value a
search returns does not depend on the order it tries cards in: a rule that stopped at "the worse
for ``me``" left ``me``'s own ties to whichever card came first, and the two other seats' choices
above them (and so ``me``'s result) then changed with the order of the cards.
"""

from __future__ import annotations

Values = tuple[float, float, float]
EPS = 1e-9  # results closer than this are alike (the Coins race odds are floats)


def prefers(new: Values, best: Values, seat: int, me: int) -> bool:
    """Whether ``seat``, to play, takes ``new`` over ``best``."""
    n = len(new)
    # Its own result (higher is better), then ``me``'s, its left neighbour's and its right neighbour's
    # (lower is better); a seat met again in that list is alike by then and passed over.
    for i, s in enumerate((seat, me, (seat + 1) % n, (seat + 2) % n)):
        d = new[s] - best[s]
        if d > EPS:
            return i == 0
        if d < -EPS:
            return i != 0
    return False
