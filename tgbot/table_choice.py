"""The "Which table?" buttons: one per table, short enough for a phone, each saying what tells it from the others
(game, whether it is on, host, setting, who sits there), so one host's several lobbies never show identical buttons."""

from __future__ import annotations

from collections.abc import Callable

from engine.catalogue import headline_setting
from engine.i18n import N_, translations
from engine.option_words import value_name
from engine.service.live import TableInfo
from engine.words import game_title
from tgbot.render import translate

Part = Callable[[TableInfo, str | None], str]


def _status(info: TableInfo, locale: str | None) -> str:
    return translate(locale, N_("lobby") if info.status == "lobby" else N_("playing"))


def _host(info: TableInfo, _locale: str | None) -> str:
    return next((s.name for s in info.seats if s.user_id == info.host_user_id), "?")


def _headline(info: TableInfo, locale: str | None) -> str:
    setting = headline_setting(info.game)
    if setting is None:
        return ""
    return value_name(setting.name, info.options.get(setting.name, setting.default), translations(locale))


def _seated(info: TableInfo, locale: str | None) -> str:
    people = [s.name for s in info.seats if s.user_id is not None and s.user_id != info.host_user_id]
    ai = sum(1 for s in info.seats if s.is_ai)
    taken = translate(locale, N_("%(seated)d of %(size)d seats")) % {
        "seated": len(people) + ai + 1, "size": info.size}
    return ", ".join([taken, *people])


PARTS: tuple[Part, ...] = (_status, _host, _headline, _seated)


def table_labels(tables: list[TableInfo], locale: str | None) -> list[str]:
    """A label per table (newest first): its game, then, among tables whose labels are alike, only what tells them
    apart (whether it is on, its host, its headline setting, who is seated), and last their place (1 the newest)."""
    labels = [game_title(t.title, translations(locale)) for t in tables]
    for part in PARTS:
        words = [part(t, locale) for t in tables]
        alike = {label: {w for w, other in zip(words, labels, strict=True) if other == label} for label in labels}
        labels = [f"{label} · {word}" if len(alike[label]) > 1 else label
                  for label, word in zip(labels, words, strict=True)]
    return [f"{label} · #{i + 1}" if labels.count(label) > 1 else label for i, label in enumerate(labels)]
