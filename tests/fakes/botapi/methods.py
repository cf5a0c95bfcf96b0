"""The Bot API methods that read or change chats: messages, edits, deletions, button answers, commands."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from .checks import check_reply_markup, check_text, require, require_int, utf16_len
from .flood import FloodControl
from .inline import InlineMode
from .model import JSON, ApiError, Edit, FakeMessage, bad_request, too_many_requests
from .results import INLINE
from .updates import UpdateBuilder
from .world import World

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the same as a current "
    "content and reply markup of the message"
)
_CHAT_ACTIONS = frozenset({
    "typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice", "upload_document",
    "choose_sticker", "find_location", "record_video_note", "upload_video_note",
})  # fmt: skip
_COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")
_NO_GIFTS = {"unlimited_gifts": False, "limited_gifts": False, "unique_gifts": False, "premium_subscription": False,
             "gifts_from_channels": False}
MAX_ANSWER_TEXT = 200  # characters of an answerCallbackQuery notification
DELETE_WINDOW = 48 * 3600  # seconds after sending during which a message can be deleted
_START_LINK = re.compile(r"https?://(?:t\.me|telegram\.me|telegram\.dog)/(?P<bot>[A-Za-z0-9_]{5,32})"
                         r"\?start=[A-Za-z0-9_-]{1,64}")


def _is_start_link(url: Any, bot_username: str) -> bool:
    """answerCallbackQuery's url for a callback button: only a t.me/<this bot>?start=... link."""
    found = _START_LINK.fullmatch(url) if isinstance(url, str) else None
    return found is not None and found["bot"].lower() == bot_username.lower()


