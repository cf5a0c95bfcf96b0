"""Telegram's flood control as sliding windows: per chat, per group, and for the whole bot."""

from __future__ import annotations

from collections import deque


class Window:
    """At most `limit` accepted messages per key in any `seconds`-long span; a limit of 0 disables it."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self._times: dict[int, deque[float]] = {}

    def wait(self, key: int, now: float) -> float:
        """Seconds until one more message for `key` fits (0 when it fits now)."""
        if self.limit <= 0:
            return 0.0
        times = self._times.get(key)
        if times is None:
            return 0.0
        while times and times[0] <= now - self.seconds:
            times.popleft()
        if len(times) < self.limit:
            return 0.0
        return times[0] + self.seconds - now

    def add(self, key: int, now: float) -> None:
        """Count one accepted message for `key` at `now`."""
        if self.limit > 0:
            self._times.setdefault(key, deque()).append(now)


class FloodControl:
    """The three limits Telegram documents; only messages that were accepted use up room."""

    def __init__(
        self, per_chat_per_second: float, per_group_per_minute: int, global_per_second: int, time_scale: float
    ) -> None:
        if per_chat_per_second <= 0:
            self.chat = Window(0, 0.0)
        elif per_chat_per_second >= 1:
            self.chat = Window(int(per_chat_per_second), 1.0 * time_scale)
        else:
            self.chat = Window(1, time_scale / per_chat_per_second)
        self.group = Window(per_group_per_minute, 60.0 * time_scale)
        self.overall = Window(global_per_second, 1.0 * time_scale)

    def wait(self, chat_id: int | None, now: float) -> float:
        """Seconds until a message to `chat_id` is allowed (0 when it is allowed now).

        None is a message sent via the bot in inline mode: only the bot's overall budget applies to its edits.
        """
        if chat_id is None:
            return self.overall.wait(0, now)
        waits = [self.chat.wait(chat_id, now), self.overall.wait(0, now)]
        if chat_id < 0:
            waits.append(self.group.wait(chat_id, now))
        return max(waits)

    def add(self, chat_id: int | None, now: float) -> None:
        """Count one accepted message to `chat_id` (None: an inline message, counted for the whole bot only)."""
        self.overall.add(0, now)
        if chat_id is None:
            return
        self.chat.add(chat_id, now)
        if chat_id < 0:
            self.group.add(chat_id, now)
