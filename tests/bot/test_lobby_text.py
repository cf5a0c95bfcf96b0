"""Lobbies readable on a phone: the game, its headline setting and what differs from the defaults, one
"label: value" a line, only settings the variant uses; the Options keyboard keeps typed values and fits a phone."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine import games
from engine.i18n import LANGUAGES, translations
from engine.option_words import value_name
from engine.service.live import TableInfo
from engine.service.tables import TableService
from tests.bot.conftest import ANN, GROUP, Harness
from tgbot.keyboards import choices, options_keyboard
from tgbot.option_buttons import BUTTON_FITS
from tgbot.render import translate


def setting_lines(text: str) -> list[str]:
    """The lines between the title and the first seat."""
    lines = text.splitlines()[1:]
    return [line for line in lines[:lines.index("")]] if "" in lines else lines


@pytest.mark.parametrize("language", ["en", "ru", "ko", "lv"])
async def test_kings_lobby_shows_only_its_headline_setting_as_label_colon_value(bot: Harness, language: str) -> None:
    bot.fake.add_user(ANN, "Ann", language_code=language)
    await bot.send(bot.fake.message(GROUP, ANN, "/new kings"))
    lobby = bot.fake.last_message(GROUP)
    label, value = translate(language, "Scoring"), value_name("scoring", "first_out", translations(language))
    assert setting_lines(lobby.shown) == [f"{label}: {value}"]
    assert len(lobby.shown) < 400 and translate(language, "Penalty limit") not in lobby.shown


async def test_lobby_lists_changed_settings_each_on_its_line(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="en")
    await bot.send(bot.fake.message(GROUP, ANN, "/new kings scoring=penalty penalty_limit=50 draw_count=2 timer=live"))
    lines = setting_lines(bot.fake.last_message(GROUP).shown)
    assert lines == ["Scoring: Penalty points", "Cards per draw: 2", "Penalty limit: 50",
                     "Turn timer: 60 seconds a move"]


async def test_lobby_and_options_leave_out_settings_the_variant_does_not_use(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="ko")
    await bot.send(bot.fake.message(GROUP, ANN, "/new sergeant variant=alternate misere_trump=dealer_names"))
    lobby, table_id = bot.fake.last_message(GROUP), await bot.table_id()
    trump = translate("ko", "Trump in misère")
    named = value_name("misere_trump", "dealer_names", translations("ko"))
    assert f"{trump}: {named}" in setting_lines(lobby.shown)  # label and value never run together
    await bot.send(bot.fake.press(ANN, lobby, translate("ko", "Options")))
    info = await bot.service.info(table_id)
    offered = {c.name for c in choices(info)}
    assert "misere_trump" in offered and "game_end" not in offered and "woburn_first_bid" not in offered
    classic = dataclasses.replace(info, options={**info.options, "variant": "classic"})
    assert {"game_end", "woburn_first_bid"} <= {c.name for c in choices(classic)}
    assert "misere_trump" not in {c.name for c in choices(classic)}


async def test_options_keyboard_keeps_a_typed_target_among_its_values(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="en")
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins target=1"))
    lobby, table_id = bot.fake.last_message(GROUP), await bot.table_id()
    await bot.send(bot.fake.press(ANN, lobby, "Options"))
    assert "Target score: 1" in [b["text"] for b in lobby.buttons]
    await bot.send(bot.fake.press(ANN, lobby, "Turn timer: None"))
    assert (await bot.service.info(table_id)).options["target_score"] == 1
    await bot.send(bot.fake.press(ANN, lobby, "Done"))
    assert "Target score: 1" in lobby.shown
    await bot.send(bot.fake.press(ANN, lobby, "Options"))
    await bot.send(bot.fake.press(ANN, lobby, "Target score: 1"))  # the host's own press moves on to the presets
    assert (await bot.service.info(table_id)).options["target_score"] == 10


async def test_every_option_button_fits_a_phone_in_every_language(service: TableService) -> None:
    labels: list[str] = []
    for game_name in games.names():
        game = games.get(game_name)
        info = await service.create_table(game_name, 5000 + len(labels), "Ann", chat_id=GROUP)
        variants = next((s.choices for s in game.settings if s.name == "variant"), (None,))
        for variant in variants:
            base = dataclasses.replace(info, options={**info.options, **({"variant": variant} if variant else {})})
            for choice in choices(base):
                for value in choice.values:
                    table = _with_value(base, choice.name, value)
                    for language in LANGUAGES:
                        for row in options_keyboard(table, language).inline_keyboard:
                            labels += [button.text for button in row]
    assert len(labels) > 600
    too_long = sorted({text for text in labels if len(text) > BUTTON_FITS or text.endswith("…")})
    assert too_long == []


def _with_value(info: TableInfo, name: str, value: Any) -> TableInfo:
    if name == "players":
        return dataclasses.replace(info, size=value)
    if name == "timer":
        return dataclasses.replace(info, timer=value)
    if name == "ai_level":
        return dataclasses.replace(info, ai_level=value)
    return dataclasses.replace(info, options={**info.options, name: value})


async def test_options_never_offer_a_value_the_other_settings_rule_out(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="en")
    await bot.send(bot.fake.message(GROUP, ANN, "/new kings pass_rule=draw_until_playable"))
    lobby, table_id = bot.fake.last_message(GROUP), await bot.table_id()
    await bot.send(bot.fake.press(ANN, lobby, "Options"))
    await bot.send(bot.fake.press(ANN, lobby, "Draw at: End of the turn"))  # "start" cannot go with drawing until...
    answers = [c.params.get("text") for c in bot.fake.calls_to("answerCallbackQuery")]
    assert (await bot.service.info(table_id)).options["draw_timing"] == "end"
    assert not any("pass_rule" in str(text) or "draw_timing" in str(text) for text in answers)


async def test_a_new_variant_puts_back_the_settings_it_does_not_use(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="ru")
    await bot.send(bot.fake.message(GROUP, ANN, "/new sergeant game_end=all_sixteen"))
    lobby, table_id = bot.fake.last_message(GROUP), await bot.table_id()
    await bot.send(bot.fake.press(ANN, lobby, "Параметры"))
    variant = next(b["text"] for b in lobby.buttons if b["text"].startswith(translate("ru", "Variant")))
    await bot.send(bot.fake.press(ANN, lobby, variant))
    info = await bot.service.info(table_id)
    assert (info.options["variant"], info.options["game_end"]) == ("alternate", "twelve_tricks")
