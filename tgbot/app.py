"""The bot's Application, built in one function, and its start and stop next to the web server.

``build_application`` wires every handler; ``start_bot`` starts it, registers the
command menus, starts the notifier, and either sets the webhook (public https
``WEBAPP_URL``: the web process's route puts updates on ``application.update_queue``)
or polls for updates.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any, cast

from telegram import Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from engine.config import Settings
from engine.service.tables import TableService
from tgbot import commands, lobby, settings_menu
from tgbot.buttons import is_verb
from tgbot.callbacks import Verb
from tgbot.context import App, BotState, Context
from tgbot.limits import rate_limiter
from tgbot.notifier import Notifier

log = logging.getLogger(__name__)
WEBHOOK_PATH = "/telegram/webhook"


def api_urls(base: str | None) -> tuple[str, str]:
    """The method and file base URLs for BOT_API_BASE_URL (Telegram's own when unset)."""
    if not base:
        return "https://api.telegram.org/bot", "https://api.telegram.org/file/bot"
    base = base.rstrip("/")
    if "{token}" in base:
        return base, base.replace("/bot{token}", "/file/bot{token}")
    root = base.removesuffix("/bot")
    return f"{root}/bot", f"{root}/file/bot"


def build_application(settings: Settings, service: TableService, *, limiter: BaseRateLimiter[Any] | None = None,
                      status_interval: float = 4.0) -> App:
    """The bot for these settings, talking to ``service``; ``limiter`` replaces Telegram's limits (tests)."""
    if not settings.bot_token:
        raise ValueError("the bot needs BOT_TOKEN")
    base_url, base_file_url = api_urls(settings.bot_api_base_url)
    application = cast(App, (
        ApplicationBuilder()
        .token(settings.bot_token)
        .base_url(base_url)
        .base_file_url(base_file_url)
        .rate_limiter(limiter or rate_limiter())
        .context_types(ContextTypes(bot_data=BotState))
        .concurrent_updates(True)
        .build()
    ))
    room = application.bot_data
    room.settings, room.service = settings, service
    room.notifier = Notifier(application.bot, room, status_interval=status_interval)

    add = application.add_handler
    add(MessageHandler(filters.ChatType.PRIVATE, commands.remember_private), group=-1)
    add(TypeHandler(Update, _remember_button_private), group=-1)
    add(CommandHandler("start", commands.start_command))
    add(CommandHandler("help", commands.help_command))
    add(CommandHandler("rules", commands.rules_command))
    add(CommandHandler("settings", commands.settings_command))
    add(CommandHandler("stats", commands.stats_command))
    add(CommandHandler("new", lobby.new_command))
    add(CommandHandler("join", lobby.join_command))
    add(CommandHandler("leave", lobby.leave_command))
    add(CommandHandler("cancel", lobby.cancel_command))
    buttons = {
        Verb.JOIN: lobby.join_button, Verb.LEAVE: lobby.leave_button, Verb.ADD_AI: lobby.add_ai_button,
        Verb.START: lobby.start_button, Verb.REMATCH: lobby.rematch_button, Verb.OPTIONS: settings_menu.options_button,
        Verb.OPTIONS_DONE: settings_menu.options_done_button, Verb.SET_OPTION: settings_menu.set_option_button,
        Verb.NOTIFY: commands.notify_button,
    }  # fmt: skip
    for verb, handler in buttons.items():
        add(CallbackQueryHandler(handler, pattern=is_verb(verb)))
    add(CallbackQueryHandler(lobby.stray_button))
    application.add_error_handler(_log_error)
    return application


async def _remember_button_private(update: Update, context: Context) -> None:
    """A button pressed in a private chat also shows the bot may write there."""
    if update.callback_query is not None:
        await commands.remember_private(update, context)


async def _log_error(update: object, context: Context) -> None:
    log.error("bot handler failed for %r", update, exc_info=context.error)


async def start_bot(application: App, settings: Settings) -> None:
    """Start the bot: command menus, the notifier, then the webhook (public URL) or long polling."""
    await application.initialize()
    room = application.bot_data
    room.bind_links(application.bot.username)
    await application.start()
    await commands.set_commands(application.bot)
    room.notifier.start()
    if settings.public_url:
        secret = room.webhook_secret = settings.webhook_secret or secrets.token_urlsafe(32)
        await application.bot.set_webhook(f"{settings.webapp_url}{WEBHOOK_PATH}", secret_token=secret,
                                          allowed_updates=Update.ALL_TYPES)
    elif application.updater is not None:
        await application.bot.delete_webhook()
        await application.updater.start_polling(allowed_updates=Update.ALL_TYPES)


async def stop_bot(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Stop polling, the notifier and the Application."""
    if application.updater is not None and application.updater.running:
        await application.updater.stop()
    room = application.bot_data
    if isinstance(room, BotState):
        await room.notifier.stop()
    if application.running:
        await application.stop()
    await application.shutdown()
