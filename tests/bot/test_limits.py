"""Replies to a person go before edits of a status message waiting in the same chat."""

from __future__ import annotations

import asyncio

from tgbot.limits import rate_limiter
from tgbot.priority import STATUS


async def test_a_reply_overtakes_status_edits_queued_in_the_same_chat() -> None:
    limiter = rate_limiter(0.05, slack=0.0)  # one call per 50 ms in a chat
    await limiter.initialize()
    order: list[str] = []
    first = asyncio.Event()

    async def call(name: str) -> bool:
        order.append(name)
        first.set()
        return True

    async def edit(i: int) -> None:
        await limiter.process_request(call, (f"edit {i}",), {}, "editMessageText", {"chat_id": -7}, STATUS)

    edits = [asyncio.create_task(edit(i)) for i in range(6)]
    await first.wait()
    await limiter.process_request(call, ("reply",), {}, "sendMessage", {"chat_id": -7}, None)
    await asyncio.gather(*edits)
    await limiter.shutdown()

    assert order.index("reply") <= 2, order  # behind at most the edit under way and the one already let in
    assert sorted(order) == sorted(["reply", *(f"edit {i}" for i in range(6))])
