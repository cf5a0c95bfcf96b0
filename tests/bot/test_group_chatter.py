"""A group's 20 messages a minute go first to its tables: a burst of commands delays no lobby edit.

Replies to commands in a group wait behind the tables' lobby and status edits and leave part of the
group's minute to them; a refusal to a button press is the press's answer, never a group message.
"""

from __future__ import annotations

import asyncio

from engine.service.tables import TableService
from tests.bot.conftest import ANN, BOB, GROUP, make_harness
from tgbot.app import stop_bot

SCALE = 0.1  # a minute of Telegram's group limit lasts 6 s here
BURST = 30
TOGGLES = 6  # Bob joins and leaves the lobby, one change every few (scaled) seconds, while the burst is answered
PACE = 60 / 19  # seconds between two of a group's messages at the budget's own pace
ALLOWED = 5.0  # seconds a lobby edit may wait beyond that pace


async def test_a_burst_of_commands_in_a_group_delays_no_lobby_edit(service: TableService) -> None:
    bot = await make_harness(service, scale=SCALE)
    try:
        fake = bot.fake
        fake.add_user(ANN, "Ann")
        fake.add_user(BOB, "Bobby")
        await bot.send(fake.message(GROUP, ANN, "/new"))
        lobby = fake.last_message(GROUP)
        chatters = list(range(3000, 3000 + BURST))
        for person in chatters:
            fake.add_user(person, f"P{person}")
        for i, person in enumerate(chatters):  # thirty people send a command at once
            await fake.send_update(fake.message(GROUP, person, "/stats" if i % 2 else "/rules"))
        delays = []
        for i in range(TOGGLES):
            await asyncio.sleep(2.5 * SCALE)
            pressed_at = fake.clock()
            await fake.send_update(fake.press(BOB, lobby, "Leave" if i % 2 else "Join"))
            seated = i % 2 == 0
            async with asyncio.timeout(120 * SCALE + 10):
                while True:
                    shown = [e for e in fake.calls_to("editMessageText")
                             if e.time >= pressed_at and e.params.get("message_id") == lobby.message_id
                             and ("Bobby" in str(e.params.get("text"))) == seated]
                    if shown:
                        break
                    await asyncio.sleep(0.01)
            delays.append((shown[0].time - pressed_at) / SCALE)
        await bot.settle(within=120)
        replies = [m for m in fake.messages(GROUP) if m.from_bot and m.message_id != lobby.message_id]
        assert len(replies) == BURST  # every command was answered, in the end
        assert fake.count_429 == 0
        print("lobby edit delays (Telegram seconds):", [round(d, 1) for d in delays])
        assert max(delays) <= PACE + ALLOWED, delays
    finally:
        await stop_bot(bot.application)
        await bot.fake.close()


async def test_a_refused_button_press_is_answered_on_the_button_not_in_the_group(service: TableService) -> None:
    bot = await make_harness(service)
    try:
        fake = bot.fake
        fake.add_user(ANN, "Ann", language_code="lv")
        fake.add_user(BOB, "Bob", language_code="ru")
        await bot.send(fake.message(GROUP, ANN, "/new"))
        lobby = fake.last_message(GROUP)
        in_group = len(fake.messages(GROUP))
        await bot.send(fake.press(BOB, lobby, "Sākt"))  # only the host deals
        answer = fake.calls_to("answerCallbackQuery")[-1].params
        assert answer["show_alert"] in (True, "true") and "хозя" in str(answer["text"])
        assert len(fake.messages(GROUP)) == in_group
    finally:
        await stop_bot(bot.application)
        await bot.fake.close()
