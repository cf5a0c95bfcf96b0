"""Kings in the Corner (Kings Corners), 2 to 4 players, with every setting of RULES.md."""

from engine.games.kings_corner.checks import check_action
from engine.games.kings_corner.game import GAME, KingsCorner
from engine.games.kings_corner.options import SETTINGS, KingsOptions
from engine.games.kings_corner.phases import idle_action
from engine.games.kings_corner.position import position
from engine.games.kings_corner.state import KingsState, Phase

__all__ = [
    "GAME", "SETTINGS", "KingsCorner", "KingsOptions", "KingsState", "Phase", "check_action",
    "idle_action", "position",
]
