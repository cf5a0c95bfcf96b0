"""Coins players: ``EasyCoins`` (a one-look heuristic) and ``StrongCoins`` (search over sampled deals)."""

from __future__ import annotations

from engine.ai.coins.easy import EasyCoins
from engine.ai.coins.strong import StrongCoins

__all__ = ["EasyCoins", "StrongCoins"]
