"""Sergeant Major players: ``EasySergeantMajor`` (one-look heuristics) and ``StrongSergeantMajor`` (search
over sampled deals, every decision of every variant)."""

from __future__ import annotations

from engine.ai.sergeant_major.easy import EasySergeantMajor
from engine.ai.sergeant_major.strong import StrongSergeantMajor

__all__ = ["EasySergeantMajor", "StrongSergeantMajor"]
