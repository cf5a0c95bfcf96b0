"""Inline mode and prepared messages: a person's query from any chat, the bot's answer, and the message a chosen
result (or a prepared message shared from the Mini App) posts there via the bot.

Such a message is the person's, sent "via" the bot: the bot edits it only by its ``inline_message_id``, which
Telegram gives only when the message has an inline keyboard (in ``chosen_inline_result``, when inline feedback
is on, and in the callback queries of its buttons). A chat the bot is not in never shows the bot the message.
"""

from __future__ import annotations

import base64
import itertools
import struct
import zlib
from dataclasses import dataclass, field
from typing import Any

from .model import JSON, FakeMessage, bad_request
from .results import InlineResult, check_next_offset, check_result, check_results, check_results_button
from .updates import UpdateBuilder
from .world import World

QUERY_TIMEOUT = 10.0  # seconds Telegram waits for the bot's answerInlineQuery
PREPARED_LIFETIME = 24 * 3600  # Telegram does not document it; the fake keeps a prepared message for a day
MAX_QUERY = 256  # characters of an inline query's text
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
CHAT_TYPES = ("sender", "private", "group", "supergroup", "channel")
SHARE_KINDS = ("user", "bot", "group", "channel")  # savePreparedInlineMessage's allow_<kind>_chats
_VIA_BOT_FIELDS = ("id", "is_bot", "first_name", "username")


@dataclass(frozen=True, slots=True)
class Place:
    """A chat a person writes in, as they see it: its inline chat_type and kind, and where its messages live.

    `key` is None for a chat the bot is in (its messages are the world's); otherwise the bot never sees them.
    """

    chat: JSON
    chat_type: str
    kind: str  # one of SHARE_KINDS
    key: tuple[object, ...] | None

    @property
    def chat_instance(self) -> str:
        """The callback queries' chat_instance for messages in this chat."""
        if self.key is None:
            return str(-int(self.chat["id"]) * 7 + 3)
        return str(zlib.crc32(repr(self.key).encode()) * 13 + 5)


@dataclass(slots=True)
class InlineQuery:
    """A query a person typed; `results` is None until the bot answers."""

    id: str
    user: JSON
    query: str
    offset: str
    place: Place
    date: float
    results: dict[str, InlineResult] | None = None
    answer: JSON | None = None


@dataclass(slots=True)
class PreparedMessage:
    """A result saved by savePreparedInlineMessage for one person's Mini App to share."""

    id: str
    user_id: int
    result: InlineResult
    allowed: frozenset[str]
    expiration_date: int


@dataclass(slots=True)
class Chosen:
    """What sending a result did: the message posted, its inline_message_id (only with a keyboard) and the updates
    Telegram sends the bot about it, in order (the message where the bot sees it, then chosen_inline_result when
    inline feedback is on)."""

    message: FakeMessage
    inline_message_id: str | None
    updates: list[JSON] = field(default_factory=list)


class ShareRefused(Exception):
    """The Mini App's shareMessage failed; `error` is what its prepared_message_failed event carries."""

    def __init__(self, error: str, reason: str) -> None:
        super().__init__(f"{error}: {reason}")
        self.error = error
        self.reason = reason


