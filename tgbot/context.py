"""What every handler shares (the BotState) and the typed context the handlers receive."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from telegram import Chat, Update, User
from telegram.ext import Application, CallbackContext, ExtBot, JobQueue

from engine.config import Settings
from engine.core.errors import Refusal
from engine.service.tables import TableService
from tgbot.links import Links
from tgbot.render import refusal_text

if TYPE_CHECKING:
    from tgbot.notifier import Notifier


class BotState:
    """The bot's shared state: settings, the table service, links and the notifier (set up once)."""

    settings: Settings
    service: TableService
    notifier: Notifier

    def __init__(self) -> None:
        self.options_open: set[str] = set()  # lobbies whose message shows the Options keyboard
        self.reachable: set[int] = set()  # people known to have started the bot (saves a write per message)
        self._links: Links | None = None
        self.webhook_secret: str | None = None  # the secret_token given to setWebhook (the route must check it)
        self.health: dict[str, Any] = {"state": "stopped"}  # how starting the bot went (for /healthz)

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


Context: TypeAlias = CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], BotState]
App: TypeAlias = Application[ExtBot[None], Context, dict[Any, Any], dict[Any, Any], BotState, JobQueue[Context]]


def locale_of(user: User | None) -> str | None:
    """The language a user's Telegram app is set to."""
    return user.language_code if user is not None else None


def display_name(user: User) -> str:
    """The name other players see."""
    return (user.full_name or user.username or str(user.id))[:64]


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
    """Answer a message in its chat (HTML)."""
    message = update.effective_message
    if message is not None:
        await message.reply_html(text, do_quote=False, **kwargs)


async def reply_refusal(update: Update, refusal: Refusal) -> None:
    """Tell the sender why nothing happened."""
    await reply(update, refusal_text(refusal, locale_of(update.effective_user)))
