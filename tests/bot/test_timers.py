"""Turn timers seen through the bot: the turn message warns before expiry, the group shows who is away."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.service.live import SeatInfo, TableInfo
from engine.service.tables import TableService
from engine.service.timers import AUTOPILOT_AFTER
from engine.store.database import Store, database_url
from tests.bot.conftest import BOB, GROUP, Harness, make_harness
from tests.clock import ManualClock
from tests.fakes.botapi import FakeMessage
from tests.fakes.botapi.model import shown as strip_isolates
from tgbot.app import stop_bot
from tgbot.render import render


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(5_000_000.0)


@pytest.fixture
async def timed_bot(tmp_path: Path, clock: ManualClock) -> AsyncIterator[Harness]:
    store = Store(database_url(None, tmp_path))
    await store.open()
    service = TableService(store, ai_delay=0, clock=clock, run_timers=False)
    await service.start()
    harness = await make_harness(service)
    yield harness
    await stop_bot(harness.application)
    await harness.fake.close()
    await service.close()
    await store.close()


def live_turn_messages(bot: Harness) -> list[FakeMessage]:
    return [m for m in bot.fake.messages(BOB) if "Your turn in Coins" in m.shown and not m.deleted]


async def test_reminder_replaces_the_turn_message_and_expiries_put_the_seat_on_autopilot(
    timed_bot: Harness, clock: ManualClock
) -> None:
    bot, fake = timed_bot, timed_bot.fake
    fake.add_user(BOB, "Bob")
    await bot.send(fake.message(BOB, BOB, "/start"))
    await bot.send(fake.message(GROUP, BOB, "/new coins timer=live"))
    table_id = await bot.table_id()
    lobby = fake.messages(GROUP)[0]
    await bot.send(fake.press(BOB, lobby, "Add AI"))
    await bot.send(fake.press(BOB, lobby, "Add AI"))
    await bot.send(fake.press(BOB, lobby, "Start"))

    for expiry in range(1, AUTOPILOT_AFTER + 1):
        await bot.settle()
        info = await bot.service.info(table_id)
        assert info.to_act == (info.seat_of(BOB),) and info.deadline == clock.now + 60
        [turn] = live_turn_messages(bot)
        assert "Time is nearly up" not in turn.shown
        clock.now += 49  # four fifths of the minute passed: the reminder is due
        await bot.service.tick_timers()
        await bot.settle()
        [reminder] = live_turn_messages(bot)  # a fresh message, which makes the phone buzz (an edit does not)
        assert turn.deleted and reminder.message_id != turn.message_id and "Time is nearly up" in reminder.shown
        turn = reminder
        clock.now += 15
        await bot.service.tick_timers()
        await bot.settle()
        info = await bot.service.info(table_id)
        assert turn.deleted, "the AI played Bob's turn, so its message is gone"
        assert all(m.message_id != turn.message_id and "Time is nearly up" not in m.shown
                   for m in live_turn_messages(bot))  # with no AI delay his next turn may already be here
        log = await bot.service.store.tables.load_actions(table_id)
        stood_in = sum(1 for a in log if a.auto and a.seat == info.seat_of(BOB))
        if expiry < AUTOPILOT_AFTER:
            assert stood_in == expiry  # one turn played for him, then he is waited for again
            assert "away" not in fake.last_message(GROUP).shown
        else:
            assert stood_in > expiry  # on autopilot every later turn of his is played at once
    await bot.settle()
    assert fake.count_429 == 0


def test_group_status_names_a_seat_on_autopilot() -> None:
    seats = (SeatInfo(0, "Bob", BOB, False, True), SeatInfo(1, "Ada (AI)", None, True, False),
             SeatInfo(2, "Cleo", 99, False, False))
    table = TableInfo("t1", "coins", "Coins", {}, 3, "playing", BOB, GROUP, seats, 7, "h", None, "live", None,
                      (2,), None, "easy")
    people = {0: {"can_message": True}, 2: {"can_message": True}}
    text = strip_isolates(render("status.html", None, table=table, people=people,
                                 state={"scores": [1, 2, 3], "target_score": 10}))
    assert "Bob: 1 (away: an AI plays for them)" in text
    assert "Cleo: 3 (away" not in text and "Cleo to play." in text
