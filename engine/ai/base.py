"""The AI player interface and the registry of levels per game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from engine.core.rng import deal_rng
from engine.core.rules import Action

LEVELS = ("random", "easy", "strong", "expert")


class AiPlayer(Protocol):
    """Chooses one of ``legal`` from what ``view`` shows; deterministic for a given ``seed``."""

    def choose(self, view: dict[str, Any], legal: Sequence[Action], seed: str) -> Action:
        """The action to take."""


@runtime_checkable
class Searching(Protocol):
    """A player whose decisions may search: it says which ones cost more than a glance."""

    def is_costly(self, view: dict[str, Any], legal: Sequence[Action]) -> bool:
        """Whether choosing here runs a search (a worker process should think, not the event loop)."""


class RandomPlayer:
    """Any legal action, uniformly (a baseline for benchmarks)."""

    def choose(self, view: dict[str, Any], legal: Sequence[Action], seed: str) -> Action:
        """A uniformly random legal action."""
        return legal[deal_rng(seed, "ai:random").below(len(legal))]


_FACTORIES: dict[tuple[str, str], Callable[[], AiPlayer]] = {}


def register(game: str, level: str, factory: Callable[[], AiPlayer]) -> None:
    """Make ``factory`` the player for ``game`` at ``level``."""
    _FACTORIES[(game, level)] = factory


def player_for(game: str, level: str) -> AiPlayer:
    """The player for a game and level; falls back to easy, then to random."""
    for key in ((game, level), (game, "easy")):
        if key in _FACTORIES:
            return _FACTORIES[key]()
    return RandomPlayer()


def is_forced(view: dict[str, Any], legal: Sequence[Action]) -> bool:
    """Whether the seat has nothing to choose: one action, and no multi-card choice behind it."""
    return len(legal) == 1 and not view.get("choose")  # a multi-card choice lists one canonical pick only


def is_costly(game: str, level: str, view: dict[str, Any], legal: Sequence[Action]) -> bool:
    """Whether this decision runs a search, by what the player says of it (never by how many actions are listed)."""
    if is_forced(view, legal):
        return False
    player = player_for(game, level)
    return isinstance(player, Searching) and player.is_costly(view, legal)


def choose(game: str, level: str, view: dict[str, Any], legal: Sequence[Action], seed: str) -> Action:
    """One decision for a seat of ``game`` at ``level``."""
    if is_forced(view, legal):
        return legal[0]
    return player_for(game, level).choose(view, legal, seed)
