"""Each game described once: its seats, deck, hand size, headline setting and settings with their words.

One ``describe_game`` answer per game, read from the rules themselves, is what every reader takes:
the Mini App page (its game clients: decks, re-dealt hands to check a seed, option pickers),
``/api/config``, the bot's texts (a game's variant in a history line is its headline setting) and
the lobby. Adapters render it; no fact of a game is kept anywhere else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.cards import FRENCH, SPANISH, Deck
from engine.core.rules import Game
from engine.core.settings import Setting
from engine.games import get, names

JSON = dict[str, Any]


def _coins() -> JSON:
    from engine.games.coins.state import DECK, HAND_SIZE

    return {"deck": _deck(DECK), "hand_size": HAND_SIZE, "headline": "target_score"}


def _sergeant_major() -> JSON:
    from engine.games.sergeant_major.options import RULES
    from engine.games.sergeant_major.state import DECK

    return {
        "deck": _deck(DECK),
        "hand_size": RULES["classic"].hand_size,
        "headline": "variant",
        # sergeant_major/RULES.md §5.9: the deal's shape is the variant's
        "hand_size_by_variant": {name: rules.hand_size for name, rules in RULES.items()},
        "removes_card_in": [name for name, rules in RULES.items() if rules.removes_card],
    }


def _kings_corner() -> JSON:
    from engine.games.kings_corner.board import DECK
    from engine.games.kings_corner.deal import HAND_SIZE

    return {"deck": _deck(DECK), "hand_size": HAND_SIZE, "headline": "scoring"}


# Each game's facts beyond its rules object. "headline" is the setting that tells one table of a game from
# another at a glance ("9-5-2", "Penalty points"), named beside the game's title when it is not the default.
_FACTS: dict[str, Callable[[], JSON]] = {
    "coins": _coins, "sergeant_major": _sergeant_major, "kings_corner": _kings_corner,
}


DECKS = {"spanish": SPANISH, "french": FRENCH}  # the ids clients know the decks' art and words by


def _deck(deck: Deck) -> JSON:
    ids = [key for key, known in DECKS.items() if known == deck]
    return {"id": ids[0] if ids else None, "name": deck.name, "suits": list(deck.suits), "ranks": list(deck.ranks)}


def describe_setting(setting: Setting) -> JSON:
    """A setting with its choices and default; ``applies_to`` lists the variants it is for, when not all of them."""
    out = setting.describe(setting.default)
    if setting.applies_to is not None:
        out["applies_to"] = list(setting.applies_to)
    return out


def default_players(game: Game[Any]) -> int:
    """Seats a new table of ``game`` gets unless chosen otherwise: the fewest it plays with (two for Kings in the
    Corner, where each of four seats acts once in a long while), or its only size."""
    return int(game.min_players)


def describe_game(game: Game[Any]) -> JSON:
    """One game as its readers see it: id, title, seats, deck, hand size, headline setting and settings."""
    facts = _FACTS[game.name]() if game.name in _FACTS else {}
    return {
        "id": game.name,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "default_players": default_players(game),
        "headline": None,
        **facts,
        "settings": [describe_setting(s) for s in game.settings],
    }


def describe_games() -> list[JSON]:
    """Every registered game, described, in the registry's order."""
    return [describe_game(get(name)) for name in names()]


def headline_setting(name: str) -> Setting | None:
    """The setting that tells game ``name``'s tables apart at a glance (its variant, its target), if it has one."""
    headline = _FACTS[name]().get("headline") if name in _FACTS else None
    return next((s for s in get(name).settings if s.name == headline), None)
