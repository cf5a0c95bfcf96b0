"""A lobby's buttons work the moment the lobby appears, before Telegram has told the bot its message id."""

from __future__ import annotations

from tests.bot.conftest import ANN, BOB, CID, GROUP, Harness
from tests.fakes.botapi import FakeMessage
from tests.waiting import until
from tgbot.records import TABLE

HELD = 0.8  # seconds Telegram holds back its answer to the lobby's sendMessage (the bot waits up to 1 s)


async def _lobby_posted_but_unanswered(bot: Harness) -> FakeMessage:
    """Ann's /new in the group, with the lobby shown in the group while the bot still waits for its message id."""
    for user, name in ((ANN, "Ann"), (BOB, "Bob"), (CID, "Cid")):
        bot.fake.add_user(user, name)
    await bot.send(bot.fake.message(BOB, BOB, "/start"))  # Bob can be messaged: his Join is answered in words
    shown = len(bot.fake.messages(GROUP))
    bot.fake.inject_fault("sendMessage", "timeout_after_effect", delay=HELD)
    await bot.fake.send_update(bot.fake.message(GROUP, ANN, "/new coins"))
    await until(lambda: len(bot.fake.messages(GROUP)) > shown)
    lobby = bot.fake.last_message(GROUP)
    assert lobby.buttons
    return lobby


async def _answered(bot: Harness, press: dict[str, object]) -> str:
    await until(lambda: bot.fake.answer_to(press) is not None)
    answer = bot.fake.answer_to(press)
    assert answer is not None
    return str(answer.get("text"))


async def test_join_pressed_before_the_lobby_message_id_is_known_seats_the_person(bot: Harness) -> None:
    lobby = await _lobby_posted_but_unanswered(bot)
    table_id = lobby.button("Join")["callback_data"].split(":")[1]
    press = bot.fake.press(BOB, lobby, "Join")
    await bot.fake.send_update(press)
    said = await _answered(bot, press)
    record = await bot.application.bot_data.records.get(table_id, TABLE)
    assert record is not None and record.message_id is None  # the press really came before the message id
    assert said == "You have a seat. I will message you when it is your turn."
    await bot.settle()
    info = await bot.service.info(table_id)
    assert info.seat_of(BOB) == 1
    assert "Bob" in bot.fake.last_message(GROUP).plain  # the lobby, once known, shows him seated


async def test_a_button_of_another_tables_message_is_still_refused_while_a_lobby_posts(bot: Harness) -> None:
    for user, name in ((ANN, "Ann"), (BOB, "Bob"), (CID, "Cid")):
        bot.fake.add_user(user, name)
    await bot.send(bot.fake.message(GROUP, CID, "/new coins"))
    older = bot.fake.last_message(GROUP)
    lobby = await _lobby_posted_but_unanswered(bot)
    assert lobby is not older
    table_id = lobby.button("Join")["callback_data"].split(":")[1]
    press = bot.fake.callback_query(BOB, older, f"j:{table_id}")  # the new table's Join, on the older lobby
    await bot.fake.send_update(press)
    assert await _answered(bot, press) == "That button does not belong to this table's message."
    await bot.settle()
    assert (await bot.service.info(table_id)).seat_of(BOB) is None
