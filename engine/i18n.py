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

from engine import words
from engine.core.errors import N_, Refusal, render

__all__ = ["LANGUAGES", "N_", "gettext_for", "negotiate", "ngettext_for", "refusal_text", "translations"]

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


# How each kind of refusal parameter reads in the reader's language, with the forms a translation may ask for
# (``{card:acc}``, ``{suit:gen}``, ``{card:을}``); the others (numbers, names, what someone typed) are shown as
# they are, and read the same in every form.
Wording = Callable[[str, NullTranslations, bool], words.Named]
WORDINGS: dict[str, Wording] = {
    "card": lambda v, r, spanish: words.named_card(v, r, spanish=spanish),
    "top": lambda v, r, spanish: words.named_card(v, r, spanish=spanish),
    "suit": lambda v, r, spanish: words.named_suit(v, r, spanish=spanish),
    "suits": lambda v, r, spanish: words.named_suit(v, r, spanish=spanish),
    "call": lambda v, r, _spanish: words.Named(words.call_name(v, r)),
    "calls": lambda v, r, _spanish: words.Named(words.call_name(v, r)),
    "space": lambda v, r, _spanish: words.Named(words.space_name(v, r)),
    "action": lambda v, r, _spanish: words.Named(words.action_name(v, r)),
    "phase": lambda v, r, _spanish: words.Named(words.phase_name(v, r)),
    "game": lambda v, r, _spanish: words.Named(words.game_title(v, r)),
}


def refusal_text(refusal: Refusal, locale: str | None, *, spanish: bool = False) -> str:
    """Any refusal in the reader's language, its cards, suits, spaces, moves and steps in that language's words.

    ``spanish`` says the table plays the Spanish deck, where ``clubs`` are Clubs (Bastos), not ♣.
    """
    reader = translations(locale)
    params: dict[str, str | int] = {}
    for name, value in refusal.params.items():
        wording = WORDINGS.get(name)
        if isinstance(value, str) and wording is not None:  # lists arrive joined by commas
            value = words.named_list([wording(part.strip(), reader, spanish) for part in value.split(",")])
        elif isinstance(value, str):
            value = words.Named(value)
        params[name] = value
    return render(refusal.reason, params, reader.gettext)
