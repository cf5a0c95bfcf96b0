"""The bot's inline keyboards: a lobby's buttons and the Options keyboard built from a table's settings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine import games
from engine.core.errors import Refusal
from engine.i18n import N_, translations
from engine.option_words import value_name
from engine.service.live import TableInfo
from engine.service.table_settings import AI_LEVELS
from engine.service.timers import TIMERS
from tgbot.callbacks import Verb, button_data
from tgbot.links import Links
from tgbot.option_buttons import SHORT_LABELS, VARIANT, button_text, used_settings
from tgbot.render import translate


def lobby_keyboard(info: TableInfo, links: Links, locale: str | None, *, private: bool = False) -> InlineKeyboardMarkup:
    """Join, Leave, Add AI, Options, Start, Open table."""
    def _(text: str) -> str:
        return translate(locale, text)

    def press(label: str, verb: Verb) -> InlineKeyboardButton:
        return InlineKeyboardButton(_(label), callback_data=button_data(verb, info.id))

    return InlineKeyboardMarkup([
        [press(N_("Join"), Verb.JOIN), press(N_("Leave"), Verb.LEAVE)],
        [press(N_("Add AI"), Verb.ADD_AI), press(N_("Options"), Verb.OPTIONS)],
        [press(N_("Start"), Verb.START)],
        [links.open_button(_("Open table"), info.id, private=private)],
    ])



@dataclass(frozen=True, slots=True)
class Choice:
    """One setting a lobby can change: its name, label, allowed values and current value."""

    name: str
    label: str
    values: tuple[Any, ...]
    current: Any
    seats: Mapping[int, str]  # the players a ``seat:N`` value may name

    def shown(self, value: Any, locale: str | None) -> str:
        """A value of this setting in the reader's words (the Mini App's words for it)."""
        return value_name(self.name, value, translations(locale), self.seats)

    def next_index(self) -> int:
        """The index of the value after the current one (the first when the current one is not a preset)."""
        if self.current in self.values:
            return (self.values.index(self.current) + 1) % len(self.values)
        return 0


def seat_names(info: TableInfo) -> dict[int, str]:
    """The names of the seats that have a player."""
    return {s.seat: s.name for s in info.seats if s.is_ai or s.user_id is not None}


def _with_current(values: tuple[Any, ...], current: Any) -> tuple[Any, ...]:
    """The presets, and a value typed with /new that is none of them in its place among them (so a press moves on
    from it and the round comes back to it, instead of dropping it)."""
    if current in values:
        return values
    if isinstance(current, int) and not isinstance(current, bool) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in values):
        return tuple(sorted((*values, current)))
    return (*values, current)


def _allowed(info: TableInfo, name: str, value: Any) -> bool:
    """Whether the game takes this value of a setting beside the table's other settings."""
    try:
        games.get(info.game).parse_options({**info.options, name: value})
    except Refusal:
        return False
    return True


def choices(info: TableInfo) -> list[Choice]:
    """Every setting of a table that its variant uses and that has more than one value to pick from, in a fixed
    order; a typed value that is not a preset is kept among the values."""
    game, seats = games.get(info.game), seat_names(info)
    found = []
    for s in used_settings(info):
        current = info.options.get(s.name, s.default)
        if len(s.choices) > 1:
            values = _with_current(tuple(s.choices), current)
            if s.name != VARIANT:  # never a value the other settings rule out (a new variant resets them)
                values = tuple(v for v in values if v == current or _allowed(info, s.name, v))
            found.append(Choice(s.name, s.label, values, current, seats))
    if game.min_players != game.max_players:
        found.append(Choice("players", N_("Players"), tuple(range(game.min_players, game.max_players + 1)), info.size,
                            seats))
    found.append(Choice("timer", N_("Turn timer"), tuple(TIMERS), info.timer, seats))
    found.append(Choice("ai_level", N_("AI players"), AI_LEVELS, info.ai_level, seats))
    return found


def options_keyboard(info: TableInfo, locale: str | None) -> InlineKeyboardMarkup:
    """One button per setting (label: value, as fits a phone), then Done."""
    rows = [[InlineKeyboardButton(option_label(c, locale),
                                  callback_data=button_data(Verb.SET_OPTION, info.id, i, c.next_index()))]
            for i, c in enumerate(choices(info))]
    done = InlineKeyboardButton(translate(locale, "Done"), callback_data=button_data(Verb.OPTIONS_DONE, info.id))
    rows.append([done])
    return InlineKeyboardMarkup(rows)


def option_label(choice: Choice, locale: str | None) -> str:
    """A setting's button: its label and current value, shortened to fit a phone."""
    short = SHORT_LABELS.get(choice.name)
    return button_text(translate(locale, choice.label), translate(locale, short) if short else None,
                       choice.shown(choice.current, locale))
