"""Guided first games: for each game, a short table against AI players dealt from a fixed seed.

The seed is chosen so the moments a newcomer has to learn (a trick of each kind, an exchange,
a corner) come up early and in a known order; the options make the game short. A lesson is
practice: its result goes on no record and changes no rating.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import Refusal, RefusalCode, listed


@dataclass(frozen=True, slots=True)
class Lesson:
    """How a game's guided first game is set: its options (table settings included) and its seed."""

    seed: str
    options: dict[str, Any] = field(default_factory=dict)


LESSONS: dict[str, Lesson] = {
    # the person deals hand 1, so they play last to the first trick and see two cards first
    "coins": Lesson("lesson:coins:33", {"target_score": 5, "first_dealer": "host", "ai_level": "easy"}),
    # the person deals hand 1 (trumps and the kitty), gives and gets in the exchange of hands 2 and 3, and, doing
    # what the coach advises, wins in hand 3 by taking 5 over their target (the seed before took 10 hands)
    "sergeant_major": Lesson("lesson:sergeant_major:22", {
        "variant": "classic", "game_end": "target_plus_five", "first_dealer": "host", "ai_level": "easy"}),
    # one opponent, and the person plays first with a King for a corner; doing what the coach advises, they build
    # down on the sides and on a corner, move a pile, fill an empty side, draw at the end of 10 turns, and go out
    # (the seed before ended in 2 turns, before any corner was built on)
    "kings_corner": Lesson("lesson:kings_corner:15", {"players": 2, "first_dealer": "seat:1", "ai_level": "easy"}),
}


def lesson_for(game: str) -> Lesson:
    """The guided first game of ``game``; raises Refusal("unknown_game")."""
    lesson = LESSONS.get(game)
    if lesson is None:
        raise Refusal(RefusalCode.UNKNOWN_GAME, name=game[:64], games=listed(LESSONS))
    return lesson
