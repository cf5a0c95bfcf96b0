"""The turn-messages switch of the Mini App's settings reaches the bot: a person who switched turn messages off
gets none when they leave the table mid-turn, and gets them again once switched back on."""

from __future__ import annotations

from tests.bot.conftest import BOB, Harness
from tests.bot.test_presence import bobs_table, turn_sends


async def test_no_turn_message_after_the_page_switched_them_off(bot: Harness) -> None:
    presence, people = bot.service.presence, bot.service.people
    table_id = await bobs_table(bot)
    await people.choose_turn_messages(BOB, "Bob", False)  # what PUT /api/me/turn_messages {"on": false} does

    presence.report(table_id, BOB, "phone", False)  # he leaves the table mid-turn
    await bot.settle()
    assert turn_sends(bot) == []

    presence.report(table_id, BOB, "phone", True)
    await people.choose_turn_messages(BOB, "Bob", True)
    presence.report(table_id, BOB, "phone", False)
    await bot.settle()
    assert len(turn_sends(bot)) == 1, "switched back on: told as anyone away is"
