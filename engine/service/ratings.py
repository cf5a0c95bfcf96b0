"""Ratings per game with openskill's Plackett-Luce model: placements from the rules' outcome, AI seats fixed.

A finished game updates the ratings of the people at the table in the same transaction
that finishes it, and keeps each person's mu before and after it on their result
(``kept``), from which the number people see is made (``rating_scale.shown``). AI players
take part with a fixed rating per level (they are never updated), so beating the strong AI
counts for more than beating the easy one. The same function rebuilds every rating from
the finished games' logs (``cardroom ratings --rebuild``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from openskill.models import PlackettLuce

from engine.ai import DAILY_LEVEL
from engine.core.rules import Outcome
from engine.store.rows import Finish, SeatResult, Skill, TableRow

MODEL = PlackettLuce()
START: Skill = (MODEL.mu, MODEL.sigma)
# expert plays as strong (the level is withdrawn; seats stored with it remain), and so does the deal of the day's
# player (strong with no clock), so both are rated as strong
AI_SKILL: dict[str, Skill] = {"easy": (20.0, 1.0), "strong": (27.0, 1.0), "expert": (27.0, 1.0),
                              DAILY_LEVEL: (27.0, 1.0)}


def rate(
    seats: Sequence[tuple[int | None, str]], placements: Sequence[int], current: dict[int, Skill]
) -> dict[int, Skill]:
    """New ratings of the people among ``seats`` ((user id or None, AI level) per seat) after these placements.

    A seat placed last keeps at most its mu and a seat placed first at least its mu. Plackett-Luce
    does so by itself for a place of one's own; only a shared place can go against it (a weak
    player level last with a strong one gains), and a result people read as a loss must never
    show a gain. So a game everyone tied moves no mu.
    """
    skills = [AI_SKILL.get(level, AI_SKILL["easy"]) if user_id is None else current.get(user_id, START)
              for user_id, level in seats]
    rated = MODEL.rate([[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in skills],
                       ranks=[float(p) for p in placements])
    first, last = min(placements), max(placements)
    fresh: dict[int, Skill] = {}
    for (user_id, _), team, (before, _sigma), placement in zip(seats, rated, skills, placements, strict=True):
        if user_id is None:
            continue
        mu = team[0].mu
        if placement == last:
            mu = min(mu, before)
        if placement == first:
            mu = max(mu, before)
        fresh[user_id] = (mu, team[0].sigma)
    return fresh


def kept(skill: Skill | None) -> float:
    """What a result keeps of a person's skill before or after its game: its mu (None: a newcomer's)."""
    return (START if skill is None else skill)[0]


def finish_record(row: TableRow, outcome: Outcome, finished_at: float) -> Finish | None:
    """The results and rating update a finished game adds to the record (none for a lesson: it is practice)."""
    if row.meta.get("lesson"):
        return None
    people = tuple((s.user_id if not s.is_ai else None, s.ai_level) for s in row.seats)
    seats = tuple(SeatResult(s.seat, None if s.is_ai else s.user_id, s.name,
                             outcome.placements[s.seat], outcome.scores[s.seat]) for s in row.seats)
    return Finish(row.id, row.game, row.chat_id, finished_at, seats,
                  functools.partial(rate, people, outcome.placements), kept)
