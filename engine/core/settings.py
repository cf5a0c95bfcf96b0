"""Table settings: each game declares its settings once, and one parser checks them.

A game lists ``Setting`` records (name, default, allowed values or an int range) and a
frozen dataclass with the same field names. ``parse_options`` turns a mapping (from a
lobby, a command line or JSON, values possibly given as text) into that dataclass,
refusing unknown names and values that are not allowed with a sentence that says
which values are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, TypeVar

from engine.core.errors import BadOptions, RefusalCode, listed

OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True, slots=True)
class Setting:
    """One table setting: allowed ``choices`` (presets), or ints from ``minimum`` to ``maximum``.

    ``applies_to`` names the values of the game's ``variant`` setting this one applies to (None: every variant);
    under any other variant only its default is accepted.
    """

    name: str
    label: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    check: Callable[[Any], Any] | None = None
    applies_to: tuple[str, ...] | None = None

    @property
    def is_int(self) -> bool:
        """Whether the setting is a whole number."""
        return isinstance(self.default, int) and not isinstance(self.default, bool)

    def parse(self, raw: object) -> Any:
        """The checked value for ``raw``; raises BadOptions."""
        value = _coerce(raw, self.default)
        if self.check is not None:
            return self.check(value)
        if self.minimum is not None and self.is_int and isinstance(value, int):
            if self.minimum <= value <= (self.maximum or value):
                return value
            raise BadOptions(RefusalCode.SETTING_OUT_OF_RANGE, name=self.name, minimum=self.minimum,
                             maximum=self.maximum or self.minimum, value=repr(raw))
        if value in self.choices:
            return value
        raise BadOptions(RefusalCode.SETTING_NOT_A_CHOICE, name=self.name, choices=listed(map(_show, self.choices)),
                         value=repr(raw))

    def describe(self, value: Any) -> dict[str, Any]:
        """A JSON-ready description for option pickers."""
        return {
            "name": self.name,
            "label": self.label,
            "value": value,
            "default": self.default,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
        }


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _coerce(raw: object, default: Any) -> Any:
    if isinstance(default, bool):
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("1", "true", "on", "yes"):
            return True
        if text in ("0", "false", "off", "no"):
            return False
        return raw
    if isinstance(default, int):
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, int):
            return raw
        if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
            return int(raw.strip())
        return raw
    if isinstance(default, str) and isinstance(raw, str):
        return raw.strip()
    return raw


def parse_options(
    cls: type[OptionsT], settings: tuple[Setting, ...], raw: Mapping[str, Any] | OptionsT | None
) -> OptionsT:
    """Build the options dataclass ``cls`` from ``raw``; None means every default."""
    if isinstance(raw, cls):
        return raw
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise BadOptions(RefusalCode.BAD_OPTIONS)
    known = {s.name: s for s in settings}
    unknown = sorted(str(k) for k in raw if k not in known)
    if unknown:
        raise BadOptions(RefusalCode.UNKNOWN_SETTING, name=unknown[0], settings=listed(known))
    values = {s.name: s.parse(raw[s.name]) if s.name in raw else s.default for s in settings}
    return cls(**values)


def options_dict(options: object) -> dict[str, Any]:
    """The options dataclass as a JSON-ready mapping (a fresh dict; a table's options are read once, then copied)."""
    try:
        found = _OPTION_DICTS.get(options)
    except TypeError:  # options holding something unhashable: read them every time
        return _read_options(options)
    if found is None:
        if len(_OPTION_DICTS) >= OPTION_DICTS_KEPT:
            _OPTION_DICTS.clear()
        found = _OPTION_DICTS[options] = _read_options(options)
    return dict(found)


OPTION_DICTS_KEPT = 1024  # distinct option sets remembered (every table of a kind shares one); forgotten all at once
_OPTION_DICTS: dict[object, dict[str, Any]] = {}


def _read_options(options: object) -> dict[str, Any]:
    assert is_dataclass(options) and not isinstance(options, type)
    return {f.name: getattr(options, f.name) for f in fields(options)}
