"""The registry of games: ``get(name)`` hands out a ruleset by its name."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from engine.core.errors import Refusal, RefusalCode, listed
from engine.core.rules import Game

_MODULES = {
    "coins": "engine.games.coins",
    "sergeant_major": "engine.games.sergeant_major",
    "kings_corner": "engine.games.kings_corner",
}
_loaded: dict[str, Game[Any]] = {}


def _available() -> list[str]:
    names = []
    for name, module in _MODULES.items():
        try:
            import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        names.append(name)
    return names


def names() -> list[str]:
    """The names of every registered game."""
    return _available()


def get(name: str) -> Game[Any]:
    """The ruleset called ``name``; raises Refusal("unknown_game") listing the known ones."""
    if name in _loaded:
        return _loaded[name]
    if name not in _MODULES or name not in _available():
        raise Refusal(RefusalCode.UNKNOWN_GAME, name=name, games=listed(names()))
    game: Game[Any] = import_module(_MODULES[name]).GAME
    _loaded[name] = game
    return game
