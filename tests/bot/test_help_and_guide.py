"""/help lists every command with the games' true defaults; inline mode is one button away; no private message
goes unanswered; games may be named in the reader's language."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
from telegram.ext import CommandHandler

from engine import games
from engine.service.tables import TableService
from tests.bot.conftest import ANN, BOB, BOT_USERNAME, GROUP, SCALE, Harness, make_harness
from tests.fakes.botapi import FakeBotApi
from tgbot.app import stop_bot
from tgbot.arguments import OPTION_ALIASES

LANGUAGES = ("en", "ru", "ko", "lv")
EXAMPLE = re.compile(r"/new (\w+) (\w+)=(\w+)")


@pytest.fixture
async def inline_bot(service: TableService) -> AsyncIterator[Harness]:
    """The bot of an owner who switched inline mode on (BotFather's /setinline) before it started."""
    fake = FakeBotApi(bot_username=BOT_USERNAME, time_scale=SCALE)
    await fake.start()
    fake.set_inline_mode(True)
    harness = await make_harness(service, fake=fake)
    yield harness
    await stop_bot(harness.application)
    await fake.close()


def registered_commands(bot: Harness) -> set[str]:
    return {command for handlers in bot.application.handlers.values() for handler in handlers
            if isinstance(handler, CommandHandler) for command in handler.commands}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_help_lists_every_registered_command_and_true_defaults(inline_bot: Harness, language: str) -> None:
    bot = inline_bot
    bot.fake.add_user(ANN, "Ann", language_code=language)
    await bot.send(bot.fake.message(ANN, ANN, "/help"))
    text = bot.fake.last_message(ANN).plain
    commands = registered_commands(bot)
    assert {"new", "top", "history", "language", "help", "start"} <= commands
    assert [c for c in sorted(commands) if not re.search(rf"^/{c}\b", text, re.MULTILINE)] == []
    examples = EXAMPLE.findall(text)
    assert {game for game, _, _ in examples} == set(games.names())
    for game, typed, shown in examples:
        setting = next(s for s in games.get(game).settings if s.name == OPTION_ALIASES.get(typed, typed))
        assert shown == str(setting.default)
    assert "target=15" not in text and "target=10" in text
    assert f"@{BOT_USERNAME}" in text


@pytest.mark.parametrize("command", ["/start", "/help"])
async def test_start_and_help_offer_play_with_a_friend_through_inline_mode(inline_bot: Harness, command: str) -> None:
    inline_bot.fake.add_user(ANN, "Ann", language_code="ru")
    await inline_bot.send(inline_bot.fake.message(ANN, ANN, command))
    button = inline_bot.fake.last_message(ANN).button("👥 Играть с другом")
    assert button["switch_inline_query"] == ""


@pytest.mark.parametrize("command", ["/start", "/help"])
async def test_without_inline_mode_nothing_points_to_it(bot: Harness, command: str) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="ko")
    await bot.send(bot.fake.message(ANN, ANN, command))
    answer = bot.fake.last_message(ANN)
    assert answer.buttons == [] and f"@{BOT_USERNAME}" not in answer.plain and "/new" in answer.plain


async def test_help_in_a_group_goes_to_the_private_chat_of_someone_the_bot_may_write_to(inline_bot: Harness) -> None:
    bot = inline_bot
    bot.fake.add_user(ANN, "Ann", language_code="lv")
    bot.fake.add_user(BOB, "Bob", language_code="en")
    await bot.send(bot.fake.message(ANN, ANN, "/start"))
    in_group = len(bot.fake.messages(GROUP))
    await bot.send(bot.fake.message(GROUP, ANN, "/help"))
    assert len(bot.fake.messages(GROUP)) == in_group  # nothing spent of the group's budget
    assert "/language" in bot.fake.last_message(ANN).plain and "Spēlēt ar draugu" in str(
        bot.fake.last_message(ANN).buttons)
    await bot.send(bot.fake.message(GROUP, BOB, "/help"))  # Bob never started the bot: the group gets it
    assert "/new [game] [setting=value]" in bot.fake.last_message(GROUP).plain


@pytest.mark.parametrize(("language", "typed", "expected"), [
    ("en", "/frobnicate", "I do not know that command"),
    ("ru", "/frobnicate", "Такой команды я не знаю"),
    ("ko", "안녕하세요", "/new"),
    ("lv", "sveiki", "Nosūti /new"),
])
async def test_every_private_message_gets_an_answer(bot: Harness, language: str, typed: str, expected: str) -> None:
    bot.fake.add_user(ANN, "Ann", language_code=language)
    await bot.send(bot.fake.message(ANN, ANN, typed))
    answer = bot.fake.last_message(ANN)
    assert answer.from_bot and expected in answer.plain


async def test_unknown_commands_in_a_group_get_no_answer(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann")
    await bot.send(bot.fake.message(GROUP, ANN, "/frobnicate"))
    assert not [m for m in bot.fake.messages(GROUP) if m.from_bot]


@pytest.mark.parametrize(("typed", "game"), [
    ("монеты", "coins"), ("Монеты", "coins"), ("코인", "coins"), ("karaļi", "kings_corner"),
    ("короли", "kings_corner"), ("сержант-майор", "sergeant_major"), ("kings", "kings_corner"),
])
async def test_new_takes_a_game_by_its_name_in_any_language(bot: Harness, typed: str, game: str) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="ru")
    await bot.send(bot.fake.message(GROUP, ANN, f"/new {typed}"))
    assert (await bot.service.info(await bot.table_id())).game == game


async def test_new_refuses_a_word_that_names_no_game(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann")
    await bot.send(bot.fake.message(GROUP, ANN, "/new к"))  # one letter names no game alone
    assert "There is no game called" in bot.fake.last_message(GROUP).plain


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("typed", ["target=0", "target=lots", "colour=red"])
async def test_a_refused_new_names_settings_as_they_are_typed(bot: Harness, language: str, typed: str) -> None:
    bot.fake.add_user(ANN, "Ann", language_code=language)
    await bot.send(bot.fake.message(GROUP, ANN, f"/new coins {typed}"))
    text = bot.fake.last_message(GROUP).plain
    assert "target" in text and "target_score" not in text


@pytest.mark.parametrize(("language", "said"), [
    ("en", "“Draw until a card can be played”"), ("ru", "«Брать, пока не найдётся ход»"),
    ("ko", "“낼 수 있을 때까지 뽑기”"), ("lv", "“Ņemt, līdz var izspēlēt”"),
])
async def test_a_refused_combination_of_settings_names_them_as_a_player_reads_them(bot: Harness, language: str,
                                                                                   said: str) -> None:
    bot.fake.add_user(ANN, "Ann", language_code=language)
    await bot.send(bot.fake.message(GROUP, ANN, "/new kings pass_rule=draw_until_playable draw_timing=start"))
    text = bot.fake.last_message(GROUP).plain
    assert said in text and "pass_rule" not in text and "draw_timing" not in text, text


async def test_the_game_over_message_offers_play_with_a_friend(inline_bot: Harness) -> None:
    bot = inline_bot
    bot.fake.add_user(ANN, "Ann", language_code="lv")
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins target=1"))
    await bot.send(bot.fake.press(ANN, bot.fake.last_message(GROUP), "Sākt"))
    await bot.send(bot.fake.message(GROUP, ANN, "/leave"))  # an AI plays her seat to the end
    await bot.settle()
    summary = next(m for m in bot.fake.messages(GROUP) if "🏁" in m.plain)
    assert summary.button("👥 Spēlēt ar draugu")["switch_inline_query"] == ""
