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
    # the person deals hand 1, so they play last to the first trick and see two cards first; playing the card the
    # coach rings on each of their 13 turns they win 5-1-0 within the hand, seeing a trick of every kind (the seed
    # before lost 0-5)
    "coins": Lesson("lesson:coins:45", {"target_score": 5, "first_dealer": "host", "ai_level": "easy"}),
    # the person deals (trumps and the kitty) and, playing the card the coach rings on every trick, wins within the
    # one hand by taking 13 tricks, 5 over their target: 21 taps (the seed before went to hand 3, 71 taps)
    "sergeant_major": Lesson("lesson:sergeant_major:93", {
        "variant": "classic", "game_end": "target_plus_five", "first_dealer": "host", "ai_level": "easy"}),
    # one opponent, and the person plays first with a King for a corner; doing what the coach advises, they build
    # down, move a pile, fill an empty side, end a turn and draw, and go out in 24 taps (the seed before took 59)
    "kings_corner": Lesson("lesson:kings_corner:70", {"players": 2, "first_dealer": "seat:1", "ai_level": "easy"}),
}


def lesson_for(game: str) -> Lesson:
    """The guided first game of ``game``; raises Refusal("unknown_game")."""
    lesson = LESSONS.get(game)
    if lesson is None:
        raise Refusal(RefusalCode.UNKNOWN_GAME, name=game[:64], games=listed(LESSONS))
    return lesson
