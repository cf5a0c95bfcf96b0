"""The words for a table setting's values, one table for the bot's Options keyboard and the Mini App's pickers.

A value is keyed as the page writes it (``true``/``false`` for yes-no settings). Values
that point at a seat (``seat:1``) read as that seat's player, or "Seat 2"; cards read as
the reader's card names; numbers stay numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from gettext import NullTranslations
from typing import Any

from engine.core.errors import N_
from engine.words import card_name

VALUES: dict[str, dict[str, str]] = {
    "timer": {
        "none": N_("None"),
        "live": N_("60 seconds a move"),
        "relaxed": N_("24 hours a move"),
    },
    "ai_level": {
        "easy": N_("Easy"),
        "strong": N_("Strong"),
        "expert": N_("Expert"),
    },
    "first_dealer": {
        "random": N_("Random"),
        "host": N_("The host"),
    },
    "variant": {
        "classic": N_("3-5-8 (classic)"),
        "alternate": N_("Alternate: six calls each"),
        "six_three_eight": N_("6-3-8"),
        "nine_five_two": N_("9-5-2"),
        "nine_five_two_variation": N_("9-5-2 Variation"),
        "three_five_nine_uhs": N_("3-5-9 (University High)"),
        "nine_five_three_single_kitty": N_("9-5-3, one face-up card"),
    },
    "kitty_order": {
        "discard_then_take": N_("Discard, then take"),
        "take_then_discard": N_("Take, then discard"),
    },
    "game_end": {
        "twelve_tricks": N_("12 tricks in a hand"),
        "all_sixteen": N_("All 16 tricks"),
        "target_plus_five": N_("Target + 5"),
    },
    "exchange_ace": {
        "low": N_("Low"),
        "high": N_("High"),
    },
    "woburn_first_bid": {
        "false": N_("Off"),
        "true": N_("On"),
    },
    "woburn_max_bleed": {
        "false": N_("Off"),
        "true": N_("On"),
    },
    "misere_trump": {
        "none": N_("No trump"),
        "dealer_names": N_("Dealer names one"),
    },
    "removed_card": {
        "random_each_hand": N_("Random each hand"),
    },
    "first_player": {
        "left_of_dealer": N_("Left of the dealer"),
        "high_card_draw": N_("High card draw"),
    },
    "king_compulsory": {
        "true": N_("Yes"),
        "false": N_("No"),
    },
    "king_on_empty_side": {
        "true": N_("Yes"),
        "false": N_("No"),
    },
    "layout_kings": {
        "movable": N_("Stay; may be moved to a corner"),
        "auto_corner": N_("Go to a corner at once"),
    },
    "draw_timing": {
        "end": N_("End of the turn"),
        "start": N_("Start of the turn"),
    },
    "pass_rule": {
        "draw_one": N_("Draw one card"),
        "draw_until_playable": N_("Draw until a card can be played"),
    },
    "scoring": {
        "first_out": N_("First out wins"),
        "corners": N_("Most corners"),
        "penalty": N_("Penalty points"),
    },
}
SEAT = N_("Seat {n}")
PREFIX = "value_"


def value_key(value: Any) -> str:
    """A value as the page's option keys spell it: ``true``, ``false``, ``seat:0``, ``15``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def value_name(setting: str, value: Any, reader: NullTranslations, seats: Mapping[int, str] | None = None) -> str:
    """A setting's value in the reader's words; ``seats`` names the players a ``seat:N`` value may point at."""
    key = value_key(value)
    known = VALUES.get(setting, {}).get(key)
    if known is not None:
        return reader.gettext(known)
    if key.startswith("seat:") and key[5:].isdigit():
        seat = int(key[5:])
        return (seats or {}).get(seat) or reader.gettext(SEAT).format(n=seat + 1)
    if isinstance(value, bool):
        return reader.gettext(N_("On") if value else N_("Off"))
    shown = card_name(key, reader)
    return shown if shown != key else key.replace("_", " ")


def page_strings(reader: NullTranslations) -> dict[str, str]:
    """Every named value as the page's strings (``value_<setting>_<value>``) in the reader's language."""
    return {f"{PREFIX}{setting}_{key}": reader.gettext(message)
            for setting, values in VALUES.items() for key, message in values.items()}
