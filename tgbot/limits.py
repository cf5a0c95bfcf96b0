"""Telegram's flood limits as one budget for the whole bot, spent by priority, each chat on its own.

Every Bot API call but the long poll waits here for its turn and is let through only when
it fits every limit Telegram counts it in: the bot's overall rate (about 30 a second:
every call, deletions included), one posting call a second in any one chat (sending and
editing; counted from the previous call's answer, since Telegram counts calls as they
arrive and one that left first may arrive late) and 20 a minute in a group. The windows
are counted from answers and a call still on its way counts as in the window, so no window
of the real length sees more than the real figure.

Each call says where it goes as its ``rate_limit_args``, a ``tgbot.priority.Call`` handed
in explicitly by whoever makes it (none: an answer to what a person just did). Waiting calls
go in order of their ``Lane`` (answers to a person's own action, then turn messages, then
lobby and status edits, then replies to commands in a group, which leave part of the group's
minute to its tables, then cleanup), within a lane by the call's ``order`` (a turn
message's is its turn's beginning, so the oldest turn goes first) and then as they came. A
call whose ``wanted`` check says no when its turn comes (its turn is over, a newer edit
supersedes it) is never sent: it raises ``Dropped``. A 429 blocks only the chat
it came from (a call with no chat: every call) for its ``retry_after``, and the call waits
again in the place it had.

Telegram counts the bot's calls together, whichever process makes them: with several
processes on one database, a call that fits every limit here also takes its room from the
whole bot's budget (``share``: ``engine.service.bot_budget``), which spaces every process's
calls so that no window of the overall period holds more than the overall figure; a posting
call also takes its room in its chat's shared pace as it is about to leave, so two processes
writing to one chat keep to one call a second there, and a group's post with it its room in the
group's shared minute (as many slots as the group's figure), both from the moment it will leave,
so together they keep to 20 a minute there.

Every message id the bot gets back from Telegram is handed to ``on_message`` (the bot's
ledger, ``BotState.ledger``, uses it to tell its own messages from others').
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from tgbot.priority import ANSWER, Call, Lane, group_room

log = logging.getLogger(__name__)

JSONResult = bool | dict[str, Any] | list[dict[str, Any]]
PACED_PREFIXES = ("send", "edit", "copy", "forward")
CHAT_MARGIN = 1.1  # a chat's shared pace counts calls as they leave, not from answers: a tenth more
GROUP_MARGIN = 1.02  # a group's shared minute counts posts as they are due to leave: a busy loop may send one late
UNLIMITED = ("getUpdates",)  # the long poll: it waits on Telegram, not on a budget


class Budget(Protocol):
    """The whole bot's budget, shared with other processes."""

    async def take(self, interval: float, key: str = "overall") -> float:
        """Take one call's room from budget ``key`` (its calls ``interval`` seconds apart): seconds to wait for it."""

    async def take_post(self, chat: str, interval: float, group: str, window: float, slots: int) -> float:
        """Take one post's room from its chat's pace and its group's minute (``slots`` in any ``window``), both from
        when it leaves: seconds to wait for it."""


class Dropped(Exception):
    """A waiting call that was no longer wanted when its turn came: it was never sent."""


@dataclass(eq=False)
class Waiting:
    """One call waiting for its turn."""

    lane: int
    order: float
    number: int
    chat: str | None
    paced: bool
    group: bool
    wanted: Callable[[], bool] | None
    admitted: asyncio.Future[None] | None = None
    chat_taken: bool = False  # its room in its chat's shared pace (and a group's minute) is taken

    @property
    def key(self) -> tuple[int, float, int]:
        """Its place among the waiting calls."""
        return self.lane, self.order, self.number


@dataclass
class Chat:
    """One chat's share of the limits: its pace, its group window and any 429 it is waiting out."""

    busy: bool = False  # a posting call of the chat is on its way
    free_at: float = 0.0
    blocked_until: float = 0.0
    sent: deque[float] = field(default_factory=deque)  # a group's posting calls, by answer time


