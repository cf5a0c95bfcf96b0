"""Turn messages follow presence: none to a person at the table, one after the grace to one who leaves mid-turn."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.bot.conftest import ANN, BOB, GROUP, Harness, make_harness
from tests.clock import ManualClock
from tests.fakes.botapi import Call, FakeMessage
from tgbot.app import stop_bot

GRACE = 0.4


def turn_messages(bot: Harness) -> list[FakeMessage]:
    return [m for m in bot.fake.messages(BOB) if "Your turn in Coins" in m.plain]


def turn_sends(bot: Harness) -> list[Call]:
    return [c for c in bot.fake.calls_to("sendMessage")
            if int(c.params["chat_id"]) == BOB and "Your turn in Coins" in str(c.params.get("text"))]


async def bobs_table(bot: Harness, *options: str) -> str:
    """Bob's Coins table with two AI players, in the group; Bob has the table open before it starts."""
    fake = bot.fake
    bot.application.bot_data.notifier.grace = GRACE
    fake.add_user(BOB, "Bob")
    await bot.send(fake.message(BOB, BOB, "/start"))
    await bot.send(fake.message(GROUP, BOB, " ".join(["/new coins", *options])))
    table_id = await bot.table_id()
    bot.service.presence.report(table_id, BOB, "phone", True)
    lobby = fake.messages(GROUP)[0]
    await bot.send(fake.press(BOB, lobby, "Add AI"))
    await bot.send(fake.press(BOB, lobby, "Add AI"))
    await bot.send(fake.press(BOB, lobby, "Start"))
    info = await bot.service.info(table_id)
    assert info.to_act == (info.seat_of(BOB),), "the AI players moved: it is Bob's turn"
    return table_id


async def test_a_person_at_the_table_gets_no_turn_message_and_one_who_leaves_gets_it_after_the_grace(
    bot: Harness,
) -> None:
    presence = bot.service.presence
    table_id = await bobs_table(bot)
    assert turn_messages(bot) == [], "Bob has the table in front of him"
    assert "Your turn" not in bot.fake.last_message(BOB).plain

    presence.report(table_id, BOB, "phone", False)  # he switched to another app mid-turn
    left = presence.left_at(table_id, BOB)
    assert left is not None
    await bot.settle()
    [sent] = turn_sends(bot)
    assert GRACE <= sent.time - left < GRACE + 0.5, "told once the grace is over, not before, not much later"
    [message] = turn_messages(bot)
    assert not message.deleted

    presence.report(table_id, BOB, "laptop", True)  # back at the table on another device
    await bot.settle()
    assert message.deleted, "back at the table: the turn message is removed"
    assert len(turn_sends(bot)) == 1
    assert bot.fake.count_429 == 0


async def test_a_person_who_glances_away_for_less_than_the_grace_gets_nothing(bot: Harness) -> None:
    presence = bot.service.presence
    table_id = await bobs_table(bot)
    presence.report(table_id, BOB, "phone", False)
    presence.report(table_id, BOB, "phone", True)  # back at once
    await bot.settle()
    assert turn_sends(bot) == []


def group_edits(bot: Harness) -> list[Call]:
    return [c for c in bot.fake.calls_to("editMessageText") if int(c.params.get("chat_id", 0)) == GROUP]


async def test_the_group_is_told_whose_turn_has_waited_only_when_that_person_is_away(bot: Harness) -> None:
    fake, service, presence = bot.fake, bot.service, bot.service.presence
    bot.application.bot_data.notifier.grace = GRACE
    for user, name in ((ANN, "Ann"), (BOB, "Bob")):
        fake.add_user(user, name)
        await bot.send(fake.message(user, user, "/start"))
    await bot.send(fake.message(GROUP, ANN, "/new coins target=99"))
    table_id = await bot.table_id()
    lobby = fake.messages(GROUP)[0]
    await bot.send(fake.press(BOB, lobby, "Join"))
    await bot.send(fake.press(ANN, lobby, "Add AI"))
    for user in (ANN, BOB):
        presence.report(table_id, user, f"phone {user}", True)
    await bot.send(fake.press(ANN, lobby, "Start"))
    await bot.settle()
    started = len(group_edits(bot))
    shown = (await service.info(table_id)).to_act
    names = {ANN: "Ann", BOB: "Bob"}
    for _ in range(12):  # both at the table, moving in turn, each turn waiting well past the status interval
        info = await service.info(table_id)
        if info.to_act != shown:
            break
        live = service.live(table_id)
        assert live is not None
        [seat] = info.to_act
        mover = info.seats[seat].user_id
        assert mover is not None
        await service.act(table_id, mover, live.game.legal_actions(live.state, seat)[0], live.seq)
        await bot.settle()
    info = await service.info(table_id)
    assert info.to_act != shown, "the turn has passed to the other person"
    await asyncio.sleep(0.6)  # three status intervals of the harness
    await bot.settle()
    assert len(group_edits(bot)) == started, "both are at the table: the group's message is left alone"

    [seat] = info.to_act
    mover = info.seats[seat].user_id
    assert mover is not None
    presence.report(table_id, mover, f"phone {mover}", False)  # leaves mid-turn
    await asyncio.sleep(GRACE + 0.1)
    await bot.settle()
    [edit] = group_edits(bot)[started:]
    assert f"\u2068{names[mover]}\u2069 to play" in str(edit.params["text"]), "away past the grace: the group is told"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(6_000_000.0)


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


async def test_a_reminder_comes_at_four_fifths_of_the_time_and_only_to_a_person_away(
    timed_bot: Harness, clock: ManualClock
) -> None:
    bot, presence = timed_bot, timed_bot.service.presence
    table_id = await bobs_table(bot, "timer=live")
    info = await bot.service.info(table_id)
    assert info.deadline == clock.now + 60
    clock.now += 47  # not yet four fifths of the minute
    await bot.service.tick_timers()
    await bot.settle()
    presence.report(table_id, BOB, "phone", False)
    await bot.settle()
    [message] = turn_messages(bot)
    assert "Time is nearly up" not in message.plain, "47 s of 60: no reminder yet"

    presence.report(table_id, BOB, "phone", True)  # back: the message goes
    await bot.settle()
    assert message.deleted
    clock.now += 2  # 49 s of 60: the reminder is due
    await bot.service.tick_timers()
    await bot.settle()
    assert [m for m in turn_messages(bot) if not m.deleted] == [], "at the table: no reminder"

    presence.report(table_id, BOB, "phone", False)  # away again, with a fifth of the time left
    await bot.settle()
    [reminder] = [m for m in turn_messages(bot) if not m.deleted]
    assert "Time is nearly up" in reminder.plain
