"""Who and what exists on the fake Telegram: users, chats, members and admins, and the messages in each chat."""

from __future__ import annotations

import time
from typing import Any

from .model import JSON, ApiError, FakeMessage, bad_request

CAN_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BLOCKED = "Forbidden: bot was blocked by the user"

_ADMIN_RIGHTS = (
    "can_manage_chat", "can_delete_messages", "can_manage_video_chats", "can_restrict_members",
    "can_promote_members", "can_change_info", "can_invite_users", "can_post_stories", "can_edit_stories",
    "can_delete_stories", "can_pin_messages", "can_manage_topics",
)  # fmt: skip


class World:
    """The users and chats the bot can see, and every message sent in them."""

    def __init__(self, bot_user: JSON) -> None:
        self.bot_user = bot_user
        self.users: dict[int, JSON] = {}
        self.chats: dict[int, JSON] = {}
        self.started_users: set[int] = set()
        self.blocked_users: set[int] = set()
        self.kicked_from: set[int] = set()
        self.members: dict[int, set[int]] = {}
        self.admins: dict[int, set[int]] = {}
        self.owners: dict[int, int] = {}
        self._messages: dict[int, list[FakeMessage]] = {}

    # people and chats

    def add_user(self, user_id: int, first_name: str | None = None, username: str | None = None,
                 language_code: str | None = None) -> JSON:
        """Register (or update) a human user and return the User object."""
        user = self.users.setdefault(user_id, {"id": user_id, "is_bot": False, "first_name": f"User{user_id}"})
        if first_name is not None:
            user["first_name"] = first_name
        if username is not None:
            user["username"] = username
        if language_code is not None:
            user["language_code"] = language_code
        return user

    def user(self, user: int | JSON) -> JSON:
        """A User object from an id (registering it) or from a dict (registered as given)."""
        if isinstance(user, int):
            return self.add_user(user)
        self.users[int(user["id"])] = {"is_bot": False, **user}
        return self.users[int(user["id"])]

    def add_group(self, chat_id: int, title: str = "Card night", chat_type: str = "supergroup") -> JSON:
        """Register a group the bot is a member of and return the Chat object."""
        if chat_id >= 0 or chat_type not in ("group", "supergroup"):
            raise ValueError("groups have negative ids and type 'group' or 'supergroup'")
        chat = self.chats.setdefault(chat_id, {"id": chat_id, "type": chat_type, "title": title})
        chat.update(type=chat_type, title=title)
        self.kicked_from.discard(chat_id)
        return chat

    def private_chat(self, user_id: int) -> JSON:
        """The private chat with a user (its id is the user's id)."""
        user = self.add_user(user_id)
        chat = {"id": user_id, "type": "private", "first_name": user["first_name"]}
        if "username" in user:
            chat["username"] = user["username"]
        self.chats[user_id] = chat
        return chat

    def chat(self, chat: int | JSON) -> JSON:
        """A Chat object from an id (a negative unknown id becomes a new group) or from a dict."""
        if isinstance(chat, dict):
            if chat.get("type") == "private":
                return self.private_chat(int(chat["id"]))
            return self.add_group(int(chat["id"]), chat.get("title", "Card night"), chat.get("type", "supergroup"))
        if chat > 0:
            return self.private_chat(chat)
        return self.chats.get(chat) or self.add_group(chat)

    def start(self, user_id: int) -> None:
        """The user pressed Start: the bot may now write to them."""
        self.private_chat(user_id)
        self.started_users.add(user_id)
        self.blocked_users.discard(user_id)

    def block(self, user_id: int) -> None:
        """The user blocked the bot."""
        self.started_users.discard(user_id)
        self.blocked_users.add(user_id)

    def join(self, chat_id: int, user_id: int) -> None:
        """Record that a user is a member of a group."""
        self.members.setdefault(chat_id, set()).add(user_id)

    # lookups with Telegram's refusals

    def known_chat(self, chat_id: Any) -> JSON:
        """A chat the bot can read, or 400 chat not found."""
        if isinstance(chat_id, bool) or not isinstance(chat_id, int):
            raise bad_request("chat not found")
        if chat_id > 0:
            if chat_id not in self.started_users | self.blocked_users:
                raise bad_request("chat not found")
            return self.chats.get(chat_id) or self.private_chat(chat_id)  # started_users may be edited directly
        chat = self.chats.get(chat_id)
        if chat is None:
            raise bad_request("chat not found")
        return chat

    def writable_chat(self, chat_id: Any) -> JSON:
        """A chat the bot may post in, or Telegram's 400/403."""
        if isinstance(chat_id, int) and not isinstance(chat_id, bool) and chat_id > 0:
            if chat_id in self.blocked_users:
                raise ApiError(403, BLOCKED)
            if chat_id not in self.started_users:
                raise ApiError(403, CAN_INITIATE)
        chat = self.known_chat(chat_id)
        if chat_id in self.kicked_from:
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat['type']} chat")
        return chat

    # messages

    def post(self, chat: JSON, from_user: JSON, text: str, plain: str, **fields: Any) -> FakeMessage:
        """Append a message to a chat with the chat's next message_id."""
        chat_messages = self._messages.setdefault(int(chat["id"]), [])
        message_id = chat_messages[-1].message_id + 1 if chat_messages else 1
        message = FakeMessage(chat=chat, message_id=message_id, date=int(time.time()), from_user=from_user,
                              text=text, plain=plain, **fields)
        chat_messages.append(message)
        return message

    def find(self, chat_id: int, message_id: Any) -> FakeMessage | None:
        """The message (deleted or not), or None."""
        if isinstance(message_id, bool) or not isinstance(message_id, int):
            return None
        for message in self._messages.get(chat_id, []):
            if message.message_id == message_id:
                return message
        return None

    def messages(self, chat_id: int, *, include_users: bool = False) -> list[FakeMessage]:
        """Messages in a chat in order, deleted ones included (flagged); only the bot's unless asked."""
        return [m for m in self._messages.get(chat_id, []) if include_users or m.from_bot]

    def member(self, chat_id: int, user_id: int) -> JSON:
        """The ChatMember object for a user in a chat."""
        user = self.bot_user if user_id == self.bot_user["id"] else self.add_user(user_id)
        if self.owners.get(chat_id) == user_id:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if user_id in self.admins.get(chat_id, set()):
            rights = {right: True for right in _ADMIN_RIGHTS}
            return {"status": "administrator", "user": user, "can_be_edited": False, "is_anonymous": False, **rights}
        in_chat = chat_id == user_id or user_id in self.members.get(chat_id, set())
        if user_id == self.bot_user["id"]:
            in_chat = chat_id not in self.kicked_from
        return {"status": "member" if in_chat else "left", "user": user}
