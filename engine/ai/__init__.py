"""AI players: given only a seat's view and its legal actions, choose an action.

``choose(game, level, view, legal, seed)`` is the one entry point the table service
uses. A player never sees the hidden state: it gets exactly what ``view(state, seat)``
shows that seat, like a person would.
"""

from __future__ import annotations

from engine.ai.base import LEVELS, AiPlayer, choose, player_for, register
from engine.ai.coins import EasyCoins, StrongCoins
from engine.ai.kings_corner import EasyKingsCorner, StrongKingsCorner
from engine.ai.sergeant_major import EasySergeantMajor, StrongSergeantMajor

register("coins", "easy", EasyCoins)
register("coins", "strong", StrongCoins)
register("sergeant_major", "easy", EasySergeantMajor)
register("sergeant_major", "strong", StrongSergeantMajor)
register("kings_corner", "easy", EasyKingsCorner)
register("kings_corner", "strong", StrongKingsCorner)

__all__ = ["LEVELS", "AiPlayer", "choose", "player_for", "register"]
