"""The "Which table?" buttons: one per table, each saying what tells it from the others (game, setting, who sits
there), so one host's several lobbies never show identical buttons."""

from __future__ import annotations

from engine.catalogue import headline_setting
from engine.i18n import N_, translations
from engine.option_words import value_name
from engine.service.live import TableInfo
from engine.words import game_title
from tgbot.render import translate


def _base(info: TableInfo, locale: str | None) -> str:
    host = next((s.name for s in info.seats if s.user_id == info.host_user_id), "?")
    status = translate(locale, N_("lobby") if info.status == "lobby" else N_("playing"))
    return translate(locale, "%(game)s, %(status)s, host %(host)s") % {
        "game": game_title(info.title, translations(locale)), "status": status, "host": host}


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


def table_labels(tables: list[TableInfo], locale: str | None) -> list[str]:
    """A label per table (newest first), each made longer only as far as needed to differ from the others: its game
    and host, then its headline setting, then who is seated, then its place among them (1 is the newest)."""
    labels = [_base(t, locale) for t in tables]
    for part in (_headline, _seated):
        if len(set(labels)) == len(labels):
            return labels
        labels = [f"{label} · {part(t, locale)}" if labels.count(label) > 1 else label
                  for label, t in zip(labels, tables, strict=True)]
    if len(set(labels)) == len(labels):
        return labels
    return [f"{label} · #{i + 1}" if labels.count(label) > 1 else label for i, label in enumerate(labels)]
