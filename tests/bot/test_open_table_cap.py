"""The cap on a person's open tables holds in the bot too: /new and Join beyond it are refused in words."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine.service.tables import TableService
from engine.store.database import Store
from tests.bot.conftest import ANN, BOB, GROUP, Harness, make_harness
from tgbot.app import stop_bot

CAP = 2
RUSSIAN_REFUSAL = "У тебя уже открыто столов: 2. Сначала доиграй или покинь один из них."


@pytest.fixture
async def capped(store: Store) -> AsyncIterator[Harness]:
    """The bot over a service that lets a person sit at no more than ``CAP`` open tables."""
    service = TableService(store, ai_delay=0.0, heal_every=None, max_open_tables=CAP)
    await service.start()
    harness = await make_harness(service)
    yield harness
    await stop_bot(harness.application)
    await harness.fake.close()
    await service.close()


async def test_new_beyond_the_cap_is_refused_in_the_groups_language_and_opens_nothing(capped: Harness) -> None:
    bot = capped
    bot.fake.add_user(ANN, "Ann", language_code="ru")  # the group's first host: the group speaks Russian
    for _ in range(CAP):
        await bot.send(bot.fake.message(GROUP, ANN, "/new"))
    assert len(await bot.service.tables_of(ANN)) == CAP
    posted = len(bot.fake.messages(GROUP))
    await bot.send(bot.fake.message(GROUP, ANN, "/new"))
    reply = bot.fake.last_message(GROUP)
    assert RUSSIAN_REFUSAL in reply.plain
    assert "/new [game]" not in reply.plain  # the command was right: no usage lesson
    assert len(await bot.service.tables_of(ANN)) == CAP
    await bot.settle()
    assert len(bot.fake.messages(GROUP)) == posted + 1  # the refusal, and no lobby


async def test_join_beyond_the_cap_is_refused_to_the_presser_and_seats_nobody(capped: Harness) -> None:
    bot = capped
    bot.fake.add_user(ANN, "Ann", language_code="ru")
    bot.fake.add_user(BOB, "Bob")
    for _ in range(CAP):
        await bot.send(bot.fake.message(GROUP, ANN, "/new"))
    await bot.send(bot.fake.message(GROUP, BOB, "/new"))
    bobs = bot.fake.last_message(GROUP)
    table_id = await bot.table_id()
    press = await bot.send(bot.fake.press(ANN, bobs, "Присоединиться"))  # Join, in the group's Russian
    answer = bot.fake.answer_to(press)
    assert answer is not None and answer.get("text") == RUSSIAN_REFUSAL and answer.get("show_alert")
    assert (await bot.service.info(table_id)).seat_of(ANN) is None
    await bot.send(bot.fake.message(GROUP, ANN, f"/join {table_id}"))
    assert RUSSIAN_REFUSAL in bot.fake.last_message(GROUP).plain
    assert (await bot.service.info(table_id)).seat_of(ANN) is None
