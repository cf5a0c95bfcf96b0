"""The table's own settings (seats, turn timer, AI level) and the shape check every move passes first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import BadOptions, MalformedAction, RefusalCode, listed
from engine.service.timers import TIMERS
from engine.store.json_text import json_bytes

AI_LEVELS = ("easy", "strong")  # what a table offers (engine.ai also has "random", for benches)
# Levels no longer offered, and what a table stored with one now offers in its place: "expert" measured no stronger
# than strong in any game (docs/performance.md), so it went; tables stored with it play, and change, as strong.
WITHDRAWN_LEVELS = {"expert": "strong"}
TABLE_SETTINGS = ("players", "timer", "ai_level")
MAX_ACTION_BYTES = 2048


def split_settings(game: Any, raw: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``raw`` as the game's settings and the table's own; a name that is neither is refused naming every setting a
    table of ``game`` takes (BadOptions ``unknown_setting``)."""
    known = [s.name for s in game.settings]
    unknown = sorted(str(k) for k in raw if k not in known and k not in TABLE_SETTINGS)
    if unknown:
        raise BadOptions(RefusalCode.UNKNOWN_SETTING, name=unknown[0], settings=listed([*known, *TABLE_SETTINGS]))
    return ({k: v for k, v in raw.items() if k not in TABLE_SETTINGS},
            {k: v for k, v in raw.items() if k in TABLE_SETTINGS})


def parse_size(game: Any, raw: object) -> int:
    """The number of seats; raises BadOptions."""
    value = int(raw) if isinstance(raw, str) and raw.strip().isdigit() else raw
    if isinstance(value, int) and not isinstance(value, bool) and game.min_players <= value <= game.max_players:
        return value
    if game.min_players == game.max_players:
        raise BadOptions(RefusalCode.PLAYER_COUNT_FIXED, game=game.title, count=game.min_players, players=repr(raw))
    raise BadOptions(RefusalCode.PLAYER_COUNT_RANGE, game=game.title, minimum=game.min_players,
                     maximum=game.max_players, players=repr(raw))


def parse_timer(raw: object) -> str:
    """The turn timer; raises BadOptions."""
    if raw in TIMERS:
        return str(raw)
    raise BadOptions(RefusalCode.SETTING_NOT_A_CHOICE, name="timer", choices=listed(TIMERS), value=repr(raw))


def parse_level(raw: object) -> str:
    """The AI players' level; raises BadOptions."""
    if isinstance(raw, str) and raw in AI_LEVELS:
        return raw
    raise BadOptions(RefusalCode.SETTING_NOT_A_CHOICE, name="ai_level", choices=", ".join(AI_LEVELS), value=repr(raw))


def stored_level(meta: Mapping[str, Any]) -> str:
    """The level a stored table's lobby offers now (a withdrawn level reads as its replacement)."""
    level = str(meta.get("ai_level", "easy"))
    return WITHDRAWN_LEVELS.get(level, level)


def check_action_shape(action: object) -> None:
    """Refuse anything that is not a small JSON object with a type."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise MalformedAction(RefusalCode.MALFORMED_ACTION, example='{"type": "play", ...}')
    try:
        size = len(json_bytes(action))
    except (TypeError, ValueError):
        raise MalformedAction(RefusalCode.ACTION_NOT_JSON) from None
    if size > MAX_ACTION_BYTES:
        raise MalformedAction(RefusalCode.ACTION_TOO_LARGE)
