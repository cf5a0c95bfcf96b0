"""Kings in the Corner players: ``EasyKingsCorner`` (the best-looking turn) and ``StrongKingsCorner`` (turns
judged by playing the game on over the unknown cards)."""

from __future__ import annotations

from engine.ai.kings_corner.easy import EasyKingsCorner, Planner, Rules, make, moves, score
from engine.ai.kings_corner.strong import StrongKingsCorner

__all__ = ["EasyKingsCorner", "Planner", "Rules", "StrongKingsCorner", "make", "moves", "score"]
