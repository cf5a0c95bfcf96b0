"""What every handler shares (the BotState) and the typed context the handlers receive."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Protocol, TypeAlias, cast

from telegram import Chat, ChatMember, Update, User
from telegram.error import TelegramError
from telegram.ext import Application, CallbackContext, ExtBot, JobQueue

from engine.config import Settings
from engine.core.errors import Refusal
from engine.core.names import clean_name
from engine.i18n import refusal_text
from engine.service.tables import TableService
from tgbot.links import Links
from tgbot.priority import CHATTER, Call
from tgbot.records import Ledger, Record, Records


class Notifications(Protocol):
    """What handlers ask of the notifier (``tgbot.notifier.Notifier``), which keeps every table's messages in step."""

    def start(self) -> None:
        """Start following every table."""

    async def stop(self) -> None:
        """Stop following."""

    def refresh(self, table_id: str) -> None:
        """Bring the table's messages up to date now."""

    def expect(self, chat_id: int, host_id: int, *, thread_id: int | None, locale: str | None,
               title: str | None = None) -> None:
        """The next table ``host_id`` opens in ``chat_id`` lives in this topic and language."""

    def unexpect(self, chat_id: int, host_id: int) -> None:
        """No table was opened after ``expect`` after all."""

    async def home(self, table_id: str) -> Record | None:
        """Where a table's messages go, once known."""

    async def live_inline(self, table_id: str, inline_message_id: str, *, locale: str | None) -> str:
        """The table lives in this message sent via the bot (its invitation from any chat), unless another was opened
        there first: the table that lives there."""

    async def inline_table(self, inline_message_id: str) -> str | None:
        """The table opened in this inline message, if any (by any process)."""

    async def cannot_message(self, user_id: int) -> None:
        """Telegram refused a private message to this person."""

    async def can_message_again(self, user_id: int) -> None:
        """The person (re)started or unblocked the bot."""

    async def chat_migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup."""

    def chat_gone(self, chat_id: int) -> None:
        """The bot was removed from a group."""

    def chat_back(self, chat_id: int) -> None:
        """The bot was added to a group again."""


class BotState:
    """The bot's shared state: settings, the table service, links, the kept-message records and the notifier."""

    settings: Settings
    service: TableService
    records: Records  # what the bot remembers of each table's messages (handlers read it; the notifier writes it)
    ledger: Ledger  # message ids seen in each chat
    notifier: Notifications

    def __init__(self) -> None:
        self.options_open: set[str] = set()  # lobbies whose message shows the Options keyboard
        self.reachable: set[int] = set()  # people known to have started the bot (saves a write per message)
        self.languages: dict[int, str | None] = {}  # people's /language choices (None: none), as last read
        self.languages_read: dict[int, float] = {}  # when each was read (another process may change it)
        self.app_languages: dict[int, str] = {}  # each person's Telegram app language, as this process stored it
        self._links: Links | None = None
        self.webhook_secret: str | None = None  # the secret_token given to setWebhook (the route must check it)
        self.health: dict[str, Any] = {"state": "stopped"}  # how starting the bot went (for /healthz)
        self.runner: Any = None  # what starts the bot next to the web server, when it does

    def bind_links(self, bot_username: str) -> Links:
        """Fix the links once the bot's username is known."""
        self._links = Links.of(self.settings, self.settings.bot_username or bot_username)
        return self._links

    @property
    def links(self) -> Links:
        """Link builders (after ``bind_links``)."""
        if self._links is None:
            raise RuntimeError("the bot's username is not known yet")
        return self._links


Context: TypeAlias = CallbackContext[ExtBot[Call], dict[Any, Any], dict[Any, Any], BotState]
App: TypeAlias = Application[ExtBot[Call], Context, dict[Any, Any], dict[Any, Any], BotState, JobQueue[Context]]


# The languages people chose with /language, as the bot handling the current update knows them: set by
# ``tgbot.languages.learn_language`` before any handler runs (each update is handled in a context of its own).
reader_languages: ContextVar[dict[int, str | None]] = ContextVar("reader_languages", default={})  # noqa: B039


def locale_of(user: User | None) -> str | None:
    """The language a person reads: the one they chose with /language, else their Telegram app's."""
    if user is None:
        return None
    return reader_languages.get().get(user.id) or user.language_code


def display_name(user: User) -> str:
    """The name other players see: Telegram's, cleaned of control and format characters (``engine.core.names``)."""
    return clean_name(user.full_name) or clean_name(user.username or "") or str(user.id)


def is_group(chat: Chat | None) -> bool:
    """Group or supergroup."""
    return chat is not None and chat.type in (Chat.GROUP, Chat.SUPERGROUP)


def thread_of(update: Update) -> int | None:
    """The forum topic a message was sent in (None: General, or not a forum)."""
    message = update.effective_message
    if message is None or not message.is_topic_message:
        return None
    return message.message_thread_id


def is_private(chat: Chat | None) -> bool:
    """A private chat with one user."""
    return chat is not None and chat.type == Chat.PRIVATE


async def reply(update: Update, text: str, **kwargs: Any) -> None:
    """Answer a message in its chat (HTML); in a group after the tables' own messages (``CHATTER``)."""
    message = update.effective_message
    if message is not None:
        if is_group(message.chat):
            bot = cast(ExtBot[Call], message.get_bot())
            thread = message.message_thread_id if message.is_topic_message else None
            await bot.send_message(message.chat_id, text, parse_mode="HTML", message_thread_id=thread,
                                   rate_limit_args=CHATTER, **kwargs)
            return
        await message.reply_html(text, do_quote=False, **kwargs)


async def reply_locale(update: Update, context: Context) -> str | None:
    """The language a reply in this chat is read in: a group's once it has one, else the sender's."""
    chat = update.effective_chat
    if chat is not None and is_group(chat):
        found = await context.bot_data.service.chats.language(chat.id)
        if found is not None:
            return found
    return locale_of(update.effective_user)


async def reply_refusal(update: Update, context: Context, refusal: Refusal) -> None:
    """Tell the sender why nothing happened, in the chat's language."""
    await reply(update, refusal_text(refusal, await reply_locale(update, context)))


async def is_admin(context: Context, chat: Chat, user_id: int) -> bool:
    """Whether a person owns or administers a group (False in private chats and when Telegram cannot say)."""
    if not is_group(chat):
        return False
    try:
        member = await context.bot.get_chat_member(chat.id, user_id)
    except TelegramError:
        return False
    return member.status in (ChatMember.ADMINISTRATOR, ChatMember.OWNER)
