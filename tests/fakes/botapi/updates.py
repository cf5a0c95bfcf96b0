"""Builders for the updates a test sends the bot: messages with command entities, button presses, joins."""

from __future__ import annotations

import itertools
import re
import time

from .checks import utf16_len
from .model import JSON, FakeMessage
from .world import World

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
                web_app_data: JSON | None = None) -> JSON:
        """A user's text message (a private chat with the user counts as the user having started the bot)."""
        world = self.world
        chat_obj, user = world.chat(chat), world.user(from_user)
        if chat_obj["type"] == "private":
            world.start(user["id"])
        else:
            world.join(chat_obj["id"], user["id"])
        entities = command_entities(text)
        posted = world.post(chat_obj, user, text, text, entities=entities or None,
                            reply_to=reply_to.message_id if reply_to else None)
        data = posted.to_api()
        if reply_to is not None:
            data["reply_to_message"] = reply_to.to_api()
        if web_app_data is not None:
            data.pop("text")
            data["web_app_data"] = web_app_data
        return self.stamp({"message": data})

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

    def press(self, from_user: int | JSON, message: FakeMessage, button_text: str) -> JSON:
        """A press on the callback button labelled `button_text`."""
        button = message.button(button_text)
        if "callback_data" not in button:
            raise LookupError(f"button {button_text!r} is not a callback button: {button}")
        return self.callback_query(from_user, message, button["callback_data"])

    def bot_added(self, chat: int | JSON, from_user: int | JSON) -> JSON:
        """A my_chat_member update: the bot was added to a group by a user."""
        chat_obj, user = self.world.chat(chat), self.world.user(from_user)
        self.world.join(chat_obj["id"], user["id"])
        bot = self.world.bot_user
        return self.stamp({"my_chat_member": {
            "chat": chat_obj, "from": user, "date": int(time.time()),
            "old_chat_member": {"status": "left", "user": bot},
            "new_chat_member": {"status": "member", "user": bot},
        }})  # fmt: skip