class InlineMode:
    """Inline queries, their answers, inline messages and prepared messages of one bot."""

    def __init__(self, world: World, builder: UpdateBuilder, *, allow_http_web_app: bool) -> None:
        self.world = world
        self.builder = builder
        self.allow_http_web_app = allow_http_web_app
        self.enabled = False
        self.feedback = False
        self.queries: dict[str, InlineQuery] = {}
        self.messages: dict[str, FakeMessage] = {}
        self.prepared: dict[str, PreparedMessage] = {}
        self._instances: dict[str, str] = {}
        self._query_ids = itertools.count(7_000_001)
        self._serial = itertools.count(1)

    def configure(self, *, enabled: bool, feedback: bool) -> None:
        """Switch inline mode (/setinline) and inline feedback (/setinlinefeedback) on or off."""
        self.enabled, self.feedback = enabled, feedback
        self.world.bot_user["supports_inline_queries"] = enabled

    # where people write

    def place(self, user: JSON, chat: int | JSON | None, chat_type: str | None) -> Place:
        """The chat `user` writes in: None (or their own id) is their chat with the bot, another user's id their
        chat with that user, a group's id a group (give chat_type for one the fake does not know)."""
        world, user_id = self.world, int(user["id"])
        if chat_type is not None and chat_type not in CHAT_TYPES:
            raise ValueError(f"chat_type is one of {CHAT_TYPES}, not {chat_type!r}")
        chat_id = int(chat["id"]) if isinstance(chat, dict) else chat
        if chat_id is None or chat_id == user_id:
            if chat_type not in (None, "sender"):
                raise ValueError(f"the chat with the bot has chat_type 'sender', not {chat_type!r}")
            if user_id not in world.started_users:
                raise ValueError(f"{user_id} never started the bot: its chat shows Start, not a text field")
            return Place(world.private_chat(user_id), "sender", "bot", None)
        if chat_id > 0:
            if chat_type not in (None, "private"):
                raise ValueError(f"a chat with another person has chat_type 'private', not {chat_type!r}")
            peer = world.users.get(chat_id) or world.add_user(chat_id)
            seen: JSON = {"id": chat_id, "type": "private", "first_name": peer["first_name"]}
            if "username" in peer:
                seen["username"] = peer["username"]
            kind = "bot" if peer.get("is_bot") else "user"
            return Place(seen, "private", kind, ("private", min(user_id, chat_id), max(user_id, chat_id)))
        if chat_id in world.migrated_to:
            raise ValueError(f"group {chat_id} became supergroup {world.migrated_to[chat_id]}: nobody writes here")
        known = world.chats.get(chat_id)
        if known is not None:
            if chat_type not in (None, known["type"]):
                raise ValueError(f"chat {chat_id} is a {known['type']}, not a {chat_type}")
            if world.bot_in(chat_id):
                world.join(chat_id, user_id)
                return Place(known, known["type"], "group", None)
            return Place(dict(known), known["type"], "group", ("chat", chat_id))
        given = chat.get("type") if isinstance(chat, dict) else None
        kind_of_chat = chat_type or given
        if kind_of_chat not in ("group", "supergroup", "channel"):
            raise ValueError(f"chat {chat_id} is unknown to the fake: say its chat_type (group, supergroup, channel)")
        title = chat.get("title", "Elsewhere") if isinstance(chat, dict) else "Elsewhere"
        outside: JSON = {"id": chat_id, "type": kind_of_chat, "title": title}
        return Place(outside, kind_of_chat, "channel" if kind_of_chat == "channel" else "group", ("chat", chat_id))

    # what people do

    def query(self, from_user: int | JSON, text: str, *, chat: int | JSON | None, chat_type: str | None,
              offset: str) -> JSON:
        """An inline_query update: `from_user` typed "@bot `text`" in `chat`."""
        if not self.enabled:
            raise ValueError("inline mode is off for this bot (set_inline_mode): clients send no inline queries")
        if len(text) > MAX_QUERY:
            raise ValueError(f"inline queries have at most {MAX_QUERY} characters")
        user = self.world.user(from_user)
        place = self.place(user, chat, chat_type)
        query = InlineQuery(str(next(self._query_ids)), user, text, offset, place, self.world.now())
        self.queries[query.id] = query
        data: JSON = {"id": query.id, "from": dict(user), "query": text, "offset": offset,
                      "chat_type": place.chat_type}
        return self.builder.stamp({"inline_query": data})

    def choose(self, query_id: str, result_id: str) -> Chosen:
        """The person picked one of the bot's results: it is posted in the chat where they typed the query."""
        query = self.queries.get(query_id)
        if query is None:
            raise ValueError(f"no inline query {query_id!r}")
        if query.results is None:
            raise ValueError(f"the bot has not answered inline query {query_id}: there is nothing to choose")
        result = query.results.get(result_id)
        if result is None:
            raise ValueError(f"the bot's answer has no result {result_id!r}: {sorted(query.results)}")
        return self._send(query.place, query.user, result, query.query)

    def share(self, prepared_id: str, from_user: int | JSON, *, chat: int | JSON | None,
              chat_type: str | None) -> Chosen:
        """The person accepted the Mini App's shareMessage(`prepared_id`) and picked `chat`."""
        user = self.world.user(from_user)
        prepared = self.prepared.get(prepared_id)
        if prepared is None or prepared.user_id != int(user["id"]):
            raise ShareRefused("MESSAGE_EXPIRED", f"no prepared message {prepared_id!r} for user {user['id']}")
        if self.world.now() >= prepared.expiration_date:
            raise ShareRefused("MESSAGE_EXPIRED", f"prepared message {prepared_id!r} expired")
        place = self.place(user, chat, chat_type)
        if place.kind not in prepared.allowed:
            allowed = sorted(prepared.allowed)
            raise ShareRefused("MESSAGE_SEND_FAILED", f"the chat picker offers no {place.kind} chats ({allowed} only)")
        return self._send(place, user, prepared.result, "")

    def press(self, from_user: int | JSON, inline_message_id: str, button_text: str) -> JSON:
        """A callback_query for the button labelled `button_text` of a message sent via the bot."""
        message = self.messages.get(inline_message_id)
        if message is None:
            raise ValueError(f"no inline message {inline_message_id!r}")
        button = message.button(button_text)
        if "callback_data" not in button:
            raise LookupError(f"button {button_text!r} is not a callback button: {button}")
        return self.builder.inline_callback_query(from_user, inline_message_id, self._instances[inline_message_id],
                                                  button["callback_data"])

    def _send(self, place: Place, user: JSON, result: InlineResult, query: str) -> Chosen:
        if result.text is None or result.plain is None:
            raise ValueError(f"result {result.id!r} sends no text message; the fake posts text messages only")
        inline_id = self._new_id() if result.reply_markup is not None else None
        via_bot = {key: self.world.bot_user[key] for key in _VIA_BOT_FIELDS if key in self.world.bot_user}
        fields: dict[str, Any] = {"parse_mode": result.parse_mode, "reply_markup": result.reply_markup,
                                  "via_bot": via_bot, "inline_message_id": inline_id}
        if place.chat_type == "channel":
            fields["sender_chat"] = dict(place.chat)
        if place.key is None:
            message = self.world.post(place.chat, user, result.text, result.plain, **fields)
        else:
            message = self.world.post_outside(place.key, place.chat, user, result.text, result.plain, **fields)
        chosen = Chosen(message, inline_id)
        if inline_id is not None:
            self.messages[inline_id] = message
            self._instances[inline_id] = place.chat_instance
        if place.key is None:  # the bot's own chat, or a group it is in (privacy mode lets messages via it through)
            chosen.updates.append(self.builder.message_update(message))
        if self.feedback:
            feedback: JSON = {"result_id": result.id, "from": dict(user), "query": query}
            if inline_id is not None:
                feedback["inline_message_id"] = inline_id
            chosen.updates.append(self.builder.stamp({"chosen_inline_result": feedback}))
        return chosen

    def _new_id(self) -> str:
        packed = struct.pack("<iqq", 2, next(self._serial), zlib.crc32(self.world.bot_user["username"].encode()))
        return base64.urlsafe_b64encode(packed).decode().rstrip("=")

    # Bot API methods

    def answer_inline_query(self, params: JSON) -> bool:
        """answerInlineQuery: results, button and offset are checked first, then the query (once, within 10 s)."""
        check_results_button(params.get("button"), allow_http_web_app=self.allow_http_web_app)
        results = check_results(params.get("results"), allow_http_web_app=self.allow_http_web_app)
        check_next_offset(params.get("next_offset"))
        query = self.queries.get(str(params.get("inline_query_id", "")))
        if query is None or query.results is not None or self.world.now() - query.date > QUERY_TIMEOUT:
            raise bad_request(QUERY_TOO_OLD)
        query.results = {result.id: result for result in results}
        query.answer = dict(params)
        return True

    def save_prepared_inline_message(self, params: JSON) -> JSON:
        """savePreparedInlineMessage: keep one result for a person's Mini App to share; returns its id and expiry."""
        user_id = params.get("user_id")
        if isinstance(user_id, str) and user_id.isdigit():
            user_id = int(user_id)
        if isinstance(user_id, bool) or not isinstance(user_id, int) or user_id <= 0:
            raise bad_request("invalid user_id specified")
        result = check_result(params.get("result"), allow_http_web_app=self.allow_http_web_app)
        allowed = frozenset(kind for kind in SHARE_KINDS if params.get(f"allow_{kind}_chats") in (True, "true", 1))
        if not allowed:
            raise bad_request("at least one chat type must be allowed")
        if user_id not in self.world.users:
            raise bad_request("user not found")
        prepared_id = base64.urlsafe_b64encode(struct.pack("<iq", user_id % 2**31, next(self._serial))).decode()
        prepared = PreparedMessage(prepared_id.rstrip("="), user_id, result, allowed,
                                   int(self.world.now()) + PREPARED_LIFETIME)
        self.prepared[prepared.id] = prepared
        return {"id": prepared.id, "expiration_date": prepared.expiration_date}

    def message(self, inline_message_id: Any) -> FakeMessage:
        """The message sent via the bot with this inline_message_id, or Telegram's 400."""
        message = self.messages.get(str(inline_message_id))
        if message is None:
            raise bad_request("MESSAGE_ID_INVALID")
        return message
