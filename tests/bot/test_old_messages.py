"""Messages Telegram no longer lets the bot delete (48 hours after sending) are edited to say they are past."""

from __future__ import annotations

from tests.bot.conftest import ANN, GROUP, Harness
from tests.bot.friends import refused
from tests.fakes.botapi import FakeMessage

TOO_OLD = 49 * 3600


def turn_messages(bot: Harness) -> list[FakeMessage]:
    return [m for m in bot.fake.messages(ANN) if "Your turn" in m.plain or "turn here is over" in m.plain]


async def ann_moves(bot: Harness, table_id: str) -> None:
    view = await bot.service.view(table_id, ANN)
    await bot.service.act(table_id, ANN, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
    await bot.settle()


async def test_a_turn_message_too_old_to_delete_says_the_turn_is_over(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann")
    await bot.send(bot.fake.message(ANN, ANN, "/start"))
    # coins/RULES.md §3.2: Ann leads
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins target=1 first_dealer=seat:2"))
    lobby = bot.fake.last_message(GROUP)
    table_id = lobby.button("Join")["callback_data"].split(":")[1]
    for button in ("Add AI", "Add AI", "Start"):
        await bot.send(bot.fake.press(ANN, lobby, button))
    [turn] = turn_messages(bot)
    assert "Your turn in Coins" in turn.plain and turn.buttons

    bot.fake.advance(TOO_OLD)  # a relaxed game: Ann comes back two days later
    await ann_moves(bot, table_id)

    assert not turn.deleted
    assert turn.plain == "🃏 Coins — your turn here is over." and turn.buttons == []
    # one kind of refusal: the sweeper tries a delete again when its answer is lost (1 s read timeout under load)
    assert {(method, description) for method, _status, description in refused(bot)} == {
        ("deleteMessage", "Bad Request: message can't be deleted")}

    await bot.send(bot.fake.message(GROUP, ANN, "/leave"))  # an AI plays her seat to the end
    assert (await bot.service.info(table_id)).status == "finished"
    assert "game over" in [m for m in bot.fake.messages(GROUP) if "You left" not in m.plain][-1].plain
    assert not lobby.deleted and lobby.plain == "🃏 Coins — this game is over; the result is below."
    assert lobby.buttons == []
    assert [m for m in turn_messages(bot) if not m.deleted and "Your turn" in m.plain] == []
