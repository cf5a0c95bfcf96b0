"""The interface every game implements, and ``replay``.

A *game* is a ruleset (one module under ``engine.games``); a *table* is one live
instance of it. The rules are pure: no clock, no I/O, no global ``random``; every
shuffle comes from the table's seed (``engine.core.rng``), so ``replay`` rebuilds any
state exactly from its options, seed and action log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from engine.core.events import Event
from engine.core.settings import Setting

Action = Mapping[str, Any]
S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game: per-seat score and placement (1 = winner; ties share)."""

    scores: tuple[int, ...]
    placements: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats placed first."""
        return tuple(seat for seat, place in enumerate(self.placements) if place == 1)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"scores": list(self.scores), "placements": list(self.placements), "winners": list(self.winners)}


def placements_by(values: Iterable[int], *, higher_is_better: bool = True) -> tuple[int, ...]:
    """Competition ranking (1, 2, 2, 4) of per-seat values."""
    vals = list(values)
    sign = -1 if higher_is_better else 1
    return tuple(1 + sum(1 for other in vals if sign * other < sign * mine) for mine in vals)


@runtime_checkable
class Game(Protocol[S]):
    """One ruleset; the registry hands these out by name."""

    name: str
    title: str
    min_players: int
    max_players: int
    multi_action_turns: bool  # a turn is many actions (ended by one of them): a seat acting again keeps its turn

    @property
    def settings(self) -> tuple[Setting, ...]:
        """The game's table options, declared once."""

    def parse_options(self, raw: Mapping[str, Any] | None) -> Any:
        """Validated options from a mapping; raises BadOptions."""

    def new_game(self, options: Any, players: int, seed: str) -> S:
        """The state at the start, after the first deal."""

    def start_events(self, state: S) -> list[Event]:
        """The events that announce the first deal (each private to its seat)."""

    def to_act(self, state: S) -> frozenset[int]:
        """The seats that may act now (empty when the game is over)."""

    def legal_actions(self, state: S, seat: int) -> Sequence[Action]:
        """Every action ``seat`` may take now."""

    def apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        """The next state and what happened; raises IllegalAction. Never mutates ``state``."""

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know, JSON-ready: ``public_view`` with ``own_view`` over it."""

    def public_view(self, state: S) -> dict[str, Any]:
        """What everyone may know (a spectator's whole view), JSON-ready."""

    def own_view(self, state: S, seat: int) -> dict[str, Any]:
        """What only ``seat`` may know, as keys laid over ``public_view`` (its hand, its moves, its exchanges)."""

    def memory(self, state: S, seat: int) -> dict[str, Any]:
        """What ``seat`` saw earlier that its view no longer shows (cards played in tricks gone from the table), as
        keys laid over its view for an AI player: a careful player remembers them too. Empty where the view shows
        everything; never anything hidden from the seat."""

    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else None."""

    def hidden_cards(self, state: S, seat: int | None) -> frozenset[str]:
        """Every card whose place ``seat`` may not know now (others' hands, kitty, stock); for audits."""

    def replay(self, options: Any, players: int, seed: str, actions: Iterable[tuple[int, Action]]) -> S:
        """Rebuild a state from its options, seed and ``(seat, action)`` log."""

    def snapshot(self, state: S) -> dict[str, Any]:
        """The state as JSON-ready data for the store (hidden cards included: never for a view)."""

    def restore(self, options: Any, players: int, seed: str, data: Mapping[str, Any]) -> S:
        """The state ``snapshot`` wrote, at a table of these options, players and seed; raises BadSnapshot."""


class Replays:
    """Mixin giving a ruleset its ``replay`` method from ``new_game`` and ``apply``."""

    def replay(self, options: Any, players: int, seed: str, actions: Iterable[tuple[int, Action]]) -> Any:
        """Rebuild a state from its options, seed and ``(seat, action)`` log."""
        return replay(self, options, players, seed, actions)  # type: ignore[arg-type]


class SplitViews:
    """Mixin giving a ruleset its ``view`` from its two halves: what everyone sees, and what the seat adds.

    A table's update is seen by every seat, so a snapshot builds the public half once and
    only the seat's own half per seat (``engine.service.live.Snapshot``).
    """

    def public_view(self, state: Any) -> dict[str, Any]:
        raise NotImplementedError

    def own_view(self, state: Any, seat: int) -> dict[str, Any]:
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know, JSON-ready."""
        return joined_view(self.public_view(state), None if seat is None else self.own_view(state, seat))

    def memory(self, state: Any, seat: int) -> dict[str, Any]:
        """Nothing the view does not show (a game whose view leaves out what was seen earlier says it here)."""
        return {}


def remembering_view(game: Game[Any], state: Any, seat: int) -> dict[str, Any]:
    """What an AI player in ``seat`` decides from: its view, and what it saw earlier that the view no longer shows."""
    return {**game.view(state, seat), **game.memory(state, seat)}


def joined_view(public: dict[str, Any], own: dict[str, Any] | None) -> dict[str, Any]:
    """A seat's whole view: the public half with its own half over it (a spectator has none)."""
    return public if own is None else {**public, **own}


def replay(
    game: Game[Any], options: Any, players: int, seed: str, actions: Iterable[tuple[int, Action]]
) -> Any:
    """Rebuild a state from its options, seed and ``(seat, action)`` log."""
    state = game.new_game(options, players, seed)
    for seat, action in actions:
        state, _ = game.apply(state, seat, action)
    return state


def replay_after(
    game: Game[Any], options: Any, players: int, seed: str, snapshot: Mapping[str, Any],
    actions: Iterable[tuple[int, Action]],
) -> Any:
    """Rebuild a state from a snapshot and the ``(seat, action)`` log made after it."""
    state = game.restore(options, players, seed, snapshot)
    for seat, action in actions:
        state, _ = game.apply(state, seat, action)
    return state
