"""Compact callback data for inline buttons, and its validation.

Each button carries ``<verb>:<table_id>[:<a>[:<b>]]`` (well under Telegram's 64 bytes).
Anything that does not parse is forged or from an older version of the bot: the
handler answers it with a clear sentence and changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Verb(StrEnum):
    """What a button asks for."""

    JOIN = "j"
    LEAVE = "l"
    ADD_AI = "a"
    OPTIONS = "o"
    OPTIONS_DONE = "d"
    SET_OPTION = "v"
    START = "s"
    REMATCH = "r"
    NOTIFY = "n"
    PICK_CANCEL = "c"  # which table /cancel meant
    PICK_LEAVE = "x"  # which table /leave meant
    LANGUAGE = "g"  # /language: the target is the language's code
    LANGUAGE_MENU = "m"  # /settings: open the /language picker (target: "open")
    INVITE = "i"  # an invitation sent from any chat: the target is a game, or the inviter's open table


_TABLE_ID = r"[A-Za-z0-9_-]{1,32}"
_PATTERN = re.compile(rf"(?P<verb>[a-z]):(?P<target>{_TABLE_ID})(?::(?P<a>\d{{1,3}}))?(?::(?P<b>\d{{1,3}}))?")
_ARGS = {Verb.SET_OPTION: 2, Verb.NOTIFY: 0}
LANGUAGE_CODES = ("en", "ru", "ko", "lv")


@dataclass(frozen=True, slots=True)
class Callback:
    """A parsed button press: the verb, its table id (or another target) and up to two small numbers."""

    verb: Verb
    target: str
    args: tuple[int, ...] = ()

    def data(self) -> str:
        """The callback_data string for this button."""
        return ":".join([self.verb.value, self.target, *(str(a) for a in self.args)])


def button_data(verb: Verb, target: str, *args: int) -> str:
    """callback_data for a button."""
    return Callback(verb, target, args).data()


def parse(data: str | None) -> Callback | None:
    """The press's meaning, or None when the data is not something this bot sends."""
    if not data or len(data.encode()) > 64:
        return None
    match = _PATTERN.fullmatch(data)
    if match is None:
        return None
    try:
        verb = Verb(match["verb"])
    except ValueError:
        return None
    args = tuple(int(x) for x in (match["a"], match["b"]) if x is not None)
    if len(args) != _ARGS.get(verb, 0):
        return None
    if verb is Verb.NOTIFY and match["target"] not in ("on", "off"):
        return None
    if verb is Verb.LANGUAGE and match["target"] not in LANGUAGE_CODES:
        return None
    if verb is Verb.LANGUAGE_MENU and match["target"] != "open":
        return None
    return Callback(verb, match["target"], args)
