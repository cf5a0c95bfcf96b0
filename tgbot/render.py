"""Message texts: jinja2 templates in ``templates/bot/``, autoescaped for Telegram's HTML, translated.

Templates call ``_("...")`` (the gettext of the locale being rendered) and get the
values passed to ``render``; the result is Telegram HTML (only its small tag set).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from engine.i18n import gettext_for, ngettext_for, translations
from engine.option_words import value_name
from engine.words import game_title

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "bot"
_locale: ContextVar[str | None] = ContextVar("bot_locale", default=None)


def _gettext(message: str) -> str:
    return gettext_for(_locale.get())(message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return ngettext_for(_locale.get())(singular, plural, n)


def person(name: str) -> Markup:
    """A person's name isolated from the text around it (U+2068 … U+2069), so right-to-left letters in it
    cannot reorder what follows."""
    return Markup("\u2068{}\u2069").format(name)


def mention(name: str, user_id: int | None) -> Markup:
    """A name that notifies its user when posted: a text mention when the user is known; isolated like ``person``."""
    if user_id is None or user_id <= 0:
        return person(name)
    return Markup('\u2068<a href="tg://user?id={}">{}</a>\u2069').format(user_id, name)


def setting_value(name: str, value: Any, seats: Mapping[int, str] | None = None) -> str:
    """A setting's value in the words of the language being rendered (``seats``: who a ``seat:N`` value names, a
    person's name, isolated like ``person``)."""
    shown = value_name(name, value, translations(_locale.get()), seats)
    return person(shown) if seats and shown in seats.values() else shown


def title(game_title_text: str) -> str:
    """A game's title in the language being rendered."""
    return game_title(game_title_text, translations(_locale.get()))


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(["html"], default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals["mention"] = mention
    env.globals["setting_value"] = setting_value
    env.filters["game"] = title
    env.filters["person"] = person
    return env


_ENV = _environment()


@contextmanager
def in_locale(locale: str | None) -> Iterator[None]:
    """Render and translate in ``locale`` inside the block."""
    token = _locale.set(locale)
    try:
        yield
    finally:
        _locale.reset(token)


def render(name: str, locale: str | None = None, **values: Any) -> str:
    """The template ``name`` (like ``"lobby.html"``) rendered in ``locale`` as Telegram HTML."""
    with in_locale(locale):
        text = _ENV.get_template(name).render(**values)
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def has_template(name: str) -> bool:
    """Whether a template exists (per-game rules, say)."""
    return (TEMPLATES / name).is_file()


def translate(locale: str | None, message: str) -> str:
    """One plain string in ``locale``."""
    return gettext_for(locale)(message)

