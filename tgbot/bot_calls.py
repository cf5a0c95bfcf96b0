"""Bot API calls counted for the process's metrics: each call's answer by method, and how long it waited its turn.

``CountedCalls`` stands in front of the bot's budget (``tgbot.limits``) and hands every call
on to it unchanged; it only notes, in the service's ``ServiceMetrics``, when the budget let
the call through (the wait, by lane) and how Telegram answered (``ok``, ``429`` or ``error``).
It also lets the metrics read how many calls wait in the budget now, by lane.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from engine.service.metrics import ServiceMetrics
from tgbot.limits import UNLIMITED, ChatPacedRateLimiter, JSONResult
from tgbot.priority import ANSWER, Call


class CountedCalls(BaseRateLimiter[Call]):
    """The bot's budget, with each call's wait and answer counted."""

    def __init__(self, limiter: ChatPacedRateLimiter, metrics: ServiceMetrics) -> None:
        self.limiter = limiter
        self.metrics = metrics
        metrics.bot_waiting = limiter.waiting

    async def initialize(self) -> None:
        """Set up the budget."""
        await self.limiter.initialize()

    async def shutdown(self) -> None:
        """Stop the budget."""
        await self.limiter.shutdown()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, JSONResult]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: Call | None,
    ) -> JSONResult:
        """Hand the call to the budget; count its wait (the long poll's is none) and its answer."""
        metrics, loop = self.metrics, asyncio.get_running_loop()
        lane = None if endpoint in UNLIMITED else (rate_limit_args or ANSWER).lane.name.lower()
        asked = loop.time()

        async def counted(*call_args: Any, **call_kwargs: Any) -> JSONResult:
            nonlocal asked
            if lane is not None:
                metrics.waited(lane, loop.time() - asked)
            try:
                result = await callback(*call_args, **call_kwargs)
            except RetryAfter:
                metrics.bot_called(endpoint, "429")
                asked = loop.time()  # it waits its place again
                raise
            except Exception:
                metrics.bot_called(endpoint, "error")
                raise
            metrics.bot_called(endpoint, "ok")
            return result

        return await self.limiter.process_request(counted, args, kwargs, endpoint, data, rate_limit_args)
