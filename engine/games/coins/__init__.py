"""Coins by Mark Steere: three players, the Spanish 48-card deck, cyclic suit dominance (RULES.md).

Any card in hand is legal; a trick is won by suit dominance (three suits), the higher of the
pair (two suits) or the highest card (one suit); each Coins card in a trick is a point for its
winner, and the game ends the moment someone reaches the target.
"""

from engine.games.coins.game import GAME, Coins, trick_winner
from engine.games.coins.options import SETTINGS, CoinsOptions
from engine.games.coins.state import CoinsState, Phase

__all__ = ["GAME", "SETTINGS", "Coins", "CoinsOptions", "CoinsState", "Phase", "trick_winner"]
