"""At a day's close each group where two or more of its members played the deal of the day hears it once."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine.service.tables import TableService
from engine.store.database import Store
from tests.bot.conftest import ANN, BOB, CID, GROUP, Harness
from tests.clock import ManualClock
from tests.service.daily_clock import today, today_noon
from tests.service.helpers import play_out
from tgbot.daily_close import send_closed_day

OTHER_GROUP = -2002
NOON = today_noon()
DAY = today().isoformat()


@pytest.fixture
async def service(store: Store) -> AsyncIterator[TableService]:
    """The bot's table service on a clock the test moves (the deals' days close by it)."""
    started = TableService(store, ai_delay=0.0, heal_every=None, clock=ManualClock(NOON), daily_secret="bot secret")
    await started.start()
    yield started
    await started.close()


async def finish_in(bot: Harness, chat_id: int, people: tuple[tuple[int, str], ...]) -> None:
    """A short Coins game of these people in a group: each becomes one of its members."""
    (host, name), *others = people
    info = await bot.service.create_table("coins", host, name, {"target_score": 1}, chat_id=chat_id)
    for user, other in others:
        await bot.service.join(info.id, user, other)
    await bot.service.start_game(info.id, host)
    await play_out(bot.service, info.id)
    await bot.settle()


async def play_daily(service: TableService, user_id: int, name: str) -> None:
    info = await service.daily.start("coins", user_id, name)
    await play_out(service, info.id)
    await service.daily.wait_settled()


async def test_daily_close_sends_one_message_per_group_where_two_or_more_played(bot: Harness) -> None:
    bot.fake.add_group(OTHER_GROUP, "Other night")
    await finish_in(bot, GROUP, ((ANN, "Ann"), (BOB, "Bob")))
    await finish_in(bot, OTHER_GROUP, ((ANN, "Ann"), (CID, "Cid")))  # Cid never plays the deal of the day
    for user, name in ((ANN, "Ann"), (BOB, "Bob")):
        await play_daily(bot.service, user, name)
    posted = len(bot.fake.calls_to("sendMessage"))
    assert await send_closed_day(bot.service, bot.application.bot) == 0  # the day has not closed yet

    clock = bot.service.clock
    assert isinstance(clock, ManualClock)
    clock.now = NOON + 12 * 3600 + 60  # just past midnight UTC
    assert await send_closed_day(bot.service, bot.application.bot) == 1
    assert await send_closed_day(bot.service, bot.application.bot) == 0  # once: a second look sends nothing
    await bot.settle()
    sent = bot.fake.calls_to("sendMessage")[posted:]
    assert [call.params["chat_id"] for call in sent] == [GROUP]
    text = sent[0].params["text"]
    assert DAY in text and "Coins" in text and "%" in text
    assert "\u2068Ann\u2069" in text and "\u2068Bob\u2069" in text  # names isolated
    assert "Cid" not in text  # a member who did not play it is not listed
