"""Telegram's flood limits, kept by the library's AIORateLimiter plus a per-chat pace and two priorities.

AIORateLimiter keeps the overall and per-group rates with leaky buckets, which let a
full bucket through at once and then refill; so each bucket is set to half of
Telegram's figure, which keeps any window of the real length under the real limit.
Telegram also wants at most about one message a second in any one chat, which
AIORateLimiter does not do: that pace is added here, per chat, for the calls that
post or edit. It is counted from the previous call's answer, not from when that call
left: Telegram counts calls as they arrive, and a call that left first may arrive late.
Deleting goes through the overall bucket (and its retry on 429), not the group's nor the
pace; reading and answering button presses are not limited.

Calls made while ``BACKGROUND`` is set (the notifier's edits of a table's message in its
group) yield to everything else in the same chat: at most one of them per chat waits in
the buckets, and only while no foreground call (a reply to a person) is waiting there,
so a reply never queues behind a row of status edits.

Every message id the bot gets back from Telegram is handed to ``on_message`` (the
notifier's ledger uses it to tell its own messages from others').
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from typing import Any

from telegram.ext import AIORateLimiter

JSONResult = bool | dict[str, Any] | list[dict[str, Any]]
PACED_PREFIXES = ("send", "edit", "copy", "forward")
BUCKETED_PREFIXES = ("delete",)
BACKGROUND: ContextVar[bool] = ContextVar("bot_background_call", default=False)


class Pace:
    """One chat's pace: one posting call at a time, each ``period`` seconds after the previous one's answer."""

    __slots__ = ("free_at", "lock")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.free_at = 0.0

    @property
    def idle(self) -> bool:
        """Nobody is waiting and the period has passed."""
        return not self.lock.locked() and self.free_at <= asyncio.get_running_loop().time()


class ChatPacedRateLimiter(AIORateLimiter):
    """AIORateLimiter with at most one posting call per ``chat_period`` seconds in each chat, and priorities."""

    __slots__ = ("_background", "_chat_period", "_foreground", "_paces", "_quiet", "on_message")

    def __init__(self, *, chat_period: float = 1.1, **limits: Any) -> None:
        super().__init__(**limits)
        self._chat_period = chat_period
        self._paces: dict[str, Pace] = {}
        self._foreground: dict[str, int] = {}
        self._quiet: dict[str, asyncio.Event] = {}
        self._background: dict[str, asyncio.Lock] = {}
        self.on_message: Callable[[int, int], None] | None = None

    def _pace(self, key: str) -> Pace:
        if len(self._paces) > 1024:
            for old, pace in list(self._paces.items()):
                if old != key and pace.idle:
                    del self._paces[old]
        found = self._paces.get(key)
        if found is None:
            found = self._paces[key] = Pace()
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
        """Send one request within the limits, background calls after foreground ones of the same chat."""
        chat_id = data.get("chat_id")
        if not endpoint.startswith(PACED_PREFIXES + BUCKETED_PREFIXES) or chat_id is None:
            return self._seen(await callback(*args, **kwargs))
        key = str(chat_id)
        if not BACKGROUND.get():
            self._foreground[key] = self._foreground.get(key, 0) + 1
            self._quiet.setdefault(key, asyncio.Event()).clear()
            try:
                return await self._limited(callback, args, kwargs, endpoint, data, rate_limit_args, key)
            finally:
                self._foreground[key] -= 1
                if not self._foreground[key]:
                    del self._foreground[key]
                    self._quiet.pop(key).set()
        lock = self._background.setdefault(key, asyncio.Lock())
        async with lock:
            while key in self._foreground:
                await self._quiet[key].wait()
            return await self._limited(callback, args, kwargs, endpoint, data, rate_limit_args, key)

    async def _limited(self, callback: Callable[..., Coroutine[Any, Any, JSONResult]], args: Any,
                       kwargs: dict[str, Any], endpoint: str, data: dict[str, Any], rate_limit_args: int | None,
                       key: str) -> JSONResult:
        if not endpoint.startswith(PACED_PREFIXES):  # deletions: the overall bucket and its retries, not the group's
            overall = {k: v for k, v in data.items() if k != "chat_id"}
            return self._seen(await super().process_request(callback, args, kwargs, endpoint, overall, rate_limit_args))
        if self._chat_period <= 0:
            return self._seen(await super().process_request(callback, args, kwargs, endpoint, data, rate_limit_args))
        pace = self._pace(key)

        async def paced(*call_args: Any, **call_kwargs: Any) -> JSONResult:
            async with pace.lock:  # inside the group and overall buckets, so the pace holds at the wire
                loop = asyncio.get_running_loop()
                wait = pace.free_at - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                try:
                    return self._seen(await callback(*call_args, **call_kwargs))
                finally:
                    pace.free_at = loop.time() + self._chat_period

        return await super().process_request(paced, args, kwargs, endpoint, data, rate_limit_args)

    def _seen(self, result: JSONResult) -> JSONResult:
        if self.on_message is not None and isinstance(result, dict) and "message_id" in result:
            chat = result.get("chat")
            if isinstance(chat, dict) and isinstance(chat.get("id"), int):
                self.on_message(chat["id"], int(result["message_id"]))
        return result


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