class ChatPacedRateLimiter(BaseRateLimiter[Call]):
    """One budget shaped like Telegram's limits, spent by priority; a 429 holds only its own chat."""

    def __init__(self, *, overall_max_rate: int = 28, overall_time_period: float = 1.0, group_max_rate: int = 19,
                 group_time_period: float = 60.0, chat_period: float = 1.1, max_retries: int = 2) -> None:
        self._overall = (overall_max_rate, overall_time_period)
        self._group = (group_max_rate, group_time_period)
        self._chat_period = chat_period
        self._max_retries = max_retries
        self._queue: list[tuple[tuple[int, float, int], Waiting]] = []
        self._numbers = itertools.count()
        self._chats: dict[str, Chat] = {}
        self._sent: deque[float] = deque()  # every call, by answer time
        self._in_flight = 0
        self._blocked_until = 0.0
        self._wake = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None
        self.on_message: Callable[[int, int], None] | None = None
        self._shared: Budget | None = None
        self._slot_at: float | None = None  # when the room taken from the shared budget may be used
        self.dropped = 0
        self.calls = 0

    def waiting(self) -> dict[str, int]:
        """Calls waiting for their turn now, by lane (the turn lane's: turn messages due and not yet sent)."""
        lanes = [Lane(queued.lane).name.lower() for _key, queued in self._queue]
        return {lane.name.lower(): lanes.count(lane.name.lower()) for lane in Lane}

    def share(self, budget: Budget) -> None:
        """Take every call's room from the whole bot's ``budget`` too (other processes take from it)."""
        self._shared = budget

    @property
    def interval(self) -> float:
        """Seconds between two calls of the bot so that no window of the overall period holds more than its figure.

        Evenly spaced as they leave, ``limit - 2`` of them fill a window; two calls more of margin, since calls
        may arrive closer together than they left (a process's loop busy for a moment, the network: a call that
        leaves late brings it nearer the next, whose room was taken by the clock).
        """
        limit, period = self._overall
        return period / max(1, limit - 3)

    async def initialize(self) -> None:
        """Nothing to set up: the pump starts with the first call."""

    async def shutdown(self) -> None:
        """Stop letting calls through."""
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
            self._pump = None

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, JSONResult]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: Call | None,
    ) -> JSONResult:
        """Send one request when it fits the limits, in its lane's order; a 429 is waited out in place."""
        if endpoint in UNLIMITED:
            return await callback(*args, **kwargs)
        chat_id = data.get("chat_id")
        key = None if chat_id is None else str(chat_id)
        paced = key is not None and endpoint.startswith(PACED_PREFIXES) and self._chat_period > 0
        call = rate_limit_args or ANSWER
        waiting = Waiting(int(call.lane), call.order, next(self._numbers), key, paced,
                          key is not None and endpoint.startswith(PACED_PREFIXES) and key.startswith(("-", "@")),
                          call.wanted)
        retries = self._max_retries if call.retries is None else call.retries
        for attempt in itertools.count():
            await self._admit(waiting)
            try:
                result = await callback(*args, **kwargs)
            except RetryAfter as error:
                self._done(waiting, retry_after=_seconds(error.retry_after))
                if attempt >= retries:
                    raise
                log.info("429 in chat %s: waiting %.2f s in place", key, _seconds(error.retry_after))
                continue
            except BaseException:
                self._done(waiting)
                raise
            self._done(waiting)
            return self._seen(result)
        raise AssertionError("unreachable")

    # waiting ------------------------------------------------------------------------

    async def _admit(self, waiting: Waiting) -> None:
        """Wait until the pump lets the call through (raises Dropped when it is no longer wanted)."""
        loop = asyncio.get_running_loop()
        if self._pump is None or self._pump.done():
            self._pump = loop.create_task(self._run(), name="bot-rate-limiter")
        waiting.admitted = loop.create_future()
        waiting.chat_taken = False
        bisect.insort(self._queue, (waiting.key, waiting), key=lambda item: item[0])
        self._wake.set()
        try:
            await waiting.admitted
        except asyncio.CancelledError:
            admitted = waiting.admitted
            if admitted.done() and not admitted.cancelled() and admitted.exception() is None:
                self._done(waiting)  # let through just as it was cancelled: give its room back
            else:
                self._remove(waiting)
            raise

    def _remove(self, waiting: Waiting) -> None:
        for i, (_key, queued) in enumerate(self._queue):
            if queued is waiting:
                del self._queue[i]
                return

    def _chat(self, key: str) -> Chat:
        found = self._chats.get(key)
        if found is None:
            if len(self._chats) > 2048:
                now = asyncio.get_running_loop().time()
                for old, chat in list(self._chats.items()):
                    if not chat.busy and chat.free_at <= now and chat.blocked_until <= now and not chat.sent:
                        del self._chats[old]
            found = self._chats[key] = Chat()
        return found

    def _done(self, waiting: Waiting, *, retry_after: float = 0.0) -> None:
        """The call was answered (or failed): its room in the windows is counted from now."""
        now = asyncio.get_running_loop().time()
        self._in_flight -= 1
        self._sent.append(now)
        if waiting.chat is not None:
            chat = self._chat(waiting.chat)
            if waiting.paced:
                chat.busy = False
                chat.free_at = max(chat.free_at, now + self._chat_period)
            if waiting.group:
                chat.sent.append(now)
            if retry_after:
                chat.blocked_until = max(chat.blocked_until, now + retry_after)
        elif retry_after:
            self._blocked_until = max(self._blocked_until, now + retry_after)
        self._wake.set()

    def _overall_free_at(self, now: float) -> float:
        """When one more call fits the bot's overall rate (now or earlier: it fits)."""
        limit, period = self._overall
        while self._sent and self._sent[0] <= now - period:
            self._sent.popleft()
        if self._in_flight + len(self._sent) < limit:
            return now
        return self._sent[0] + period if self._sent else float("inf")  # else an answer frees room (and wakes)

    def _ready_at(self, waiting: Waiting, now: float) -> float:
        """When the call's chat lets it through (inf: when a call of its chat is answered)."""
        if waiting.chat is None:
            return self._blocked_until
        chat = self._chat(waiting.chat)
        at = chat.blocked_until
        if waiting.paced:
            if chat.busy:
                return float("inf")
            at = max(at, chat.free_at)
        if waiting.group:
            limit, period = self._group
            limit = group_room(waiting.lane, limit)
            while chat.sent and chat.sent[0] <= now - period:
                chat.sent.popleft()
            if len(chat.sent) >= limit:
                at = max(at, chat.sent[-limit] + period)
        return at

    async def _run(self) -> None:
        """Let waiting calls through in order as the limits allow."""
        loop = asyncio.get_running_loop()
        while True:
            self._wake.clear()
            now = loop.time()
            wake_at = float("inf")
            for item in list(self._queue):
                waiting = item[1]
                if waiting.wanted is not None and not _still_wanted(waiting.wanted):
                    self._queue.remove(item)
                    self.dropped += 1
                    if waiting.admitted is not None and not waiting.admitted.done():
                        waiting.admitted.set_exception(Dropped())
                    continue
                at = self._ready_at(waiting, now)
                if at > now:
                    wake_at = min(wake_at, at)
                    continue
                overall = self._overall_free_at(now)
                if overall > now:  # the bot's budget is spent: the first in line takes the next room
                    wake_at = min(wake_at, overall)
                    break
                if self._shared is not None:  # the whole bot's room, taken once; the first in line uses it
                    if self._slot_at is None:
                        wait = await self._take(self._shared)
                        self._slot_at = loop.time() + wait
                        wake_at = min(wake_at, self._slot_at)  # the queue may have changed meanwhile: look again
                        break
                    if self._slot_at > now:
                        wake_at = min(wake_at, self._slot_at)
                        break
                    if (waiting.paced or waiting.group) and waiting.chat is not None and not waiting.chat_taken:
                        # its chat's room (and a group's: its room in the minute other processes post to as well),
                        # taken as it is about to leave: another process's call there may be just gone, and then this
                        # one waits and the bot's room goes to the next in line
                        wait = await self._take_chat(self._shared, waiting)
                        waiting.chat_taken = True
                        if wait > 0 or item not in self._queue:
                            chat = self._chat(waiting.chat)
                            chat.free_at = max(chat.free_at, loop.time() + wait)
                            wake_at = loop.time()
                            break
                    self._slot_at = None
                self._queue.remove(item)
                self._in_flight += 1
                self.calls += 1
                if waiting.paced and waiting.chat is not None:
                    self._chat(waiting.chat).busy = True
                if waiting.admitted is not None and not waiting.admitted.done():
                    waiting.admitted.set_result(None)
                else:  # cancelled meanwhile
                    self._in_flight -= 1
                    if waiting.paced and waiting.chat is not None:
                        self._chat(waiting.chat).busy = False
            if wake_at == float("inf"):
                await self._wake.wait()
            else:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(0.0, wake_at - loop.time())):
                        await self._wake.wait()

    async def _take_chat(self, budget: Budget, waiting: Waiting) -> float:
        """Take the call's room in its chat's shared pace, and a group's post its room in the group's shared minute."""
        interval = self._chat_period * CHAT_MARGIN if waiting.paced else 0.0
        if not waiting.group:
            return await self._take(budget, interval, f"chat:{waiting.chat}")
        limit, period = self._group
        try:
            return max(0.0, await budget.take_post(f"chat:{waiting.chat}", interval, f"group:{waiting.chat}",
                                                   period * GROUP_MARGIN, limit))
        except Exception:
            log.exception("taking from the shared budget failed: the call goes on this process's budget alone")
            return 0.0

    async def _take(self, budget: Budget, interval: float | None = None, key: str = "overall") -> float:
        try:
            return max(0.0, await budget.take(self.interval if interval is None else interval, key))
        except Exception:
            log.exception("taking from the shared budget failed: the call goes on this process's budget alone")
            return 0.0

    def _seen(self, result: JSONResult) -> JSONResult:
        if self.on_message is not None and isinstance(result, dict) and "message_id" in result:
            chat = result.get("chat")
            if isinstance(chat, dict) and isinstance(chat.get("id"), int):
                self.on_message(chat["id"], int(result["message_id"]))
        return result


def _still_wanted(wanted: Callable[[], bool]) -> bool:
    try:
        return wanted()
    except Exception:
        log.exception("a waiting call's check failed: it is sent")
        return True


def _seconds(after: Any) -> float:
    return float(after.total_seconds()) if hasattr(after, "total_seconds") else float(after)


def rate_limiter(scale: float = 1.0, *, slack: float = 0.1, max_retries: int = 2) -> ChatPacedRateLimiter:
    """Telegram's limits (30/s overall, 20/min per group, 1/s per chat) with a margin; ``scale`` shortens every period.

    ``slack`` seconds are added to the per-chat pace: the pace is measured as requests
    leave, Telegram counts them as they arrive.
    """
    return ChatPacedRateLimiter(
        overall_max_rate=28,
        overall_time_period=1.0 * scale,
        group_max_rate=19,
        group_time_period=60.0 * scale,
        chat_period=1.0 * scale + slack,
        max_retries=max_retries,
    )
