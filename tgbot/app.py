"""The bot's Application, built in one function, and its start and stop next to the web server.

``build_application`` wires every handler; ``start_bot`` starts it, registers the
command menus, starts the notifier, and either sets the webhook (public https
``WEBAPP_URL``: the web process's route puts updates on ``application.update_queue``)
or polls for updates.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import time
from collections.abc import Callable
from typing import Any, cast

from telegram import Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from engine.config import Settings
from engine.service.tables import TableService
from tgbot import commands, daily_close, inline, languages, lobby, membership, record, settings_menu
from tgbot.bot_calls import CountedCalls
from tgbot.buttons import is_verb
from tgbot.callbacks import Verb
from tgbot.context import App, BotState, Context
from tgbot.limits import ChatPacedRateLimiter, rate_limiter
from tgbot.links import HISTORY_PAYLOAD
from tgbot.notifier import Notifier
from tgbot.records import Ledger, Records

log = logging.getLogger(__name__)
WEBHOOK_PATH = "/telegram/webhook"
BOT_LEADER = "bot:leader"  # the lease of the process that polls Telegram and registers the webhook and menus


def api_urls(base: str | None) -> tuple[str, str]:
    """The method and file base URLs for BOT_API_BASE_URL (Telegram's own when unset)."""
    if not base:
        return "https://api.telegram.org/bot", "https://api.telegram.org/file/bot"
    base = base.rstrip("/")
    if "{token}" in base:
        return base, base.replace("/bot{token}", "/file/bot{token}")
    root = base.removesuffix("/bot")
    return f"{root}/bot", f"{root}/file/bot"


def build_application(settings: Settings, service: TableService, *, limiter: ChatPacedRateLimiter | None = None,
                      status_interval: float = 4.0, read_timeout: float | None = None,
                      clock: Callable[[], float] | None = None) -> App:
    """The bot for these settings, talking to ``service``.

    ``limiter`` replaces Telegram's limits, ``read_timeout`` the library's 5 s wait for an
    answer and ``clock`` the notifier's monotonic clock (tests).
    """
    if not settings.bot_token:
        raise ValueError("the bot needs BOT_TOKEN")
    base_url, base_file_url = api_urls(settings.bot_api_base_url)
    limiter = limiter or rate_limiter()
    builder = (
        ApplicationBuilder()
        .token(settings.bot_token)
        .base_url(base_url)
        .base_file_url(base_file_url)
        .rate_limiter(CountedCalls(limiter, service.metrics))
        .context_types(ContextTypes(bot_data=BotState))
        .concurrent_updates(True)
    )
    if read_timeout is not None:
        builder = builder.read_timeout(read_timeout).write_timeout(read_timeout).connect_timeout(read_timeout)
    application = cast(App, builder.build())
    bot_state = application.bot_data
    bot_state.settings, bot_state.service = settings, service
    bot_state.records, bot_state.ledger = Records(service.chats), Ledger()
    bot_state.notifier = Notifier(application.bot, bot_state, status_interval=status_interval,
                                  clock=clock if clock is not None else time.monotonic)
    limiter.on_message = bot_state.ledger.saw
    if service.bot_budget is not None:  # several processes: Telegram counts their calls together
        limiter.share(service.bot_budget)

    add = application.add_handler
    add(TypeHandler(Update, _note_message), group=-2)
    add(TypeHandler(Update, languages.learn_language), group=-3)
    add(MessageHandler(filters.ChatType.PRIVATE, commands.remember_private), group=-1)
    add(ChatMemberHandler(membership.membership_changed, ChatMemberHandler.MY_CHAT_MEMBER))
    add(MessageHandler(filters.StatusUpdate.MIGRATE, membership.group_migrated))
    add(TypeHandler(Update, _remember_button_private), group=-1)
    add(CommandHandler("start", record.history_deeplink, filters.Regex(rf"^/start {HISTORY_PAYLOAD}$")))
    add(CommandHandler("start", commands.start_command))
    add(CommandHandler("help", commands.help_command))
    add(CommandHandler("rules", commands.rules_command))
    add(CommandHandler("settings", commands.settings_command))
    add(CommandHandler("stats", commands.stats_command))
    add(CommandHandler("language", languages.language_command))
    add(CommandHandler("top", record.top_command))
    add(CommandHandler("history", record.history_command))
    add(CommandHandler("new", lobby.new_command))
    add(CommandHandler("join", lobby.join_command))
    add(CommandHandler("leave", lobby.leave_command))
    add(CommandHandler("cancel", lobby.cancel_command))
    add(MessageHandler(filters.UpdateType.MESSAGE & filters.ChatType.PRIVATE & filters.TEXT & ~filters.VIA_BOT,
                       commands.private_fallback))  # an edit of a message already answered needs no new answer
    buttons = {
        Verb.JOIN: lobby.join_button, Verb.LEAVE: lobby.leave_button, Verb.ADD_AI: lobby.add_ai_button,
        Verb.START: lobby.start_button, Verb.REMATCH: lobby.rematch_button, Verb.OPTIONS: settings_menu.options_button,
        Verb.OPTIONS_DONE: settings_menu.options_done_button, Verb.SET_OPTION: settings_menu.set_option_button,
        Verb.NOTIFY: commands.notify_button, Verb.PICK_CANCEL: lobby.pick_cancel_button,
        Verb.PICK_LEAVE: lobby.pick_leave_button, Verb.LANGUAGE: languages.language_button,
        Verb.LANGUAGE_MENU: languages.language_menu_button, Verb.INVITE: inline.invitation_button,
    }  # fmt: skip
    for verb, handler in buttons.items():
        add(CallbackQueryHandler(handler, pattern=is_verb(verb)))
    add(CallbackQueryHandler(lobby.stray_button))
    add(InlineQueryHandler(inline.invite_query))
    add(ChosenInlineResultHandler(inline.invitation_chosen))
    application.add_error_handler(_log_error)
    daily_close.schedule_closed_day(application)  # the deal of the day's standings to groups at its close
    return application


async def _remember_button_private(update: Update, context: Context) -> None:
    """A button pressed in a private chat also shows the bot may write there."""
    if update.callback_query is not None:
        await commands.remember_private(update, context)


async def _note_message(update: Update, context: Context) -> None:
    """Every message the bot sees has an id the notifier must not take for one of its own."""
    message = update.effective_message
    if message is not None:
        context.bot_data.ledger.saw(message.chat.id, message.message_id)


async def _log_error(update: object, context: Context) -> None:
    log.error("bot handler failed for %r", update, exc_info=context.error)


class Standby(Exception):
    """Another process leads the bot (polls Telegram); this one only serves its own sockets and tables."""


def webhook_secret(settings: Settings) -> str:
    """The secret Telegram sends back with each webhook call: WEBHOOK_SECRET, else one derived from the token.

    Derived, not random, so every process of a deployment (and every restart) checks the same secret.
    """
    if settings.webhook_secret:
        return settings.webhook_secret
    digest = hmac.new((settings.bot_token or "").encode(), b"cardroom webhook secret", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


async def start_bot(application: App, settings: Settings) -> None:
    """Start the bot: command menus, the notifier, then the webhook (public URL) or long polling.

    With several processes on one database, one of them leads (a lease): it registers the
    command menus and the webhook, or polls Telegram; every process serves the webhook
    calls it receives and sends the messages of the tables it drives. A process that
    does not lead in polling mode raises ``Standby`` and tries again later.
    """
    await application.initialize()  # each step may be tried again after a failure: none of them is done twice
    bot_state = application.bot_data
    bot_state.bind_links(application.bot.username)
    if not application.running:
        await application.start()
    leader = await bot_state.service.claim(BOT_LEADER)
    if leader:
        await commands.set_commands(application.bot)
    bot_state.notifier.start()
    if settings.public_url:
        secret = bot_state.webhook_secret = webhook_secret(settings)
        if leader:
            await application.bot.set_webhook(f"{settings.webapp_url}{WEBHOOK_PATH}", secret_token=secret,
                                              allowed_updates=Update.ALL_TYPES)
    elif application.updater is not None and not application.updater.running:
        if not leader:
            raise Standby
        await application.bot.delete_webhook()
        await application.updater.start_polling(allowed_updates=Update.ALL_TYPES)


async def stop_bot(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Stop polling, the notifier and the Application."""
    if application.updater is not None and application.updater.running:
        await application.updater.stop()
    bot_state = application.bot_data
    if isinstance(bot_state, BotState):
        await bot_state.notifier.stop()
    if application.running:
        await application.stop()
    await application.shutdown()


class BotRunner:
    """Starts the bot next to the web server, trying again with a growing pause until Telegram answers.

    A failure at start (getMe, setMyCommands, setWebhook: Telegram down, a bad token, a
    network hiccup) must not take the Mini App down with it: the web process keeps
    serving, the log says what failed and when the next try is, and ``health`` says it too.
    """

    FIRST_DELAY, MAX_DELAY = 1.0, 300.0  # seconds before the second try, and the longest pause
    STANDBY_CHECK = 10.0  # seconds between a standby process's looks at whether the leader is gone

    def __init__(self, application: App, settings: Settings) -> None:
        self.application = application
        self.settings = settings
        application.bot_data.runner = self
        self.health = application.bot_data.health = {"state": "starting", "attempts": 0, "error": None,
                                                     "retry_in": None}
        self._task: asyncio.Task[None] | None = None
        self.started = asyncio.Event()
        self.standing_by = asyncio.Event()  # set once this process has found another one leading

    def start(self) -> None:
        """Begin starting the bot in the background."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="bot-start")

    async def _run(self) -> None:
        delay = self.FIRST_DELAY
        while True:
            self.health["attempts"] += 1
            try:
                await start_bot(self.application, self.settings)
            except Standby:
                self.health.update(state="standby", error=None, retry_in=self.STANDBY_CHECK)
                self.standing_by.set()
                await asyncio.sleep(self.STANDBY_CHECK)  # the leading process may die: then this one polls
                continue
            except Exception as error:
                self.health.update(state="retrying", error=f"{type(error).__name__}: {error}", retry_in=delay)
                log.warning("the bot could not start (%s); the Mini App keeps running; trying again in %.1f s",
                            self.health["error"], delay)
                await asyncio.sleep(delay)
                delay = min(self.MAX_DELAY, delay * 2)
                continue
            self.health.update(state="running", error=None, retry_in=None)
            log.info("the bot is running (after %d attempt(s))", self.health["attempts"])
            self.started.set()
            if self.settings.public_url:  # webhook: every process takes the calls it gets; nothing to hand over
                return
            await self._keep_leading()  # polling: only the leader may ask Telegram for updates
            self.standing_by.clear()

    async def _keep_leading(self) -> None:
        """While this process polls, look now and then whether it still leads; return once another one does.

        The lease lives on this process's database connection: when that connection is
        lost, PostgreSQL frees it and another process may take it and start polling, and
        Telegram answers two pollers with a conflict. So the poller that finds it no longer
        leads stops polling and stands by, and takes the lead again when it is free.
        """
        service = self.application.bot_data.service
        while True:
            await asyncio.sleep(self.STANDBY_CHECK)
            if not (service.drives(BOT_LEADER) or await service.claim(BOT_LEADER)):
                break
        log.warning("another process leads the bot now: this one stops polling and stands by")
        updater = self.application.updater
        if updater is not None and updater.running:
            await updater.stop()

    async def stop(self) -> None:
        """Stop trying, and stop the bot if it runs."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await stop_bot(self.application)
