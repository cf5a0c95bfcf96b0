"""Coins by Mark Steere: three players, the Spanish 48-card deck, cyclic suit dominance (RULES.md)."""

from engine.games.coins.game import GAME, CoinsOptions, CoinsState, Phase, trick_winner

__all__ = ["GAME", "CoinsOptions", "CoinsState", "Phase", "trick_winner"]
