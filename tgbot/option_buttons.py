"""Which settings a lobby shows and offers, and how a setting's button fits on a phone.

Only the settings the chosen variant uses are listed or offered; a lobby lists its headline setting
and whatever differs from the defaults. A setting's button reads "label: value", with a shorter
label, or the value alone, when that would be cut on a phone.
"""

from __future__ import annotations

from typing import Any

from engine import games
from engine.catalogue import headline_setting
from engine.core.settings import Setting
from engine.i18n import N_
from engine.service.live import TableInfo

BUTTON_FITS = 36  # characters a phone shows of a full-width button before cutting it
VARIANT = "variant"  # the setting whose value decides which others apply (``Setting.applies_to``)
DEFAULT_TIMER, DEFAULT_LEVEL = "none", "easy"

# A shorter label for a setting whose button would not fit with its full one.
SHORT_LABELS = {
    "pass_rule": N_("If stuck"),
    "layout_kings": N_("Kings laid out"),
    "king_on_empty_side": N_("King on an empty side"),
    "first_player": N_("Who starts"),
    "removed_card": N_("Card out"),
    "game_end": N_("Game ends"),
    "scoring": N_("Score by"),
}


def used_settings(info: TableInfo) -> list[Setting]:
    """The game's settings that the table's variant uses (all of them in a game without variants)."""
    game = games.get(info.game)
    variant = info.options.get(VARIANT)
    return [s for s in game.settings if s.applies_to is None or variant is None or variant in s.applies_to]


def lobby_settings(info: TableInfo) -> list[tuple[str, str, Any]]:
    """The settings a lobby message lists (name, label, value): the headline one, then each that is not at its
    default, among those the variant uses; seats, timer and AI level likewise."""
    game = games.get(info.game)
    headline = headline_setting(info.game)
    shown: list[tuple[str, str, Any]] = []
    for setting in used_settings(info):
        value = info.options.get(setting.name, setting.default)
        if setting is headline or (headline is not None and setting.name == headline.name):
            shown.insert(0, (setting.name, setting.label, value))
        elif value != setting.default:
            shown.append((setting.name, setting.label, value))
    if game.min_players != game.max_players and info.size != game.min_players:
        shown.append(("players", N_("Players"), info.size))
    if info.timer != DEFAULT_TIMER:
        shown.append(("timer", N_("Turn timer"), info.timer))
    if info.ai_level != DEFAULT_LEVEL and any(s.is_ai or s.user_id is None for s in info.seats):
        shown.append(("ai_level", N_("AI players"), info.ai_level))
    return shown


def button_text(label: str, short: str | None, value: str) -> str:
    """A setting's button as it fits: "label: value", else "short label: value", else the value alone (a long value
    says what it is), else cut with an ellipsis."""
    for text in (f"{label}: {value}", f"{short}: {value}" if short else None, value):
        if text is not None and len(text) <= BUTTON_FITS:
            return text
    return value[:BUTTON_FITS - 1] + "…"