class Methods:
    """Handlers keyed by Bot API method name; each takes the parsed params and returns the result."""

    def __init__(self, world: World, builder: UpdateBuilder, flood: FloodControl, clock: Callable[[], float], *,
                 whole_seconds: bool, allow_http_web_app: bool) -> None:
        self.world = world
        self.builder = builder
        self.flood = flood
        self.clock = clock
        self.whole_seconds = whole_seconds
        self.allow_http_web_app = allow_http_web_app
        self.commands: dict[str, list[JSON]] = {}
        self.inline = InlineMode(world, builder, allow_http_web_app=allow_http_web_app)
        self.emit: Callable[[JSON], Awaitable[object]] | None = None  # queues an update Telegram sends by itself

    def table(self) -> dict[str, Callable[[JSON], Any]]:
        """Method name -> handler, for the methods served here."""
        return {
            "getMe": lambda _params: dict(self.world.bot_user),
            "sendMessage": self.send_message,
            "editMessageText": self.edit_message_text,
            "editMessageReplyMarkup": self.edit_message_reply_markup,
            "deleteMessage": self.delete_message,
            "deleteMessages": self.delete_messages,
            "answerCallbackQuery": self.answer_callback_query,
            "answerInlineQuery": self.inline.answer_inline_query,
            "savePreparedInlineMessage": self.inline.save_prepared_inline_message,
            "getChat": self.get_chat,
            "getChatMember": self.get_chat_member,
            "leaveChat": self.leave_chat,
            "pinChatMessage": lambda params: self._pin(params, pinned=True),
            "unpinChatMessage": lambda params: self._pin(params, pinned=False),
            "sendChatAction": self.send_chat_action,
            "setMyCommands": self.set_my_commands,
            "getMyCommands": lambda params: self.commands.get(self._command_key(params), []),
            "deleteMyCommands": self.delete_my_commands,
        }

    # flood control

    def _check_flood(self, chat_id: int | None) -> float:
        now = self.clock()
        wait = self.flood.wait(chat_id, now)
        if wait > 0:
            raise too_many_requests(wait, whole_seconds=self.whole_seconds)
        return now

    # messages

    def send_message(self, params: JSON) -> JSON:
        """sendMessage: post the bot's text (with an optional keyboard) to a chat."""
        chat = self.world.writable_chat(require(params, "chat_id"))
        text, plain = check_text(params.get("text"), params.get("parse_mode"))
        markup = check_reply_markup(params.get("reply_markup"), chat["type"],
                                    allow_http_web_app=self.allow_http_web_app)
        reply = params.get("reply_parameters") or {}
        reply_to = reply.get("message_id", params.get("reply_to_message_id"))
        replied: FakeMessage | None = None
        if reply_to is not None:
            replied = self.world.find(chat["id"], reply_to)
            if replied is None or replied.deleted:
                replied = None
                if not reply.get("allow_sending_without_reply", params.get("allow_sending_without_reply")):
                    raise bad_request("message to be replied not found")
        thread_id = self.world.thread_for(chat, params.get("message_thread_id"), replied, self.world.bot_id)
        now = self._check_flood(chat["id"])
        message = self.world.post(chat, self.world.bot_user, text, plain, parse_mode=params.get("parse_mode"),
                                  reply_markup=markup, reply_to=replied.message_id if replied else None,
                                  replied=replied, thread_id=thread_id)
        self.flood.add(chat["id"], now)
        return message.to_api()

    def _editable(self, params: JSON, missing: str) -> tuple[FakeMessage, bool]:
        """The message an edit names, and whether it is named by inline_message_id (a message sent via the bot)."""
        if params.get("chat_id") in (None, "") and not params.get("message_id"):
            if params.get("inline_message_id") in (None, ""):
                raise bad_request("message identifier is not specified")
            return self.inline.message(params["inline_message_id"]), True
        chat = self.world.writable_chat(require(params, "chat_id"))
        message = self.world.find(chat["id"], require_int(params, "message_id"))
        if message is None or message.deleted:
            raise bad_request(missing)
        if not message.from_bot:
            raise bad_request("message can't be edited")
        return message, False

    def _apply_edit(self, message: FakeMessage, text: str, plain: str, parse_mode: str | None,
                    markup: JSON | None, now: float, *, inline: bool) -> JSON | bool:
        message.edits.append(Edit(now, message.text, message.plain, message.parse_mode, message.reply_markup))
        message.text, message.plain, message.parse_mode, message.reply_markup = text, plain, parse_mode, markup
        message.edit_date = int(self.world.now())
        self.flood.add(None if inline else message.chat_id, now)
        return True if inline else message.to_api()

    def edit_message_text(self, params: JSON) -> JSON | bool:
        """editMessageText: replace the text; the keyboard becomes the one given (none when omitted).

        A message sent via the bot is named by inline_message_id; the answer is then True, not the message.
        """
        message, inline = self._editable(params, "message to edit not found")
        text, plain = check_text(params.get("text"), params.get("parse_mode"))
        markup = check_reply_markup(params.get("reply_markup"), INLINE if inline else message.chat["type"],
                                    allow_http_web_app=self.allow_http_web_app)
        parse_mode = params.get("parse_mode")
        same_mode = (parse_mode or "").upper() == (message.parse_mode or "").upper()
        if text == message.text and same_mode and markup == message.reply_markup:
            raise bad_request(NOT_MODIFIED)
        now = self._check_flood(None if inline else message.chat_id)
        return self._apply_edit(message, text, plain, parse_mode, markup, now, inline=inline)

    def edit_message_reply_markup(self, params: JSON) -> JSON | bool:
        """editMessageReplyMarkup: replace the keyboard (removed when omitted); by inline_message_id too."""
        message, inline = self._editable(params, "message to edit not found")
        markup = check_reply_markup(params.get("reply_markup"), INLINE if inline else message.chat["type"],
                                    allow_http_web_app=self.allow_http_web_app)
        if markup == message.reply_markup:
            raise bad_request(NOT_MODIFIED)
        now = self._check_flood(None if inline else message.chat_id)
        return self._apply_edit(message, message.text, message.plain, message.parse_mode, markup, now, inline=inline)

    def _deletable(self, chat: JSON, message_id: Any) -> FakeMessage:
        message = self.world.find(chat["id"], message_id)
        if message is None or message.deleted:
            raise bad_request("message to delete not found")
        if message.undeletable or self.world.now() - message.date >= DELETE_WINDOW:
            raise bad_request("message can't be deleted")
        bot_id = self.world.bot_id
        if not message.from_bot and chat["type"] != "private" and bot_id not in self.world.admins.get(chat["id"], ()):
            raise bad_request("message can't be deleted")
        return message

    def delete_message(self, params: JSON) -> bool:
        """deleteMessage: flag the message deleted (only within 48 hours of sending, as on Telegram)."""
        chat = self.world.writable_chat(require(params, "chat_id"))
        message = self._deletable(chat, require_int(params, "message_id"))
        now = self._check_flood(None)  # deletions count against the bot's overall budget, like every call
        message.deleted = True
        self.flood.add(None, now)
        return True

    def delete_messages(self, params: JSON) -> bool:
        """deleteMessages: delete those of the messages that can be; missing ones are skipped."""
        chat = self.world.writable_chat(require(params, "chat_id"))
        ids = require(params, "message_ids")
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise bad_request("message_ids must be a list of 1-100 message identifiers")
        now = self._check_flood(None)  # one call, whatever the number of ids
        self.flood.add(None, now)
        for message_id in ids:
            try:
                self._deletable(chat, message_id).deleted = True
            except ApiError:
                continue
        return True

    def answer_callback_query(self, params: JSON) -> bool:
        """answerCallbackQuery: each query can be answered once, with at most 200 characters and the bot's own link."""
        query_id = str(require(params, "callback_query_id"))
        if query_id not in self.builder.open_queries or query_id in self.builder.answers:
            raise bad_request("query is too old and response timeout expired or query ID is invalid")
        text = params.get("text")
        if text is not None and (not isinstance(text, str) or utf16_len(text) > MAX_ANSWER_TEXT):
            raise bad_request("MESSAGE_TOO_LONG")
        url = params.get("url")
        if url is not None and not _is_start_link(url, str(self.world.bot_user.get("username", ""))):
            raise bad_request("URL_INVALID")
        self.builder.answers[query_id] = params
        return True

    # chats

    def get_chat(self, params: JSON) -> JSON:
        """getChat: the ChatFullInfo of a known chat."""
        chat = self.world.known_chat(require(params, "chat_id"))
        return {**chat, "accent_color_id": 0, "max_reaction_count": 11, "accepted_gift_types": dict(_NO_GIFTS)}

    async def leave_chat(self, params: JSON) -> bool:
        """leaveChat: the bot leaves a group; Telegram then sends it a my_chat_member update."""
        chat = self.world.writable_chat(require(params, "chat_id"))
        if chat["type"] == "private":
            raise bad_request("chat member status can't be changed in private chats")
        update = self.builder.bot_left(chat["id"])
        if self.emit is not None:
            await self.emit(update)
        return True

    def get_chat_member(self, params: JSON) -> JSON:
        """getChatMember: creator, administrator (see set_admin), member or left."""
        chat = self.world.known_chat(require(params, "chat_id"))
        return self.world.member(chat["id"], require_int(params, "user_id"))

    def _pin(self, params: JSON, *, pinned: bool) -> bool:
        chat = self.world.writable_chat(require(params, "chat_id"))
        message = self.world.find(chat["id"], params.get("message_id"))
        if message is None or message.deleted:
            raise bad_request(f"message to {'pin' if pinned else 'unpin'} not found")
        message.pinned = pinned
        return True

    def send_chat_action(self, params: JSON) -> bool:
        """sendChatAction: accepted for chats the bot may write to."""
        self.world.writable_chat(require(params, "chat_id"))
        if params.get("action") not in _CHAT_ACTIONS:
            raise bad_request("wrong type of action")
        return True

    # commands

    @staticmethod
    def _command_key(params: JSON) -> str:
        scope = params.get("scope") or {"type": "default"}
        return json.dumps([scope, params.get("language_code") or ""], sort_keys=True)

    def set_my_commands(self, params: JSON) -> bool:
        """setMyCommands: store the list for the scope and language."""
        commands = require(params, "commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request("commands must be a list of at most 100 BotCommand")
        for command in commands:
            name, description = command.get("command"), command.get("description")
            if not isinstance(name, str) or not _COMMAND_NAME.fullmatch(name):
                raise bad_request("BOT_COMMAND_INVALID")
            if not isinstance(description, str) or not 1 <= len(description) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[self._command_key(params)] = [dict(c) for c in commands]
        return True

    def delete_my_commands(self, params: JSON) -> bool:
        """deleteMyCommands: forget the list for the scope and language."""
        self.commands.pop(self._command_key(params), None)
        return True
