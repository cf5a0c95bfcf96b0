"""What the bot remembers with each table (stored in the table's meta), by key."""

from __future__ import annotations

MESSAGE = "tg_message"  # {"chat": chat id, "id": message id} of the table's lobby/status message
SUMMARY = "tg_summary"  # the message id of the game-over summary in the group
TURNS = "tg_turns"  # the open turn messages: {user id: message id}
LOCALE = "tg_locale"  # the language the table's chat messages are written in
