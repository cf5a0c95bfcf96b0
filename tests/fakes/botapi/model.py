"""The records the fake Bot API keeps: calls, messages with their edits, webhook deliveries, errors."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


class ApiError(Exception):
    """A Bot API refusal, sent back as {"ok": false, "error_code", "description", "parameters"}."""

    def __init__(self, code: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def envelope(self) -> JSON:
        """The JSON body Telegram answers with."""
        body: JSON = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(what: str) -> ApiError:
    """A 400 with Telegram's "Bad Request: " prefix."""
    return ApiError(400, f"Bad Request: {what}")


def too_many_requests(wait: float, *, whole_seconds: bool) -> ApiError:
    """A 429 asking the client to wait; Telegram always says whole seconds, scaled tests may not."""
    retry_after: float = max(1, math.ceil(wait)) if whole_seconds else max(0.001, math.ceil(wait * 1000) / 1000)
    shown = f"{retry_after:g}"
    return ApiError(429, f"Too Many Requests: retry after {shown}", {"retry_after": retry_after})


@dataclass(slots=True)
class Call:
    """One HTTP request the fake received (times come from the fake's clock)."""

    method: str
    params: JSON
    time: float
    status: int = 0
    response: JSON = field(default_factory=dict)
    fault: str | None = None  # the injected fault this call met (see FakeBotApi.inject_fault)

    @property
    def ok(self) -> bool:
        """True when the call succeeded."""
        return self.status == 200


@dataclass(slots=True)
class Edit:
    """A message's content before one edit replaced it."""

    time: float
    text: str
    plain: str
    parse_mode: str | None
    reply_markup: JSON | None


def shown(text: str) -> str:
    """``text`` without the invisible marks that isolate names from the text around them (U+2068, U+2069)."""
    return text.replace("\u2068", "").replace("\u2069", "")


@dataclass(slots=True)
class FakeMessage:
    """A message in a chat: raw text as sent, plain text with markup stripped, keyboard as parsed.

    Service messages (topic created, group migrated, ...) have empty text and their Bot API fields in `service`.
    """

    chat: JSON
    message_id: int
    date: int
    from_user: JSON
    text: str
    plain: str
    parse_mode: str | None = None
    reply_markup: JSON | None = None
    entities: list[JSON] | None = None
    reply_to: int | None = None
    edits: list[Edit] = field(default_factory=list)
    edit_date: int | None = None
    deleted: bool = False
    pinned: bool = False
    thread_id: int | None = None  # the forum topic the message is in (None: General, or not a forum)

    @property
    def shown(self) -> str:
        """The plain text as a reader sees it: without the invisible marks that isolate names (U+2068, U+2069)."""
        return shown(self.plain)
    service: JSON | None = None
    sender_chat: JSON | None = None
    via_bot: JSON | None = None  # the bot whose inline result a person sent (inline mode, shared prepared messages)
    inline_message_id: str | None = None  # how the bot edits a message sent via it (when it had a keyboard)
    replied: FakeMessage | None = field(default=None, repr=False, compare=False)

    @property
    def chat_id(self) -> int:
        """The id of the chat the message is in."""
        return int(self.chat["id"])

    @property
    def from_bot(self) -> bool:
        """True for messages the bot sent."""
        return bool(self.from_user.get("is_bot"))

    @property
    def buttons(self) -> list[JSON]:
        """The inline keyboard's buttons, row by row, as sent."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [button for row in rows for button in row]

    def button(self, text: str) -> JSON:
        """The one inline button whose text is `text` (tags and spacing as sent)."""
        found = [b for b in self.buttons if b.get("text") == text]
        if len(found) != 1:
            shown = [b.get("text") for b in self.buttons]
            raise LookupError(f"{len(found)} buttons named {text!r} in message {self.message_id}: {shown}")
        return found[0]

    @property
    def undeletable(self) -> bool:
        """Service messages about a supergroup's or a forum topic's creation can't be deleted."""
        return self.service is not None and bool({"forum_topic_created", "migrate_from_chat_id"} & self.service.keys())

    def to_api(self, *, nested: bool = False) -> JSON:
        """The Message object Telegram would return for this message (a replied-to message is not nested twice)."""
        data: JSON = {"message_id": self.message_id, "date": self.date, "chat": dict(self.chat)}
        data["from"] = dict(self.from_user)
        if self.sender_chat is not None:
            data["sender_chat"] = dict(self.sender_chat)
        if self.via_bot is not None:
            data["via_bot"] = dict(self.via_bot)
        if self.thread_id is not None:
            data["message_thread_id"] = self.thread_id
            data["is_topic_message"] = True
        if self.replied is not None and not nested:
            data["reply_to_message"] = self.replied.to_api(nested=True)
        if self.service:
            data.update(self.service)
            return data
        data["text"] = self.plain
        if self.entities:
            data["entities"] = [dict(e) for e in self.entities]
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            data["reply_markup"] = self.reply_markup
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        return data


@dataclass(slots=True)
class Topic:
    """A forum topic; its id is the id of the service message that created it."""

    thread_id: int
    name: str
    icon_color: int
    closed: bool = False


@dataclass(slots=True)
class Delivery:
    """One webhook POST: the update, the HTTP status (0 when the connection failed) and the headers sent."""

    update: JSON
    status: int
    headers: dict[str, str]
    error: str | None = None
