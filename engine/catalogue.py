"""What a client needs to know of each game, read from the rules themselves: one JSON-ready entry per game.

The Mini App shows decks, re-deals hands to check a seed, names a table by its headline setting and
offers every option with its choices; all of it comes from here, so no fact of a game is kept twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.cards import FRENCH, SPANISH, Deck
from engine.core.rules import Game
from engine.core.settings import Setting
from engine.games import get, names

JSON = dict[str, Any]

# The setting that tells one table of a game from another at a glance ("9-5-2", "Penalty points"),
# named beside the game's title when it is not the default.
HEADLINE = {"coins": "target_score", "sergeant_major": "variant", "kings_corner": "scoring"}


def _coins() -> JSON:
    from engine.games.coins.state import DECK, HAND_SIZE

    return {"deck": _deck(DECK), "hand_size": HAND_SIZE}


def _sergeant_major() -> JSON:
    from engine.games.sergeant_major.options import RULES
    from engine.games.sergeant_major.state import DECK

    return {
        "deck": _deck(DECK),
        "hand_size": RULES["classic"].hand_size,
        # sergeant_major/RULES.md §5.9: the deal's shape is the variant's
        "hand_size_by_variant": {name: rules.hand_size for name, rules in RULES.items()},
        "removes_card_in": [name for name, rules in RULES.items() if rules.removes_card],
    }


def _kings_corner() -> JSON:
    from engine.games.kings_corner.board import DECK
    from engine.games.kings_corner.deal import HAND_SIZE

    return {"deck": _deck(DECK), "hand_size": HAND_SIZE}


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


def describe_game(game: Game[Any]) -> JSON:
    """One game as a client sees it: id, title, seats, deck, hand size, headline setting and options."""
    facts = _FACTS[game.name]() if game.name in _FACTS else {}
    return {
        "id": game.name,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        **facts,
        "headline": HEADLINE.get(game.name),
        "settings": [describe_setting(s) for s in game.settings],
    }


def describe_games() -> list[JSON]:
    """Every registered game, described for clients, in the registry's order."""
    return [describe_game(get(name)) for name in names()]
