"""Who and what exists on the fake Telegram: users, chats, members and admins, topics, and the messages in each chat.

Reads (getChat, getChatMember) and writes (sending, editing, deleting, pinning) are refused the way the Bot API
server refuses them: a supergroup the bot was kicked from or left is closed to both, a basic group only to writes,
and a basic group that became a supergroup answers writes with its new id.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .model import JSON, ApiError, FakeMessage, Topic, bad_request

CAN_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BLOCKED = "Forbidden: bot was blocked by the user"
UPGRADED = "group chat was upgraded to a supergroup chat"
THREAD_NOT_FOUND = "message thread not found"
TOPIC_CLOSED = "TOPIC_CLOSED"
# The service account Telegram shows as the sender of messages sent on behalf of a group.
GROUP_ANONYMOUS_BOT: JSON = {"id": 1087968824, "is_bot": True, "first_name": "Group", "username": "GroupAnonymousBot"}
# Who opened a group, created a topic or upgraded the group when a test does not say.
GROUP_CREATOR_ID = 999_000_001
DEFAULT_ICON_COLOR = 0x6FB9F0

_ADMIN_RIGHTS = (
    "can_manage_chat", "can_delete_messages", "can_manage_video_chats", "can_restrict_members",
    "can_promote_members", "can_change_info", "can_invite_users", "can_post_stories", "can_edit_stories",
    "can_delete_stories", "can_pin_messages", "can_manage_topics",
)  # fmt: skip


def forbidden(what: str) -> ApiError:
    """A 403 with Telegram's "Forbidden: " prefix."""
    return ApiError(403, f"Forbidden: {what}")


