"""Where the page outside Telegram sends its reader: the Mini App's own t.me link.

The bot's username comes from ``BOT_USERNAME``, else from the bot running in this process once it
has met Telegram (getMe); with ``MINIAPP_SHORT_NAME`` the link opens the Mini App by its short name
(``t.me/<bot>/<short name>``), without it the bot's main Mini App (``t.me/<bot>``, to which the page
adds ``?startapp=``). No bot token, or no username known yet: no link.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from webapp.keys import BOT, SETTINGS


def _running_username(request: web.Request) -> str | None:
    """The username the bot in this process learnt from getMe, if it has started."""
    bot: Any = request.app.get(BOT)
    try:
        links = getattr(getattr(bot, "bot_data", None), "links", None)
    except RuntimeError:  # the bot has not met Telegram yet
        return None
    name = getattr(links, "bot_username", None)
    return name if isinstance(name, str) and name else None


def telegram_app_link(request: web.Request) -> str:
    """The Mini App's t.me link without a start parameter, or "" when there is no bot to open it through."""
    settings = request.app[SETTINGS]
    if settings.local_mode:
        return ""
    username = (settings.bot_username or "").lstrip("@") or _running_username(request)
    if not username:
        return ""
    short = settings.miniapp_short_name
    return f"https://t.me/{username}/{short}" if short else f"https://t.me/{username}"
