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


async def test_names_and_a_groups_title_are_isolated_in_stats_history_lobby_settings_and_turn_messages(
    bot: Harness,
) -> None:
    bot.fake.add_group(GROUP, "שולחן")  # a right-to-left group title
    bot.fake.add_user(ANN, "Ann")
    bot.fake.add_user(BOB, "בוב")
    await bot.send(bot.fake.message(BOB, BOB, "/stats"))
    assert bot.fake.last_message(BOB).plain.startswith("📊 \u2068בוב\u2069")
    await bot.send(bot.fake.message(BOB, BOB, "/history"))
    assert "\u2068בוב\u2069" in bot.fake.last_message(BOB).plain

    await bot.send(bot.fake.message(GROUP, ANN, "/new coins first_dealer=seat:1"))
    lobby = bot.fake.last_message(GROUP)
    await bot.send(bot.fake.press(BOB, lobby, "Join"))
    assert lobby.plain.count("\u2068בוב\u2069") == 2, lobby.plain  # his seat, and the setting that names him
    await bot.send(bot.fake.message(BOB, BOB, f"/start t_{await bot.table_id()}"))  # turn messages for Bob
    await bot.send(bot.fake.press(ANN, lobby, "Add AI"))
    await bot.send(bot.fake.press(ANN, lobby, "Start"))
    table_id = await bot.table_id()
    for _ in range(60):  # Ann plays her turns; Bob, away, is told of his
        await bot.settle()
        turns = [m for m in bot.fake.messages(BOB) if "Your turn" in m.plain]
        if turns:
            assert "(\u2068שולחן\u2069)" in turns[-1].plain, turns[-1].plain
            return
        info = await bot.service.info(table_id)
        view = await bot.service.view(table_id, ANN)
        if info.seats[0].seat in info.to_act:
            await bot.service.act(table_id, ANN, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
    raise AssertionError("Bob never had a turn")