class World:
    """The users and chats the bot can see, and every message sent in them.

    `now` gives Unix time; message dates, edit dates and the 48-hour deletion window use it.
    """

    def __init__(self, bot_user: JSON, now: Callable[[], float] = time.time) -> None:
        self.bot_user = bot_user
        self.now = now
        self.users: dict[int, JSON] = {}
        self.chats: dict[int, JSON] = {}
        self.started_users: set[int] = set()
        self.blocked_users: set[int] = set()
        self.kicked_from: set[int] = set()
        self.left_from: set[int] = set()
        self.migrated_to: dict[int, int] = {}
        self.members: dict[int, set[int]] = {}
        self.admins: dict[int, set[int]] = {}
        self.owners: dict[int, int] = {}
        self.topics: dict[int, dict[int, Topic]] = {}
        self.general_closed: set[int] = set()
        self._messages: dict[int, list[FakeMessage]] = {}
        self._outside: dict[tuple[object, ...], list[FakeMessage]] = {}  # chats the bot is not in, by who is there

    @property
    def bot_id(self) -> int:
        """The bot's user id."""
        return int(self.bot_user["id"])

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

    def add_group(self, chat_id: int, title: str = "Card night", chat_type: str = "supergroup", *,
                  is_forum: bool | None = None) -> JSON:
        """Register a group the bot is a member of and return the Chat object.

        `is_forum` (supergroups only) turns topics on; None keeps what the chat had.
        """
        if chat_id >= 0 or chat_type not in ("group", "supergroup"):
            raise ValueError("groups have negative ids and type 'group' or 'supergroup'")
        if is_forum and chat_type != "supergroup":
            raise ValueError("only supergroups can be forums")
        chat = self.chats.setdefault(chat_id, {"id": chat_id, "type": chat_type, "title": title})
        chat.update(type=chat_type, title=title)
        if is_forum or (is_forum is None and chat.get("is_forum") and chat_type == "supergroup"):
            chat["is_forum"] = True
        else:
            chat.pop("is_forum", None)
        self.kicked_from.discard(chat_id)
        self.left_from.discard(chat_id)
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
            return self.add_group(int(chat["id"]), chat.get("title", "Card night"), chat.get("type", "supergroup"),
                                  is_forum=chat.get("is_forum"))
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

    def actor(self, chat_id: int, by: int | JSON | None) -> JSON:
        """The user behind a change in a group: `by`, else the group's creator (one is made up if none was set)."""
        if by is not None:
            user = self.user(by)
        else:
            owner = self.owners.setdefault(chat_id, GROUP_CREATOR_ID)
            user = self.users.get(owner) or self.add_user(owner, "Group creator")
        self.join(chat_id, int(user["id"]))
        return user

    # the bot's own membership

    def bot_in(self, chat_id: int) -> bool:
        """Whether the bot is (still) a member of the group."""
        return chat_id not in self.kicked_from and chat_id not in self.left_from and chat_id not in self.migrated_to

    def set_bot_status(self, chat_id: int, status: str) -> tuple[JSON, JSON]:
        """Make the bot a member, administrator, kicked or left in a group; returns (old, new) ChatMember."""
        old = self.member(chat_id, self.bot_id)
        self.kicked_from.discard(chat_id)
        self.left_from.discard(chat_id)
        admins = self.admins.setdefault(chat_id, set())
        if status == "administrator":
            admins.add(self.bot_id)
        else:
            admins.discard(self.bot_id)
        if status == "kicked":
            self.kicked_from.add(chat_id)
        elif status == "left":
            self.left_from.add(chat_id)
        elif status not in ("member", "administrator"):
            raise ValueError(f"unknown status {status!r}")
        return old, self.member(chat_id, self.bot_id)

    # lookups with Telegram's refusals

    def _lookup(self, chat_id: Any) -> JSON:
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

    def known_chat(self, chat_id: Any) -> JSON:
        """A chat the bot may read (getChat, getChatMember), or Telegram's 400/403."""
        chat = self._lookup(chat_id)
        if chat["type"] == "supergroup":
            if chat_id in self.kicked_from:
                raise forbidden("bot was kicked from the supergroup chat")
            if chat_id in self.left_from:
                raise forbidden("bot is not a member of the supergroup chat")
        return chat

    def writable_chat(self, chat_id: Any) -> JSON:
        """A chat the bot may post, edit, delete or pin in, or Telegram's 400/403."""
        if isinstance(chat_id, int) and not isinstance(chat_id, bool) and chat_id > 0:
            if chat_id in self.blocked_users:
                raise ApiError(403, BLOCKED)
            if chat_id not in self.started_users:
                raise ApiError(403, CAN_INITIATE)
        chat = self._lookup(chat_id)
        if chat_id in self.migrated_to:
            raise ApiError(400, f"Bad Request: {UPGRADED}", {"migrate_to_chat_id": self.migrated_to[chat_id]})
        if chat_id in self.kicked_from:
            raise forbidden(f"bot was kicked from the {chat['type']} chat")
        if chat_id in self.left_from:
            raise forbidden(f"bot is not a member of the {chat['type']} chat")
        return chat

    # forum topics

    def forum(self, chat_id: int) -> JSON:
        """A forum supergroup, or ValueError (a test-side mistake)."""
        chat = self.chats.get(chat_id)
        if chat is None or not chat.get("is_forum"):
            raise ValueError(f"chat {chat_id} is not a forum supergroup (add_group(..., is_forum=True))")
        return chat

    def topic(self, chat_id: int, thread_id: int) -> Topic:
        """An existing topic, or ValueError (a test-side mistake)."""
        self.forum(chat_id)
        topic = self.topics.get(chat_id, {}).get(thread_id)
        if topic is None:
            raise ValueError(f"chat {chat_id} has no topic {thread_id}")
        return topic

    def can_manage_topics(self, chat_id: int, user_id: int) -> bool:
        """Creators and administrators (who all hold can_manage_topics here) may write in closed topics."""
        return self.owners.get(chat_id) == user_id or user_id in self.admins.get(chat_id, set())

    def thread_for(self, chat: JSON, requested: Any, replied: FakeMessage | None, sender_id: int) -> int | None:
        """The topic a new message goes to, or Telegram's 400 (unknown thread, closed topic or closed General)."""
        thread_id: int | None = None
        if requested is not None:
            if isinstance(requested, bool) or not isinstance(requested, int):
                raise bad_request(THREAD_NOT_FOUND)
            if not chat.get("is_forum") or requested not in self.topics.get(chat["id"], {}):
                raise bad_request(THREAD_NOT_FOUND)  # General is not a thread: its messages carry no thread id
            thread_id = requested
        elif replied is not None:
            thread_id = replied.thread_id  # a reply goes to the topic of the message it answers
        if not chat.get("is_forum") or self.can_manage_topics(chat["id"], sender_id):
            return thread_id
        closed = (self.topics[chat["id"]][thread_id].closed if thread_id is not None
                  else chat["id"] in self.general_closed)
        if closed:
            raise bad_request(TOPIC_CLOSED)
        return thread_id

    # messages

    def post(self, chat: JSON, from_user: JSON, text: str, plain: str, **fields: Any) -> FakeMessage:
        """Append a message to a chat with the chat's next message_id.

        A message in a topic that answers nothing else is shown as a reply to the topic's first message.
        """
        chat_messages = self._messages.setdefault(int(chat["id"]), [])
        message_id = chat_messages[-1].message_id + 1 if chat_messages else 1
        message = FakeMessage(chat=chat, message_id=message_id, date=int(self.now()), from_user=from_user,
                              text=text, plain=plain, **fields)
        if message.replied is None and message.reply_to is not None:
            message.replied = self.find(message.chat_id, message.reply_to)
        if message.thread_id is not None and message.replied is None:
            message.replied = self.find(message.chat_id, message.thread_id)
        chat_messages.append(message)
        return message

    def post_outside(self, key: tuple[object, ...], chat: JSON, from_user: JSON, text: str, plain: str,
                     **fields: Any) -> FakeMessage:
        """Append a message to a chat the bot is not in (it never sees it), keyed by who is there.

        Two people's private chat has a different id on each side; `chat` is the sender's view of it.
        """
        chat_messages = self._outside.setdefault(key, [])
        message_id = chat_messages[-1].message_id + 1 if chat_messages else 1
        message = FakeMessage(chat=chat, message_id=message_id, date=int(self.now()), from_user=from_user,
                              text=text, plain=plain, **fields)
        chat_messages.append(message)
        return message

    def post_service(self, chat: JSON, from_user: JSON, service: JSON, **fields: Any) -> FakeMessage:
        """Append a service message (no text) to a chat."""
        return self.post(chat, from_user, "", "", service=service, **fields)

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
        user = self.bot_user if user_id == self.bot_id else self.add_user(user_id)
        if user_id == self.bot_id and chat_id in self.kicked_from:
            return {"status": "kicked", "user": user, "until_date": 0}
        if self.owners.get(chat_id) == user_id:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if user_id in self.admins.get(chat_id, set()):
            rights = {right: True for right in _ADMIN_RIGHTS}
            return {"status": "administrator", "user": user, "can_be_edited": False, "is_anonymous": False, **rights}
        in_chat = chat_id == user_id or user_id in self.members.get(chat_id, set())
        if user_id == self.bot_id:
            in_chat = self.bot_in(chat_id)
        return {"status": "member" if in_chat else "left", "user": user}
