"""What the bot tells someone finding their way: /help's commands and game examples, the "Play with a friend"
button that opens inline mode, and the answer to a private message it does not understand.

The examples are read from each game's own settings (its headline setting at its default), so
the help can never show a number the game does not use.
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine import games
from engine.catalogue import headline_setting
from engine.i18n import N_
from engine.option_words import value_key
from tgbot.arguments import typed_name
from tgbot.render import translate

PLAY_WITH_A_FRIEND = N_("Play with a friend")

# Every command, in the order /help lists them: name, what follows it (template words), what it does.
HELP_COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("new", "game setting", N_("start a table")),
    ("join", "", N_("take a seat at the open table")),
    ("leave", "", N_("give up your seat (an AI player takes over)")),
    ("cancel", "", N_("cancel the table (host or group admin)")),
    ("rules", "game", N_("the rules in a few lines")),
    ("top", "game", N_("who plays best in this group")),
    ("stats", "", N_("your games played and won")),
    ("history", "", N_("your last games, with replays (private chat)")),
    ("settings", "", N_("turn messages on or off (private chat)")),
    ("language", "", N_("the language I write in (in a group: the group's)")),
    ("help", "", N_("this list")),
    ("start", "", N_("begin here; links to tables open with it")),
)


@dataclass(frozen=True, slots=True)
class GameExample:
    """One game as /help shows it: its name to type, its title, and its headline setting at the default."""

    name: str
    title: str
    setting: str | None  # as typed after /new (``target``), None when the game has no headline setting
    default: str | None  # the default as typed (``10``, ``classic``)


def game_examples() -> list[GameExample]:
    """Each registered game with its headline setting's default, read from the game's own settings."""
    found = []
    for name in games.names():
        setting = headline_setting(name)
        if setting is None:
            found.append(GameExample(name, games.get(name).title, None, None))
        else:
            found.append(GameExample(name, games.get(name).title, typed_name(setting.name), value_key(setting.default)))
    return found


def friend_button(locale: str | None, query: str = "") -> InlineKeyboardButton:
    """The button that opens inline mode in a chat the person picks, to invite a friend there."""
    return InlineKeyboardButton("👥 " + translate(locale, PLAY_WITH_A_FRIEND), switch_inline_query=query)


def has_inline_mode(bot: object) -> bool:
    """Whether the bot answers inline queries (its owner switched inline mode on): else "Play with a friend" would
    open a chat where typing the bot's name finds nothing."""
    try:
        return bool(getattr(bot, "supports_inline_queries", False))
    except RuntimeError:  # not signed in with Telegram yet
        return False


def friend_rows(bot: object, locale: str | None) -> list[list[InlineKeyboardButton]]:
    """The "Play with a friend" button's row, when the bot has inline mode."""
    return [[friend_button(locale)]] if has_inline_mode(bot) else []


def friend_markup(bot: object, locale: str | None) -> InlineKeyboardMarkup | None:
    """A keyboard of just the "Play with a friend" button (None without inline mode)."""
    rows = friend_rows(bot, locale)
    return InlineKeyboardMarkup(rows) if rows else None


def private_answer(text: str, locale: str | None) -> str:
    """The reply to a private message the bot has no handler for: a command it does not know, or plain text."""
    if text.startswith("/"):
        return translate(locale, N_("I do not know that command. Send /help to see what I can do."))
    return translate(locale, N_("Send /new to play against AI players, or /help to see everything I can do."))
