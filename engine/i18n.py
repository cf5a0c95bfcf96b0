"""Translations: every user-facing string goes through ``gettext`` of a locale.

Catalogs live in ``locale/<lang>/LC_MESSAGES/messages.mo`` (Babel: ``pybabel extract``,
``init``, ``compile``); English is the source language, so a missing catalog falls back
to the English text. Refusal codes are translated by code (``refusal_text``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

from babel.support import NullTranslations, Translations

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DEFAULT_LOCALE = "en"

Gettext = Callable[[str], str]


@cache
def translations(locale: str | None) -> NullTranslations:
    """The catalog for a locale (like ``"en"`` or ``"pt-br"``), falling back to English."""
    lang = (locale or DEFAULT_LOCALE).replace("-", "_")
    return Translations.load(str(LOCALE_DIR), [lang, lang.split("_")[0], DEFAULT_LOCALE], "messages")


def gettext_for(locale: str | None) -> Gettext:
    """The ``_`` function for a locale."""
    return translations(locale).gettext


def ngettext_for(locale: str | None) -> Callable[[str, str, int], str]:
    """The plural-aware ``ngettext`` for a locale."""
    return translations(locale).ngettext
