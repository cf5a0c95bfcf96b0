"""The table's own settings (seats, turn timer, AI level) and the shape check every move passes first."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from engine.core.errors import BadOptions, MalformedAction
from engine.service.timers import TIMERS

TABLE_SETTINGS = ("players", "timer", "ai_level")
MAX_ACTION_BYTES = 2048


def default_size(game: Any) -> int:
    """Seats a new table of ``game`` gets."""
    return int(game.max_players if game.min_players == game.max_players else game.min_players)


def parse_size(game: Any, raw: object) -> int:
    """The number of seats; raises BadOptions."""
    value = int(raw) if isinstance(raw, str) and raw.strip().isdigit() else raw
    if isinstance(value, int) and not isinstance(value, bool) and game.min_players <= value <= game.max_players:
        return value
    if game.min_players == game.max_players:
        raise BadOptions(f"{game.title} is for exactly {game.min_players} players.")
    raise BadOptions(f"{game.title} is for {game.min_players} to {game.max_players} players, not {raw!r}.")


def parse_timer(raw: object) -> str:
    """The turn timer; raises BadOptions."""
    if raw in TIMERS:
        return str(raw)
    raise BadOptions(f"timer must be one of {', '.join(TIMERS)}, not {raw!r}.")


def parse_level(raw: object) -> str:
    """The AI players' level; raises BadOptions."""
    if raw in ("easy", "strong"):
        return str(raw)
    raise BadOptions(f"ai_level must be 'easy' or 'strong', not {raw!r}.")


def check_action_shape(action: object) -> None:
    """Refuse anything that is not a small JSON object with a type."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise MalformedAction("malformed_action", 'A move is an object with a "type", like {"type": "play", ...}.')
    try:
        size = len(json.dumps(action))
    except (TypeError, ValueError):
        raise MalformedAction("malformed_action", "A move must be plain JSON.") from None
    if size > MAX_ACTION_BYTES:
        raise MalformedAction("malformed_action", "That move is far too large.")
