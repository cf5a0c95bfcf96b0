"""Builders for the updates a test sends the bot: messages with command entities, button presses, joins."""

from __future__ import annotations

import itertools
import re

from .checks import utf16_len
from .model import JSON, ApiError, FakeMessage, Topic
from .world import GROUP_ANONYMOUS_BOT, World

_COMMAND = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?")

# Telegram's default when allowed_updates is empty: everything except these.
NOT_BY_DEFAULT = frozenset({"chat_member", "message_reaction", "message_reaction_count"})


def command_entities(text: str) -> list[JSON]:
    """bot_command entities for every /command in the text, offsets in UTF-16 units."""
    return [
        {"type": "bot_command", "offset": utf16_len(text[: match.start()]), "length": utf16_len(match.group())}
        for match in _COMMAND.finditer(text)
    ]


def update_kind(update: JSON) -> str:
    """The update's type: the one field besides update_id."""
    kinds = [key for key in update if key != "update_id"]
    return kinds[0] if kinds else ""


def is_allowed(update: JSON, allowed: list[str] | None) -> bool:
    """Whether an update passes the bot's allowed_updates setting."""
    kind = update_kind(update)
    if not allowed:
        return kind not in NOT_BY_DEFAULT
    return kind in allowed


class UpdateBuilder:
    """Makes update dicts and records their side effects (user messages, members, pending queries)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.open_queries: dict[str, JSON] = {}
        self.answers: dict[str, JSON] = {}
        self._query_ids = itertools.count(1_000_001)
        self._next_update_id = 1

    def stamp(self, update: JSON, after: int = 0) -> JSON:
        """Give the update the next update_id above `after` (builders do this, so they return whole Updates)."""
        update_id = self._next_update_id = max(self._next_update_id, after + 1)
        self._next_update_id += 1
        return {"update_id": update_id, **{k: v for k, v in update.items() if k != "update_id"}}

    def message(self, chat: int | JSON, from_user: int | JSON, text: str, *, reply_to: FakeMessage | None = None,
                web_app_data: JSON | None = None, message_thread_id: int | None = None) -> JSON:
        """A user's text message (a private chat with the user counts as the user having started the bot).

        `message_thread_id` puts it in a forum topic (a reply to a topic message goes there by itself).
        """
        world = self.world
        chat_obj, user = world.chat(chat), world.user(from_user)
        if chat_obj["type"] == "private":
            world.start(user["id"])
        else:
            self._check_reaches_bot(chat_obj)
            if message_thread_id is not None:
                world.topic(chat_obj["id"], message_thread_id)
            world.join(chat_obj["id"], user["id"])
        try:
            thread_id = world.thread_for(chat_obj, message_thread_id, reply_to, user["id"])
        except ApiError as error:
            raise ValueError(f"{user['id']} cannot write there: {error.description}") from None
        entities = command_entities(text)
        posted = world.post(chat_obj, user, text, text, entities=entities or None,
                            reply_to=reply_to.message_id if reply_to else None, replied=reply_to,
                            thread_id=thread_id)
        data = posted.to_api()
        if web_app_data is not None:
            data.pop("text")
            data["web_app_data"] = web_app_data
        return self.stamp({"message": data})

    def message_update(self, message: FakeMessage) -> JSON:
        """A message update for a message already in the world (a service message, say)."""
        return self.stamp({"message": message.to_api()})

    def _check_reaches_bot(self, chat: JSON) -> None:
        chat_id = int(chat["id"])
        if chat_id in self.world.migrated_to:
            raise ValueError(f"group {chat_id} became supergroup {self.world.migrated_to[chat_id]}: nobody writes here")
        if not self.world.bot_in(chat_id):
            raise ValueError(f"the bot is not in group {chat_id}; it would not get this update")

    def callback_query(self, from_user: int | JSON, message: FakeMessage, data: str) -> JSON:
        """A press on an inline button of `message` carrying `data` (any data, to test forged presses)."""
        user = self.world.user(from_user)
        if message.chat["type"] != "private":
            self.world.join(message.chat_id, user["id"])
        query_id = str(next(self._query_ids))
        query: JSON = {"id": query_id, "from": user, "message": message.to_api(),
                       "chat_instance": str(-message.chat_id * 7 + 3), "data": data}
        self.open_queries[query_id] = query
        return self.stamp({"callback_query": query})

    def inline_callback_query(self, from_user: int | JSON, inline_message_id: str, chat_instance: str,
                              data: str) -> JSON:
        """A press on a button of a message sent via the bot: the query names the message by inline_message_id."""
        user = self.world.user(from_user)
        query_id = str(next(self._query_ids))
        query: JSON = {"id": query_id, "from": user, "inline_message_id": inline_message_id,
                       "chat_instance": chat_instance, "data": data}
        self.open_queries[query_id] = query
        return self.stamp({"callback_query": query})

    def press(self, from_user: int | JSON, message: FakeMessage, button_text: str) -> JSON:
        """A press on the callback button labelled `button_text`."""
        button = message.button(button_text)
        if "callback_data" not in button:
            raise LookupError(f"button {button_text!r} is not a callback button: {button}")
        return self.callback_query(from_user, message, button["callback_data"])

    def my_chat_member(self, chat: JSON, from_user: JSON, old: JSON, new: JSON) -> JSON:
        """A my_chat_member update: the bot's status in `chat` changed from `old` to `new`."""
        return self.stamp({"my_chat_member": {
            "chat": dict(chat), "from": dict(from_user), "date": int(self.world.now()),
            "old_chat_member": old, "new_chat_member": new,
        }})  # fmt: skip

    def bot_added(self, chat: int | JSON, from_user: int | JSON, *, as_admin: bool = False) -> JSON:
        """A my_chat_member update: a user added the bot to a group (again, after a kick, if need be)."""
        chat_obj, user = self.world.chat(chat), self.world.user(from_user)
        self.world.join(chat_obj["id"], user["id"])
        old, new = self.world.set_bot_status(chat_obj["id"], "administrator" if as_admin else "member")
        if old["status"] in ("member", "administrator"):
            old = {"status": "left", "user": old["user"]}  # the test says the bot was added: it was not in before
        return self.my_chat_member(chat_obj, user, old, new)

    def bot_removed(self, chat_id: int, by: int | JSON | None) -> JSON:
        """A my_chat_member update: someone removed the bot from a group (by default the group's creator)."""
        chat = self._group(chat_id)
        user = self.world.actor(chat_id, by)
        old, new = self.world.set_bot_status(chat_id, "kicked")
        return self.my_chat_member(chat, user, old, new)

    def bot_left(self, chat_id: int) -> JSON:
        """A my_chat_member update: the bot left a group itself."""
        chat = self._group(chat_id)
        old, new = self.world.set_bot_status(chat_id, "left")
        return self.my_chat_member(chat, self.world.bot_user, old, new)

    def _group(self, chat_id: int) -> JSON:
        chat = self.world.chats.get(chat_id)
        if chat is None or chat["type"] == "private":
            raise ValueError(f"{chat_id} is not a known group (add_group first)")
        if not self.world.bot_in(chat_id):
            raise ValueError(f"the bot is not in group {chat_id}")
        return chat

    def user_blocked(self, user_id: int, *, blocked: bool) -> JSON:
        """A my_chat_member update in the private chat: the user blocked (or unblocked) the bot."""
        world = self.world
        if blocked:
            world.block(user_id)
        else:
            world.start(user_id)
        chat, user = world.private_chat(user_id), world.add_user(user_id)
        member: JSON = {"status": "member", "user": world.bot_user}
        kicked: JSON = {"status": "kicked", "user": world.bot_user, "until_date": 0}
        old, new = (member, kicked) if blocked else (kicked, member)
        return self.my_chat_member(chat, user, old, new)

    def write_access_allowed(self, user_id: int) -> JSON:
        """The user allowed the bot to write to them from its Mini App (``requestWriteAccess``): the service message
        Telegram then posts in their private chat with the bot (``write_access_allowed``, ``from_request``)."""
        world = self.world
        world.start(user_id)
        chat, user = world.private_chat(user_id), world.add_user(user_id)
        allowed = world.post_service(chat, user, {"write_access_allowed": {"from_request": True}})
        return self.stamp({"message": allowed.to_api()})

    def migrate(self, chat_id: int, new_chat_id: int, by: int | JSON | None) -> list[JSON]:
        """Upgrade a basic group to a supergroup; the updates Telegram sends the bot about it."""
        world = self.world
        old_chat = world.chats.get(chat_id)
        if old_chat is None or old_chat["type"] != "group":
            raise ValueError(f"chat {chat_id} is not a basic group (add_group(..., chat_type='group'))")
        if not world.bot_in(chat_id):
            raise ValueError(f"the bot is not in group {chat_id}")
        if new_chat_id in world.chats:
            raise ValueError(f"chat {new_chat_id} exists already")
        user = world.actor(chat_id, by)
        new_chat = world.add_group(new_chat_id, old_chat["title"], "supergroup")
        world.members[new_chat_id] = set(world.members.get(chat_id, set()))
        world.admins[new_chat_id] = set(world.admins.get(chat_id, set()))
        if chat_id in world.owners:
            world.owners[new_chat_id] = world.owners[chat_id]
        moved_to = world.post_service(old_chat, user, {"migrate_to_chat_id": new_chat_id})
        world.migrated_to[chat_id] = new_chat_id
        moved_from = world.post_service(new_chat, GROUP_ANONYMOUS_BOT, {"migrate_from_chat_id": chat_id},
                                        sender_chat=dict(new_chat))
        bot_now = world.member(new_chat_id, world.bot_id)
        return [
            self.stamp({"message": moved_to.to_api()}),
            self.stamp({"message": moved_from.to_api()}),
            self.my_chat_member(new_chat, user, {"status": "left", "user": world.bot_user}, bot_now),
        ]

    # forum topics

    def create_topic(self, chat_id: int, name: str, icon_color: int, by: int | JSON | None) -> FakeMessage:
        """Create a forum topic; returns its service message (whose id is the topic's message_thread_id)."""
        chat = self.world.forum(chat_id)
        if not 1 <= len(name) <= 128:
            raise ValueError("topic names have 1-128 characters")
        user = self.world.actor(chat_id, by)
        chat_messages = self.world.messages(chat_id, include_users=True)
        thread_id = chat_messages[-1].message_id + 1 if chat_messages else 1
        self.world.topics.setdefault(chat_id, {})[thread_id] = Topic(thread_id, name, icon_color)
        return self.world.post_service(chat, user, {"forum_topic_created": {"name": name, "icon_color": icon_color}},
                                       thread_id=thread_id)

    def set_topic_closed(self, chat_id: int, thread_id: int | None, by: int | JSON | None, *,
                         closed: bool) -> FakeMessage | None:
        """Close or reopen a topic (None: the General topic); returns the service message, if Telegram posts one."""
        chat = self.world.forum(chat_id)
        if thread_id is None:
            if closed:
                self.world.general_closed.add(chat_id)
            else:
                self.world.general_closed.discard(chat_id)
            return None
        topic = self.world.topic(chat_id, thread_id)
        topic.closed = closed
        user = self.world.actor(chat_id, by)
        service: JSON = {"forum_topic_closed": {}} if closed else {"forum_topic_reopened": {}}
        return self.world.post_service(chat, user, service, thread_id=thread_id)
