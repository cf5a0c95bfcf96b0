"""Snapshots: a game state as JSON-ready data and back, so a stored table replays only its tail.

A state is a frozen dataclass of ints, strings, enums, tuples, nested frozen dataclasses and
JSON dicts; ``snapshot`` writes its fields (all but ``options`` and ``seed``, which the table
row keeps) as plain JSON values, and ``restore`` reads them back by the field types, checking
every field is there and of its kind. ``restore(snapshot(s)) == s``, so replaying the actions
after the snapshot gives the state a full replay gives.

A snapshot holds everything, hidden cards included: it is for the server's store only, never
for a view.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import types
import typing
from typing import Any, TypeVar, Union

from engine.core.errors import BadOptions, RefusalCode

T = TypeVar("T")
JSON = dict[str, Any]
GIVEN = ("options", "seed")  # the fields a restore is handed instead of reading them
FORMAT = 1


class BadSnapshot(ValueError):
    """The data is no snapshot of this game's state (another game, an older state shape, damage)."""


_HINTS: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _encode(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return copy.deepcopy(value)  # JSON already; a copy, so changing the snapshot never changes the state
    if value is None or isinstance(value, bool | int | str):
        return value
    raise TypeError(f"cannot snapshot a {type(value).__name__}")


def _decode(kind: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(kind)
    if kind is Any:
        return copy.deepcopy(value)
    if origin in (Union, types.UnionType):
        options = typing.get_args(kind)
        if value is None and type(None) in options:
            return None
        (inner,) = (o for o in options if o is not type(None))
        return _decode(inner, value, where)
    if origin is tuple:
        if not isinstance(value, list):
            raise BadSnapshot(f"{where}: expected a list")
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], item, f"{where}[{i}]") for i, item in enumerate(value))
        if len(args) != len(value):
            raise BadSnapshot(f"{where}: expected {len(args)} items")
        return tuple(_decode(a, item, f"{where}[{i}]") for i, (a, item) in enumerate(zip(args, value, strict=True)))
    if origin is dict or kind is dict:
        if not isinstance(value, dict):
            raise BadSnapshot(f"{where}: expected an object")
        return copy.deepcopy(value)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        try:
            return kind(value)
        except ValueError:
            raise BadSnapshot(f"{where}: {value!r} is no {kind.__name__}") from None
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _record(kind, value, where, {})
    if kind is bool:
        if not isinstance(value, bool):
            raise BadSnapshot(f"{where}: expected true or false")
        return value
    if kind is int or kind is str:
        if not isinstance(value, kind) or isinstance(value, bool):
            raise BadSnapshot(f"{where}: expected a {kind.__name__}")
        return value
    raise TypeError(f"{where}: cannot restore a {kind!r}")


def _record(cls: type[T], data: Any, where: str, given: dict[str, Any]) -> T:
    if not isinstance(data, dict):
        raise BadSnapshot(f"{where}: expected an object")
    hints = _hints(cls)
    names = [f.name for f in dataclasses.fields(cls) if f.name not in given]  # type: ignore[arg-type]
    if sorted(data) != sorted(names):
        raise BadSnapshot(f"{where}: fields {sorted(data)} are not {sorted(names)}")
    values = {name: _decode(hints[name], data[name], f"{where}.{name}") for name in names}
    return cls(**values, **given)


def snapshot(game: str, state: Any) -> JSON:
    """The state of a table of ``game`` as JSON-ready data (without its options and seed)."""
    fields = {f.name: _encode(getattr(state, f.name)) for f in dataclasses.fields(state) if f.name not in GIVEN}
    return {"game": game, "format": FORMAT, "state": fields}


def restore(game: str, cls: type[T], data: Any, options: Any, seed: str) -> T:
    """The state ``snapshot`` wrote; raises BadSnapshot for anything else."""
    if not isinstance(data, dict) or data.get("game") != game or data.get("format") != FORMAT:
        raise BadSnapshot(f"not a snapshot of a {game} state (format {FORMAT})")
    return _record(cls, data.get("state"), cls.__name__, {"options": options, "seed": seed})


def check_players(state_players: int, players: int, title: str) -> None:
    """Refuse a restore for a different number of players than the snapshot holds."""
    if players != state_players:
        raise BadOptions(RefusalCode.PLAYER_COUNT_FIXED, game=title, count=state_players, players=repr(players))
