"""/metrics of the bot's Bot API calls: 429s as the fake Telegram answered them, budget waits, calls waiting now."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine.config import Settings
from engine.service.tables import TableService
from tests.fakes.botapi import FakeBotApi
from tests.web.conftest import ClientFactory
from tests.web.test_metrics import scrape, value
from tgbot.app import build_application
from tgbot.bot_calls import CountedCalls
from tgbot.limits import rate_limiter
from tgbot.priority import Call, Lane

ANN = 11


async def test_metrics_count_the_429s_the_bot_api_answered(
    make_client: ClientFactory, settings: Settings, service: TableService, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "1")
    # the fake counts a chat's pace at 50 ms; the bot's budget here spaces a chat's calls by 1 ms: Telegram says 429
    async with FakeBotApi(bot_username="cardroom_test_bot", time_scale=0.05) as fake:
        fake.user_starts_bot(ANN, "Ann")
        bot_settings = Settings(bot_token=fake.token, bot_api_base_url=fake.base_url, data_dir=settings.data_dir)
        application = build_application(bot_settings, service, limiter=rate_limiter(0.001, slack=0.0, max_retries=9))
        await application.initialize()
        try:
            await asyncio.gather(*(application.bot.send_message(ANN, f"hello {i}") for i in range(4)))
        finally:
            await application.shutdown()
        client = await make_client(settings)
        samples = await scrape(client)
    assert fake.count_429 >= 1
    assert value(samples, "cardroom_bot_api_calls_total", method="sendMessage", result="429") == fake.count_429
    assert value(samples, "cardroom_bot_api_calls_total", method="sendMessage", result="ok") == 4
    assert value(samples, "cardroom_bot_api_calls_total", method="getMe", result="ok") == 1
    # each try of each call waited its turn once: the first tries, and one more after each 429
    assert value(samples, "cardroom_bot_budget_wait_seconds_count", lane="answer") == 4 + fake.count_429 + 1
    assert value(samples, "cardroom_bot_budget_wait_seconds_sum", lane="answer") > 0


async def test_metrics_show_the_turn_messages_waiting_in_the_budget(
    make_client: ClientFactory, settings: Settings, service: TableService,
) -> None:
    limiter = rate_limiter(1.0, slack=0.0)  # a chat's calls a second apart
    counted = CountedCalls(limiter, service.metrics)
    await counted.initialize()
    answered = asyncio.Event()

    async def call(*_args: Any) -> bool:
        answered.set()
        return True

    turn = Call(Lane.TURN, order=1.0)
    sends = [asyncio.create_task(counted.process_request(call, (), {}, "sendMessage", {"chat_id": ANN}, turn))
             for _ in range(3)]
    await answered.wait()  # the first went at once; the two others wait for the chat's next second
    client = await make_client(settings)
    samples = await scrape(client)
    assert value(samples, "cardroom_turn_messages_due") == 2
    assert value(samples, "cardroom_bot_calls_waiting", lane="turn") == 2
    assert value(samples, "cardroom_bot_calls_waiting", lane="status") == 0
    assert value(samples, "cardroom_bot_api_calls_total", method="sendMessage", result="ok") == 1
    for send in sends:
        send.cancel()
    await asyncio.gather(*sends, return_exceptions=True)
    await counted.shutdown()
    assert value(await scrape(client), "cardroom_turn_messages_due") == 0
