"""The Mini App's Invite button: an invitation to a table, prepared by the bot for the page's ``shareMessage``.

``POST /api/tables/{id}/invite`` (signed in, as every /api route, and seated at a table still in its lobby)
asks Telegram to keep the table's invitation for the caller (``savePreparedInlineMessage``:
any chat with a person, a bot or a group) and answers ``{"id", "expires", "link"}``: the page
shares ``id``; ``link`` (``https://t.me/<bot>/<short name>?startapp=<table>``, the bot's own
username from getMe unless ``BOT_USERNAME`` says otherwise) is for a page that cannot share.
Sent, the invitation is the table's message as one sent with inline mode is (``tgbot.inline``).
Without a bot (no token, or not started yet) it is refused with ``no_bot`` (503); when Telegram
refuses, with ``invite_failed`` (503, the link still given). The bot's modules are imported when
the route is first used (a process without a bot never loads python-telegram-bot).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, cast

from aiohttp import web

from engine.core.errors import Refusal, RefusalCode
from engine.i18n import refusal_text
from engine.service.kinds import TableStatus
from webapp.caller import cookie_language, current_user
from webapp.http_errors import json_error
from webapp.keys import BOT, LANG, SERVICE

if TYPE_CHECKING:
    from tgbot.context import App
    from tgbot.links import Links

log = logging.getLogger(__name__)


def _refused(request: web.Request, code: RefusalCode, **extra: str) -> web.Response:
    text = refusal_text(Refusal(code), request.get(LANG) or cookie_language(request))
    return json_error(503, code, text, **extra)


def _bot(request: web.Request) -> tuple[App, Links] | None:
    """The running bot and its links, if this process has one that has started."""
    found = request.app.get(BOT)
    if found is None:
        return None
    from telegram.ext import Application

    if not isinstance(found, Application):
        return None
    application = cast("App", found)
    try:
        return application, application.bot_data.links
    except RuntimeError:  # the bot has not met Telegram yet: its username is not known
        return None


async def invite(request: web.Request) -> web.Response:
    """POST /api/tables/{id}/invite: a prepared invitation to the caller's table, and the table's link."""
    user = await current_user(request)
    info = await request.app[SERVICE].info(request.match_info["table_id"])
    if info.seat_of(user.id) is None:
        raise Refusal(RefusalCode.NOT_SEATED)
    if info.status != TableStatus.LOBBY:  # nobody can take a seat any more
        raise Refusal(RefusalCode.ALREADY_STARTED)
    bot = _bot(request)
    if bot is None:
        return _refused(request, RefusalCode.NO_BOT)
    from telegram.error import TelegramError

    from tgbot import invitations

    application, links = bot
    link = links.direct(info.id) or links.table_deep(info.id)
    locale = request.get(LANG) or None
    result = invitations.table_invitation(info, user.name, links, locale)
    try:
        prepared = await application.bot.save_prepared_inline_message(
            user.id, result, allow_user_chats=True, allow_bot_chats=True, allow_group_chats=True)
    except TelegramError as error:
        log.info("no invitation prepared for %s at table %s: %s", user.id, info.id, error)
        return _refused(request, RefusalCode.INVITE_FAILED, link=link)
    return web.json_response({"id": prepared.id, "expires": int(prepared.expiration_date.timestamp()), "link": link})


def setup_invite_api(app: web.Application) -> None:
    """Add the invitation route (before the table operations' ``/api/tables/{id}/{op}``)."""
    app.router.add_post("/api/tables/{table_id}/invite", invite)
