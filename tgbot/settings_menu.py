"""The Options keyboard, built from the game's declared settings (and the table's own: seats, timer, AI).

Each setting is one button showing its value; a press moves it to the next allowed
value. Only the host may change anything; the lobby message shows this keyboard
until the host presses Done.
"""

from __future__ import annotations

from typing import Any

from telegram import CallbackQuery, Update

from engine import games
from engine.core.errors import Refusal
from engine.i18n import refusal_text
from engine.service.live import TableInfo
from tgbot.buttons import answer, pressed_table
from tgbot.callbacks import Verb, parse
from tgbot.context import Context, locale_of
from tgbot.keyboards import choices
from tgbot.option_buttons import VARIANT
from tgbot.render import translate


async def _host_in_lobby(update: Update, context: Context) -> tuple[CallbackQuery, TableInfo] | None:
    pressed = await pressed_table(update, context)
    if pressed is None:
        return None
    query, _found, info = pressed
    locale = locale_of(query.from_user)
    if info.status != "lobby":
        await answer(query, translate(locale, "The game has already started."), show_alert=True)
        return None
    if query.from_user.id != info.host_user_id:
        await answer(query, translate(locale, "Only the host can change the options."), show_alert=True)
        return None
    return query, info


async def options_button(update: Update, context: Context) -> None:
    """Options: the host opens the settings keyboard on the lobby message."""
    found = await _host_in_lobby(update, context)
    if found is None:
        return
    query, info = found
    context.bot_data.options_open.add(info.id)
    context.bot_data.notifier.refresh(info.id)
    await answer(query)


async def options_done_button(update: Update, context: Context) -> None:
    """Done: back to the lobby's buttons."""
    found = await _host_in_lobby(update, context)
    if found is None:
        return
    query, info = found
    context.bot_data.options_open.discard(info.id)
    context.bot_data.notifier.refresh(info.id)
    await answer(query)


async def set_option_button(update: Update, context: Context) -> None:
    """A setting's button: the host moves it to the value the button names."""
    found = await _host_in_lobby(update, context)
    if found is None:
        return
    query, info = found
    locale = locale_of(query.from_user)
    pressed = pressed_args(query.data)
    table_choices = choices(info)
    if pressed is None or pressed[0] >= len(table_choices) or pressed[1] >= len(table_choices[pressed[0]].values):
        await answer(query, translate(locale, "That option is no longer offered."), show_alert=True)
        return
    choice = table_choices[pressed[0]]
    value = choice.values[pressed[1]]
    try:
        await context.bot_data.service.set_options(info.id, query.from_user.id, changes(info, choice.name, value))
    except Refusal as refusal:
        await answer(query, refusal_text(refusal, locale), show_alert=True)
        return
    await answer(query, f"{translate(locale, choice.label)}: {choice.shown(value, locale)}")


def pressed_args(data: str | None) -> tuple[int, int] | None:
    """The (setting, value) indexes of a setting button."""
    found = parse(data)
    if found is None or found.verb is not Verb.SET_OPTION:
        return None
    return found.args[0], found.args[1]


def changes(info: TableInfo, name: str, value: Any) -> dict[str, Any]:
    """What one press changes: the setting, and for a new variant each setting it does not use back to its default
    (a value kept for the old variant would refuse the new one)."""
    found = {name: value}
    if name == VARIANT:
        for setting in games.get(info.game).settings:
            if setting.applies_to is not None and value not in setting.applies_to:
                found[setting.name] = setting.default
    return found
