"""Ratings per game with openskill's Plackett-Luce model: placements from the rules' outcome, AI seats fixed.

A finished game updates the ratings of the people at the table in the same transaction
that finishes it, and keeps each person's rating before and after it as people see it
(``seen``). AI players take part with a fixed rating per level (they are never updated),
so beating the strong AI counts for more than beating the easy one. The same function
rebuilds every rating from the finished games' logs (``cardroom ratings --rebuild``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from openskill.models import PlackettLuce

from engine.core.rules import Outcome
from engine.store.rows import Finish, SeatResult, Skill, TableRow

MODEL = PlackettLuce()
START: Skill = (MODEL.mu, MODEL.sigma)
# expert plays as strong (the level is withdrawn; seats stored with it remain), so it is rated as strong
AI_SKILL: dict[str, Skill] = {"easy": (20.0, 1.0), "strong": (27.0, 1.0), "expert": (27.0, 1.0)}


def rate(
    seats: Sequence[tuple[int | None, str]], placements: Sequence[int], current: dict[int, Skill]
) -> dict[int, Skill]:
    """New ratings of the people among ``seats`` ((user id or None, AI level) per seat) after these placements."""
    teams = []
    for user_id, level in seats:
        mu, sigma = AI_SKILL.get(level, AI_SKILL["easy"]) if user_id is None else current.get(user_id, START)
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    rated = MODEL.rate(teams, ranks=[float(p) for p in placements])
    return {user_id: (team[0].mu, team[0].sigma)
            for (user_id, _), team in zip(seats, rated, strict=True) if user_id is not None}


def ordinal(skill: Skill) -> float:
    """The conservative estimate a leaderboard sorts by: mu - 3 sigma."""
    return skill[0] - 3 * skill[1]


def seen(skill: Skill | None) -> float:
    """The rating people see of a skill (its ordinal); a newcomer's (None) is the starting rating's."""
    return ordinal(START if skill is None else skill)


def finish_record(row: TableRow, outcome: Outcome, finished_at: float) -> Finish | None:
    """The results and rating update a finished game adds to the record (none for a lesson: it is practice)."""
    if row.meta.get("lesson"):
        return None
    people = tuple((s.user_id if not s.is_ai else None, s.ai_level) for s in row.seats)
    seats = tuple(SeatResult(s.seat, None if s.is_ai else s.user_id, s.name,
                             outcome.placements[s.seat], outcome.scores[s.seat]) for s in row.seats)
    return Finish(row.id, row.game, row.chat_id, finished_at, seats,
                  functools.partial(rate, people, outcome.placements), seen)
