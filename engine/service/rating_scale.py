"""The rating people see: openskill's mu on the chess scale, a newcomer at 1500, marked provisional at first.

    shown = max(0, round(1500 + 30 · (mu − 25)))      provisional while games < 10  ("1500?")

Why mu and not the conservative ``mu − 3σ`` (openskill's ordinal): the ordinal starts a
newcomer at 0, goes negative after a first loss, and rises whenever σ shrinks faster than mu
falls, so a last place could show a gain. mu follows the results: a seat placed last never
gains it and a seat placed first never loses it (``ratings.rate`` holds that even for shared
places), and this mapping is increasing, so the shown change has the result's sign.
The uncertainty is told instead by the provisional mark.

Why 30 points per mu: for two players whose skills are known (σ → 0), Plackett-Luce gives
the one with the higher mu the chance ``logistic(Δmu / c)`` of finishing ahead, with
``c = √2 · β ≈ 5.89`` (β = 25/6); Elo gives ``logistic(D · ln 10 / 400)`` for a gap of D points.
They agree when ``D ≈ 29.5 · Δmu``: with 30 a 400-point gap means about 10-to-1 odds, as in
chess. The AI players sit at 1350 (easy, mu 20) and 1560 (strong, mu 27).

Why 10 games: a newcomer's first result moves the number by 100 to 150 points; by the tenth
a result moves it by about 20, chess's usual step, so the mark comes off once the number has
mostly settled. The floor at 0 (mu −25, never seen in practice) keeps every number positive.
"""

from __future__ import annotations

from dataclasses import dataclass

START_MU = 25.0  # openskill's default mu: every newcomer's
START = 1500  # the number a newcomer sees
POINTS_PER_MU = 30  # see above: Elo's odds for a gap of points
PROVISIONAL_GAMES = 10  # games before the number loses its "?"


@dataclass(frozen=True, slots=True)
class Shown:
    """A rating as people see it: a whole number of points, and whether it is still provisional."""

    rating: int
    provisional: bool

    def text(self) -> str:
        """The number as written for people: "1500", or "1500?" while provisional."""
        return f"{self.rating}?" if self.provisional else str(self.rating)


def shown(mu: float, games: int) -> Shown:
    """The rating people see of a stored skill's ``mu`` after ``games`` rated games of that game.

    σ takes no part: the number moves with the results alone, and the first
    ``PROVISIONAL_GAMES`` games mark it provisional instead.
    """
    return Shown(max(0, round(START + POINTS_PER_MU * (mu - START_MU))), games < PROVISIONAL_GAMES)
