"""Reading the wire form of an action: its type, checked against a game's closed set of kinds."""

from __future__ import annotations

from collections.abc import Collection

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
