"""Telegram's flood limits, kept by the library's AIORateLimiter plus a per-chat pace.

AIORateLimiter keeps the overall and per-group rates with leaky buckets, which let a
full bucket through at once and then refill; so each bucket is set to half of
Telegram's figure, which keeps any window of the real length under the real limit.
Telegram also wants at most about one message a second in any one chat, which
AIORateLimiter does not do: that pace is added here, per chat, for the calls that
post or edit. Deleting, reading and answering button presses are not paced.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from aiolimiter import AsyncLimiter
from telegram.ext import AIORateLimiter

JSONResult = bool | dict[str, Any] | list[dict[str, Any]]
PACED_PREFIXES = ("send", "edit", "copy", "forward")


class ChatPacedRateLimiter(AIORateLimiter):
    """AIORateLimiter with at most one posting call per ``chat_period`` seconds in each chat."""

    __slots__ = ("_chat_limiters", "_chat_period")

    def __init__(self, *, chat_period: float = 1.1, **limits: Any) -> None:
        super().__init__(**limits)
        self._chat_period = chat_period
        self._chat_limiters: dict[str, AsyncLimiter] = {}

    def _chat_limiter(self, chat_id: object) -> AsyncLimiter:
        key = str(chat_id)
        if len(self._chat_limiters) > 1024:
            for old, limiter in list(self._chat_limiters.items()):
                if old != key and limiter.has_capacity():
                    del self._chat_limiters[old]
        found = self._chat_limiters.get(key)
        if found is None:
            found = self._chat_limiters[key] = AsyncLimiter(1, self._chat_period)
        return found

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, JSONResult]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> JSONResult:
        """Send one request within the limits."""
        if not endpoint.startswith(PACED_PREFIXES):
            return await callback(*args, **kwargs)
        chat_id = data.get("chat_id")
        if chat_id is None or self._chat_period <= 0:
            return await super().process_request(callback, args, kwargs, endpoint, data, rate_limit_args)
        limiter = self._chat_limiter(chat_id)

        async def paced(*call_args: Any, **call_kwargs: Any) -> JSONResult:
            async with limiter:  # inside the group and overall buckets, so the pace holds at the wire
                return await callback(*call_args, **call_kwargs)

        return await super().process_request(paced, args, kwargs, endpoint, data, rate_limit_args)


def rate_limiter(scale: float = 1.0, *, slack: float = 0.1, max_retries: int = 2) -> ChatPacedRateLimiter:
    """Telegram's limits (30/s overall, 20/min per group, 1/s per chat); ``scale`` shortens every period.

    ``slack`` seconds are added to the per-chat pace: the pace is measured as requests
    leave, Telegram counts them as they arrive.
    """
    return ChatPacedRateLimiter(
        overall_max_rate=14,
        overall_time_period=1.0 * scale,
        group_max_rate=9,
        group_time_period=60.0 * scale,
        chat_period=1.0 * scale + slack,
        max_retries=max_retries,
    )
