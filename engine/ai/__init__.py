"""AI players: given only a seat's view and its legal actions, choose an action.

``choose(game, level, view, legal, seed)`` is the one entry point the table service
uses. A player never sees the hidden state: it gets exactly what ``view(state, seat)``
shows that seat, like a person would.

Levels: ``easy`` is a one-look heuristic (legal, sensible, beatable); ``strong`` searches over
deals that agree with the view within about a quarter of a second. ``expert`` is no longer offered to tables
(``engine.service.table_settings``): the exact-ending players (``engine.ai.coins.expert``,
``engine.ai.sergeant_major.expert``) measured no stronger than strong, so seats stored at expert play as strong.
"""

from __future__ import annotations

from functools import partial

from engine.ai.base import LEVELS, AiPlayer, choose, is_costly, player_for, register
from engine.ai.coins import EasyCoins, StrongCoins
from engine.ai.kings_corner import EasyKingsCorner, StrongKingsCorner
from engine.ai.sergeant_major import EasySergeantMajor, StrongSergeantMajor

register("coins", "easy", EasyCoins)
register("coins", "strong", StrongCoins)
register("coins", "expert", StrongCoins)  # the exact-ending player measured below strong
register("sergeant_major", "easy", EasySergeantMajor)
register("sergeant_major", "strong", StrongSergeantMajor)
register("sergeant_major", "expert", StrongSergeantMajor)  # the exact-ending player measured no stronger
register("kings_corner", "easy", EasyKingsCorner)
register("kings_corner", "strong", StrongKingsCorner)
register("kings_corner", "expert", StrongKingsCorner)
# The deal of the day's players (engine.service.daily): strong, with their playout budget and no clock, so everyone
# who plays a day's deal meets the same decision in the same position however busy the server is (strong's clock
# cap, a quarter of a second, cuts a search short under load, and so where it stops).
DAILY_LEVEL = "daily"
register("coins", DAILY_LEVEL, partial(StrongCoins, seconds=None))
register("sergeant_major", DAILY_LEVEL, partial(StrongSergeantMajor, seconds=None))
register("kings_corner", DAILY_LEVEL, partial(StrongKingsCorner, seconds=None))

__all__ = ["DAILY_LEVEL", "LEVELS", "AiPlayer", "choose", "is_costly", "player_for", "register"]
