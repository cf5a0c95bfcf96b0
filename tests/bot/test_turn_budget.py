"""The bot's one budget against the fake Telegram: priorities, stale calls dropped, deletions counted, 429s per chat."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from telegram.error import RetryAfter
from telegram.ext import ExtBot

from tests.bot.notifier_fakes import ANN, Parts
from tests.fakes.botapi import Call, FakeBotApi
from tgbot.limits import ChatPacedRateLimiter, Dropped, rate_limiter
from tgbot.postings import Postings, Sweeper
from tgbot.priority import Call as Place
from tgbot.priority import Lane
from tgbot.records import SENDING, SENT, Ledger, Record, turn_purpose

SCALE = 0.05  # every window a twentieth: a group's minute is 3 s, a chat's second 50 ms
GROUP, AVA, BEA, CAL = -1007, 21, 22, 23


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi(time_scale=SCALE) as started:
        started.add_group(GROUP)
        for user_id in (AVA, BEA, CAL):
            started.user_starts_bot(user_id)
        yield started


async def bot_over(fake: FakeBotApi, limiter: ChatPacedRateLimiter) -> ExtBot[Any]:
    bot: ExtBot[Any] = ExtBot(fake.token, base_url=fake.base_url, rate_limiter=limiter)
    await bot.initialize()
    return bot


def in_any_window(calls: list[Call], seconds: float) -> int:
    """The most calls that arrived within any ``seconds``-long span."""
    times = sorted(c.time for c in calls)
    return max((sum(1 for t in times[i:] if t < start + seconds) for i, start in enumerate(times)), default=0)


async def test_turn_messages_go_at_once_while_a_group_whose_edit_budget_is_spent_waits(fake: FakeBotApi) -> None:
    limiter = rate_limiter(SCALE, slack=0.02, max_retries=0)
    bot = await bot_over(fake, limiter)
    status = await bot.send_message(GROUP, "status 0")
    edits = [asyncio.create_task(bot.edit_message_text(f"status {n}", GROUP, status.message_id,
                                                       rate_limit_args=Place(Lane.STATUS)))
             for n in range(1, 25)]  # beyond the group's 19 in 3 s
    await asyncio.sleep(0.3)  # the group's budget is spent by now; more edits wait for its window
    told = await asyncio.gather(*(bot.send_message(u, "Your turn", rate_limit_args=Place(Lane.TURN))
                                  for u in (AVA, BEA, CAL)))
    asked = fake.clock()
    await asyncio.gather(*edits)
    await bot.shutdown()

    turn_calls = [c for c in fake.calls_to("sendMessage") if int(c.params["chat_id"]) > 0]
    assert len(told) == len(turn_calls) == 3
    assert all(c.time <= asked for c in turn_calls)
    group_calls = [c for c in fake.calls if str(c.params.get("chat_id")) == str(GROUP)]
    assert group_calls[-1].time > max(c.time for c in turn_calls) + 1.0, "the group's last edits waited its window"
    assert in_any_window(group_calls, 60 * SCALE) <= 20
    assert fake.count_429 == 0


async def test_a_waiting_turn_message_whose_turn_is_over_is_never_sent(fake: FakeBotApi) -> None:
    limiter = rate_limiter(SCALE, slack=0.02, max_retries=0)
    bot = await bot_over(fake, limiter)
    turn_over = False

    async def turn_message(text: str) -> Any:
        return await bot.send_message(AVA, text, rate_limit_args=Place(Lane.TURN, wanted=lambda: not turn_over))

    await bot.send_message(AVA, "the last turn's")  # her chat's pace: the next call waits about 70 ms
    waiting = asyncio.create_task(turn_message("Your turn"))
    await asyncio.sleep(0)
    turn_over = True  # she moved (at the table) while it waited
    with pytest.raises(Dropped):
        await waiting
    await bot.shutdown()
    assert [c.params["text"] for c in fake.calls_to("sendMessage")] == ["the last turn's"]
    assert limiter.dropped == 1


async def test_a_dropped_send_forgets_its_record() -> None:
    parts = Parts()
    parts.bot.fail["send"] = Dropped()
    fresh = Record(turn_purpose(ANN), ANN, None, None, SENDING, {"turn": 5})
    assert await parts.postings.send("t1", fresh, "Your turn", None) is None
    assert await parts.records.get("t1", turn_purpose(ANN)) is None


async def test_answers_go_before_turn_messages_before_status_before_cleanup_the_oldest_turn_first() -> None:
    limiter = ChatPacedRateLimiter(overall_max_rate=1, overall_time_period=0.05, chat_period=0.0)
    order: list[str] = []

    async def call(name: str) -> bool:
        order.append(name)
        return True

    async def queued(name: str, lane: Lane, order_key: float, chat: int) -> None:
        await limiter.process_request(call, (name,), {}, "sendMessage" if lane != Lane.CLEANUP else "deleteMessage",
                                      {"chat_id": chat}, Place(lane, order_key))

    first = asyncio.create_task(queued("first", Lane.ANSWER, 0, 1))
    await asyncio.sleep(0)  # it takes the one room of the window; the rest wait for the next
    rest = [asyncio.create_task(queued(*args)) for args in (
        ("cleanup", Lane.CLEANUP, 0, 2), ("status", Lane.STATUS, 0, -3), ("newer turn", Lane.TURN, 9.0, 4),
        ("older turn", Lane.TURN, 3.0, 5), ("answer", Lane.ANSWER, 0, 6))]
    await asyncio.gather(first, *rest)
    await limiter.shutdown()
    assert order == ["first", "answer", "older turn", "newer turn", "status", "cleanup"]


async def test_deletions_spend_the_bots_overall_budget_and_are_batched_per_chat(fake: FakeBotApi) -> None:
    limiter = ChatPacedRateLimiter(overall_max_rate=4, overall_time_period=1.0 * SCALE * 4,
                                   chat_period=1.0 * SCALE + 0.02, group_max_rate=19,
                                   group_time_period=60 * SCALE, max_retries=0)
    bot = await bot_over(fake, limiter)
    sent = [await bot.send_message(user, f"turn {n}") for n in range(3) for user in (AVA, BEA, CAL)]
    window_start = len(fake.calls)
    await asyncio.gather(*(bot.delete_message(m.chat_id, m.message_id, rate_limit_args=Place(Lane.CLEANUP))
                           for m in sent[:6]))
    deletions = fake.calls[window_start:]
    assert [c.method for c in deletions] == ["deleteMessage"] * 6
    assert in_any_window(deletions, 0.2) <= 4, "six deletions took two windows of the overall budget"
    assert deletions[-1].time - deletions[0].time >= 0.2 - 0.01

    extra = [await bot.send_message(AVA, f"old {n}") for n in range(2)]
    parts = Parts()
    postings = Postings(bot, parts.records, Ledger(), on_refused=parts._refused, on_migrated=parts._migrated,
                        repost=parts.reposted.append)
    sweeper = Sweeper(bot, postings)
    for message in [*sent[6:], *extra]:  # each one's third turn message, and two more of Ava's: none yields
        await sweeper.sweep("t1", Record(turn_purpose(message.chat_id), message.chat_id, None, message.message_id,
                                         SENT, {}), "over")
    await sweeper.idle()
    await bot.shutdown()
    swept = {(m.chat_id, m.message_id) for m in [*sent[6:], *extra]}
    assert all(m.deleted for u in (AVA, BEA, CAL) for m in fake.messages(u) if (u, m.message_id) in swept)
    removals = [c for c in fake.calls if c.method.startswith("delete") and c.time > deletions[-1].time]
    assert sorted((c.method, int(c.params["chat_id"])) for c in removals) == [
        ("deleteMessage", BEA), ("deleteMessage", CAL), ("deleteMessages", AVA)]
    [batch] = [c for c in removals if c.method == "deleteMessages"]
    assert sorted(batch.params["message_ids"]) == sorted(m.message_id for m in [sent[6], *extra])
    assert fake.count_429 == 0


async def test_a_429_holds_its_own_chat_and_the_call_keeps_its_place() -> None:
    limiter = ChatPacedRateLimiter(overall_max_rate=30, overall_time_period=1.0, chat_period=0.0, max_retries=2)
    loop = asyncio.get_running_loop()
    start = loop.time()
    done: list[tuple[str, float]] = []
    refused = {"a1": 1}

    async def call(name: str) -> bool:
        if refused.get(name):
            refused[name] -= 1
            raise RetryAfter(timedelta(seconds=0.3))
        done.append((name, loop.time() - start))
        return True

    async def queued(name: str, chat: int) -> None:
        await limiter.process_request(call, (name,), {}, "sendMessage", {"chat_id": chat}, None)

    a1 = asyncio.create_task(queued("a1", 1))
    await asyncio.sleep(0.01)
    a2 = asyncio.create_task(queued("a2", 1))  # came after a1: stays behind it
    b1 = asyncio.create_task(queued("b1", 2))  # another chat: not held
    await asyncio.gather(a1, a2, b1)
    await limiter.shutdown()
    at = dict(done)
    assert at["b1"] < 0.1
    assert 0.3 <= at["a1"] <= at["a2"]
    assert [name for name, _ in done] == ["b1", "a1", "a2"]


async def test_a_call_made_after_a_dropped_turn_message_carries_none_of_its_lane_or_check() -> None:
    limiter = ChatPacedRateLimiter(overall_max_rate=30, overall_time_period=1.0, chat_period=0.0)
    sent: list[str] = []

    async def call(name: str) -> bool:
        sent.append(name)
        return True

    async def turn_pass() -> None:  # a refusal met in a turn pass makes a call of another kind
        with pytest.raises(Dropped):
            await limiter.process_request(call, ("turn",), {}, "sendMessage", {"chat_id": 1},
                                          Place(Lane.TURN, wanted=lambda: False))
        await limiter.process_request(call, ("answer",), {}, "sendMessage", {"chat_id": 1}, None)

    await asyncio.create_task(turn_pass())
    await limiter.shutdown()
    assert sent == ["answer"], "the later call would be dropped with the turn message's check"
