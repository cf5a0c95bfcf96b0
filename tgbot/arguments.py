"""Command arguments: which game a word names, and ``/new``'s ``name=value`` options.

Each parser raises a Refusal that quotes back at most ``MAX_SHOWN`` characters of what was
typed, so a long argument can never make a reply longer than Telegram allows.
"""

from __future__ import annotations

import re
from typing import Any

from engine import games
from engine.core.errors import Refusal, RefusalCode
from engine.i18n import LANGUAGES, translations
from engine.words import game_title

GAME_ALIASES = {
    "coins": "coins", "sergeant_major": "sergeant_major", "sergeant": "sergeant_major", "358": "sergeant_major",
    "3-5-8": "sergeant_major", "kings_corner": "kings_corner", "kings": "kings_corner",
    "kings_in_the_corner": "kings_corner",
}  # fmt: skip
OPTION_ALIASES = {"target": "target_score"}
SHORTEST_PREFIX = 2  # characters of a game's title that name it, when no other game's title starts with them


MAX_SHOWN = 24  # characters of a word quoted back in a refusal


def _shown(word: str) -> str:
    return word if len(word) <= MAX_SHOWN else word[:MAX_SHOWN] + "…"


def typed_name(setting: str) -> str:
    """The shortest name a setting is typed by after ``/new`` (``target`` for ``target_score``)."""
    return min((alias for alias, name in OPTION_ALIASES.items() if name == setting), key=len, default=setting)


def _words(text: str) -> str:
    return "_".join(text.casefold().replace("-", " ").split())


def _titled(key: str) -> str | None:
    """The game whose title, in any language the bot speaks, is ``key`` or alone starts with it."""
    titles = {name: {_words(game_title(games.get(name).title, translations(lang))) for lang in LANGUAGES}
              for name in games.names()}
    exact = [name for name, spelled in titles.items() if key in spelled]
    if exact:
        return exact[0]
    starts = [name for name, spelled in titles.items() if any(t.startswith(key) for t in spelled)]
    return starts[0] if len(starts) == 1 and len(key) >= SHORTEST_PREFIX else None


def game_name(word: str) -> str:
    """The registered game a word names (its name, or its title in any language); raises Refusal("unknown_game")."""
    key = _words(word)
    if len(key) > MAX_SHOWN:
        games.get(_shown(key))  # refused, naming only the start of what was typed
    if key not in GAME_ALIASES and key not in games.names():
        key = _titled(key) or key
    return games.get(GAME_ALIASES.get(key, key)).name


def parse_new_args(args: list[str]) -> tuple[str, dict[str, Any]]:
    """``/new [game] [name=value ...]`` -> the game and its raw options; raises Refusal."""
    game, rest = "coins", list(args)
    if rest and "=" not in rest[0]:
        game = game_name(rest.pop(0))
    if len(rest) > 8:
        raise Refusal(RefusalCode.TOO_MANY_OPTIONS)
    options: dict[str, Any] = {}
    for word in rest:
        name, sep, value = word.partition("=")
        if not sep or not name or not value or len(word) > 64:
            raise Refusal(RefusalCode.OPTION_NOT_UNDERSTOOD, word=_shown(word))
        options[OPTION_ALIASES.get(name.lower(), name.lower())] = value
    return game, options


def typed_refusal(refusal: Refusal) -> Refusal:
    """The refusal of a ``/new`` line naming each setting as it is typed (``target``), never by its inner name."""
    inner = {name: alias for alias, name in OPTION_ALIASES.items() if typed_name(name) == alias}
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, inner)) + r")\b")
    params = {key: pattern.sub(lambda m: inner[m[1]], value) if isinstance(value, str) else value
              for key, value in refusal.params.items()}
    return Refusal(refusal.reason, **params)
