"""Reading the wire form of an action: its type, checked against a game's closed set of kinds; and the
read-only action dicts that ``legal_actions`` shares between every caller.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping
from typing import Any, NoReturn

from engine.core.errors import MalformedAction, RefusalCode, listed
from engine.core.rules import Action


def action_type(action: Action, kinds: Collection[str], example: str) -> str:
    """The ``type`` of ``action`` when it is one of ``kinds``; raises MalformedAction naming ``example``."""
    try:
        kind = action["type"]
    except (TypeError, KeyError, IndexError):
        raise MalformedAction(RefusalCode.MALFORMED_ACTION, example=example) from None
    if kind not in kinds:
        raise MalformedAction(RefusalCode.UNKNOWN_ACTION, action=str(kind), actions=listed(kinds))
    return str(kind)


class SharedAction(dict[str, Any]):
    """An action built once and handed out by ``legal_actions`` to every caller, so it refuses changes.

    It is a dict for JSON and for comparisons; its copies (``dict(a)``, ``copy``, ``deepcopy``,
    pickle) are plain dicts that may be changed freely.
    """

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a shared action is read-only; change a copy: dict(action)")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        return dict, (dict(self),)

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return copy.deepcopy(dict(self), memo)


def shared(data: Mapping[str, Any]) -> SharedAction:
    """A read-only action with these fields."""
    return SharedAction(data)
