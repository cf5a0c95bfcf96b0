"""Telegram names reach the tables cleaned: no NUL, no bidi override, no line break in a seat's name."""

from __future__ import annotations

from telegram import User

from tests.bot.conftest import ANN, BOB, GROUP, Harness
from tgbot.context import display_name

HOSTILE = "Bob\u0000\u202e Ray\nJr"


def test_display_name_drops_control_and_format_characters() -> None:
    assert display_name(User(BOB, HOSTILE, False, last_name="\u2066Lee\ufeff")) == "Bob Ray Jr Lee"


def test_display_name_falls_back_to_the_username_then_the_id() -> None:
    assert display_name(User(BOB, "\u202e\u0000", False, username="bob_r")) == "bob_r"
    assert display_name(User(BOB, "\n\u200b", False)) == str(BOB)


async def test_a_seat_taken_from_telegram_holds_the_cleaned_name(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann")
    bot.fake.add_user(BOB, HOSTILE)
    await bot.send(bot.fake.message(GROUP, ANN, "/new"))
    lobby = bot.fake.last_message(GROUP)
    await bot.send(bot.fake.press(BOB, lobby, "Join"))
    info = await bot.service.info(await bot.table_id())
    assert [seat.name for seat in info.seats if seat.user_id == BOB] == ["Bob Ray Jr"]
    person = await bot.service.people.person(BOB)
    assert person is None or person.name == "Bob Ray Jr"


async def test_a_right_to_left_name_is_isolated_in_the_groups_message(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann")
    bot.fake.add_user(BOB, "בוב")
    await bot.send(bot.fake.message(GROUP, ANN, "/new"))
    lobby = bot.fake.last_message(GROUP)
    await bot.send(bot.fake.press(BOB, lobby, "Join"))
    text = bot.fake.last_message(GROUP).plain
    assert "\u2068בוב\u2069" in text  # the seat's name cannot carry the text after it into right-to-left
    assert "\u2068Ann\u2069" in text
    assert text.count("\u2068") == text.count("\u2069")
