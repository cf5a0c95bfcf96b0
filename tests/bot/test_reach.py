"""Reaching every person at a table: a moment to open it after the deal, turn messages after a restart."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.bot.conftest import BOB, GROUP, Harness, make_harness
from tests.fakes.botapi import Call, FakeBotApi
from tgbot.app import stop_bot

GRACE = 0.5


def turn_sends(bot: Harness, user_id: int = BOB) -> list[Call]:
    return [c for c in bot.fake.calls_to("sendMessage")
            if int(c.params["chat_id"]) == user_id and "Your turn in Coins" in str(c.params.get("text"))]


async def bobs_lobby(bot: Harness) -> str:
    """Bob's Coins lobby with two AI players in the group, ready to start; he has not opened the table."""
    fake = bot.fake
    bot.application.bot_data.notifier.grace = GRACE
    fake.add_user(BOB, "Bob")
    await bot.send(fake.message(BOB, BOB, "/start"))
    await bot.send(fake.message(GROUP, BOB, "/new coins target=99"))
    lobby = fake.messages(GROUP)[0]
    await bot.send(fake.press(BOB, lobby, "Add AI"))
    await bot.send(fake.press(BOB, lobby, "Add AI"))
    return await bot.table_id()


async def test_reach_start_sends_no_turn_message_to_a_host_who_opens_the_table_within_the_grace(
    bot: Harness,
) -> None:
    table_id = await bobs_lobby(bot)
    await bot.fake.send_update(bot.fake.press(BOB, bot.fake.messages(GROUP)[0], "Start"))
    await bot.fake.wait_until(lambda: bot.service.snapshot(table_id) is not None
                              and bot.service.snapshot(table_id).info.status == "playing")  # type: ignore[union-attr]
    bot.service.presence.report(table_id, BOB, "phone", True)  # the table opens on his phone a moment later
    await bot.settle()
    info = await bot.service.info(table_id)
    assert info.to_act == (info.seat_of(BOB),), "the AI players moved: it is Bob's turn"
    assert turn_sends(bot) == [], "he opened the table within the grace: no buzz for a turn he is taking"


async def test_reach_start_sends_the_turn_message_after_the_grace_to_a_host_who_does_not_open_the_table(
    bot: Harness,
) -> None:
    table_id = await bobs_lobby(bot)
    pressed = time.monotonic()
    await bot.send(bot.fake.press(BOB, bot.fake.messages(GROUP)[0], "Start"))
    info = await bot.service.info(table_id)
    assert info.to_act == (info.seat_of(BOB),)
    [sent] = turn_sends(bot)
    assert GRACE <= sent.time - pressed < GRACE + 1.0, "after the moment to open the table, not before"


@pytest.fixture
async def stored(tmp_path: Path) -> AsyncIterator[Store]:
    store = Store(database_url(None, tmp_path))
    await store.open()
    yield store
    await store.close()


async def test_reach_a_restart_sends_the_turn_message_of_someone_who_had_been_at_the_table(stored: Store) -> None:
    service = TableService(stored, ai_delay=0, heal_every=None)
    await service.start()
    bot = await make_harness(service)
    fake: FakeBotApi = bot.fake
    try:
        table_id = await bobs_lobby(bot)
        bot.service.presence.report(table_id, BOB, "phone", True)  # at the table when it starts
        await bot.send(fake.press(BOB, fake.messages(GROUP)[0], "Start"))
        info = await service.info(table_id)
        assert info.to_act == (info.seat_of(BOB),) and turn_sends(bot) == []
        # the process dies with Bob's turn pending (what it knew of who is at the table dies with it)
        await stop_bot(bot.application)
        await service.close()

        restarted = time.monotonic()
        service = TableService(stored, ai_delay=0, heal_every=None)
        await service.start()
        again = await make_harness(service, fake=fake)
        again.processed |= bot.processed
        try:
            await again.settle()
            [sent] = turn_sends(again)
            assert sent.time - restarted < 10.0, "within seconds of the restart, not when someone next moves"
            assert sent.time - restarted >= again.application.bot_data.notifier.grace, "after the usual grace"
            [message] = [m for m in fake.messages(BOB) if "Your turn in Coins" in m.plain]
            assert not message.deleted
        finally:
            await stop_bot(again.application)
    finally:
        await fake.close()
        await service.close()
