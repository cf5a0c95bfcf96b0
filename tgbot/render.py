"""Message texts: jinja2 templates in ``templates/bot/``, autoescaped for Telegram's HTML, translated.

Templates call ``_("...")`` (the gettext of the locale being rendered) and get the
values passed to ``render``; the result is Telegram HTML (only its small tag set).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from engine.core.errors import Refusal
from engine.i18n import N_, gettext_for, ngettext_for

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "bot"
_locale: ContextVar[str | None] = ContextVar("bot_locale", default=None)


def _gettext(message: str) -> str:
    return gettext_for(_locale.get())(message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return ngettext_for(_locale.get())(singular, plural, n)


def mention(name: str, user_id: int | None) -> Markup:
    """A name that notifies its user when posted: a text mention when the user is known."""
    if user_id is None or user_id <= 0:
        return escape(name)
    return Markup('<a href="tg://user?id={}">{}</a>').format(user_id, name)


def show_value(value: Any) -> str:
    """A setting's value as people read it."""
    if isinstance(value, bool):
        return _gettext(N_("on")) if value else _gettext(N_("off"))
    return str(value).replace("_", " ")


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
    env.filters["value"] = show_value
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


_REFUSALS = {
    "table_not_found": N_("That table no longer exists."),
    "table_full": N_("This table is full."),
    "already_seated": N_("You already have a seat at this table."),
    "already_started": N_("The game has already started."),
    "not_host": N_("Only the host can do that."),
    "not_seated": N_("You do not have a seat at this table."),
    "game_over": N_("The game is over."),
    "abandoned": N_("This table was cancelled."),
    "not_started": N_("The game has not started yet."),
}


def refusal_text(refusal: Refusal, locale: str | None) -> str:
    """A refusal in words for its sender: by code where there is a sentence for it, else its own message."""
    return translate(locale, _REFUSALS.get(refusal.code, refusal.message))
