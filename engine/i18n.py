"""Translations: every user-facing string goes through the ``gettext`` of one of the supported languages.

Catalogs are ``locale/<lang>/LC_MESSAGES/messages.po`` (Babel: ``make messages`` refreshes
the template, the catalogs are kept complete by ``tests/architecture/test_catalogs.py``).
They are read and compiled in memory when first used, so a fresh checkout needs no
build step. English is the source language. Any other language falls back to English
as a whole (``negotiate``), never to a mix of two languages.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from engine.core.errors import N_, Refusal, render

__all__ = ["LANGUAGES", "N_", "card_name", "gettext_for", "negotiate", "ngettext_for", "refusal_text", "translations"]

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DEFAULT_LOCALE = "en"
LANGUAGES: dict[str, str] = {"en": "English", "ru": "Русский", "ko": "한국어", "lv": "Latviešu"}

Gettext = Callable[[str], str]


def negotiate(tag: str | None) -> str:
    """The supported language for a tag like ``"ru-RU"``, ``"ko"`` or ``"pt-br"`` (English when unsupported)."""
    if not tag:
        return DEFAULT_LOCALE
    base = tag.strip().replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else DEFAULT_LOCALE


def translations(locale: str | None) -> NullTranslations:
    """The catalog of a language (negotiated from ``locale``); English is the identity."""
    return _catalog(negotiate(locale))


@cache
def _catalog(lang: str) -> NullTranslations:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    if lang == DEFAULT_LOCALE or not path.is_file():
        return NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled)


def gettext_for(locale: str | None) -> Gettext:
    """The ``_`` function for a language."""
    return translations(locale).gettext


def ngettext_for(locale: str | None) -> Callable[[str, str, int], str]:
    """The plural-aware ``ngettext`` for a language (three forms in Russian and Latvian, one in Korean)."""
    return translations(locale).ngettext


SUIT_SIGNS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}  # French suits read the same everywhere
SPANISH_SUITS = {"cups": N_("Cups"), "coins": N_("Coins"), "swords": N_("Swords"), "clubs": N_("Clubs")}
SUIT_PARAMS = ("suit", "suits")
CARD_PARAMS = ("card", "top", "given", "last", "low", "high")


def card_name(code: str, translate: Gettext, *, spanish: bool = False) -> str:
    """A card's wire code (``"9-clubs"``, ``"N-cups"``) as a reader of ``translate``'s language writes it."""
    rank, _, suit = code.partition("-")
    if not suit:
        return code
    if suit in SUIT_SIGNS and not (spanish and suit == "clubs"):
        return f"{rank}{SUIT_SIGNS[suit]}"
    if suit in SPANISH_SUITS:
        return f"{rank} {translate(SPANISH_SUITS[suit])}"
    return code


def suit_name(code: str, translate: Gettext, *, spanish: bool = False) -> str:
    """A suit's wire code as a word (Spanish suits) or its sign (French suits)."""
    if code in SPANISH_SUITS and (spanish or code not in SUIT_SIGNS):
        return translate(SPANISH_SUITS[code])
    return SUIT_SIGNS.get(code, code)


def refusal_text(refusal: Refusal, locale: str | None, *, spanish: bool = False) -> str:
    """A refusal in the reader's language, with its cards and suits written the way that reader reads them.

    ``spanish`` says the table plays the Spanish deck, where ``clubs`` are Clubs (Bastos), not ♣.
    """
    translate = gettext_for(locale)
    params: dict[str, str | int] = {}
    for name, value in refusal.params.items():
        if isinstance(value, str) and name in CARD_PARAMS:
            value = ", ".join(card_name(part.strip(), translate, spanish=spanish) for part in value.split(","))
        elif isinstance(value, str) and name in SUIT_PARAMS:
            value = ", ".join(suit_name(part.strip(), translate, spanish=spanish) for part in value.split(","))
        params[name] = value
    return render(refusal.reason, params, translate)
