"""The /api routes of the deal of the day: today's deals, starting or resuming one, and a day's standings.

``GET /api/daily``: per game, the seed's hash, when the day closes and the caller's status (none, playing at a
table, finished with their result and its shareable line). ``POST /api/daily/{game}``: the caller's table for
today's deal (opened, or the one they are playing); refused once they have played it. ``GET
/api/daily/{game}/standings[?date=YYYY-MM-DD][&group=<chat id>]``: a day's field, the caller first; today's only
once they have finished it, a closed day's with its seed and each table (to replay); with ``group``, only that
group's members. ``POST /api/daily/{game}/share``: the caller's result line, prepared by the bot (when it runs) for
the page's ``shareMessage``. ``GET /api/daily/history``: the caller's last deals, streak and best share per game.
Every rule is the table service's (``engine.service.daily``).
"""

from __future__ import annotations

import logging

from aiohttp import web

from engine.core.errors import Refusal, RefusalCode
from webapp.caller import current_user
from webapp.keys import BOT, PUBLIC, SERVICE

log = logging.getLogger(__name__)


async def today(request: web.Request) -> web.Response:
    """GET /api/daily: today's deals and where the caller is with each."""
    user = await current_user(request)
    return web.json_response(await request.app[SERVICE].daily.today(user.id))


async def start(request: web.Request) -> web.Response:
    """POST /api/daily/{game}: the caller's table for today's deal of the game (its id and the table)."""
    user = await current_user(request)
    info = await request.app[SERVICE].daily.start(request.match_info["game"], user.id, user.name)
    return web.json_response({"table_id": info.id, "table": request.app[PUBLIC].table(info)})


async def standings(request: web.Request) -> web.Response:
    """GET /api/daily/{game}/standings[?date=YYYY-MM-DD][&group=<chat id>]: a day's standings, the caller first
    (only a group's members with ``group``, for one of them)."""
    user = await current_user(request)
    day, group = request.query.get("date"), request.query.get("group")
    if group is not None and not (group.startswith("-") and group[1:].isascii() and group[1:].isdigit()
                                  and len(group) <= 16):  # "²".isdigit() too, and int() refuses it
        raise Refusal(RefusalCode.BAD_NUMBER, name="group", minimum=-(10**15), maximum=-1)  # groups' ids are negative
    found = await request.app[SERVICE].daily.standings(request.match_info["game"], user.id, day,
                                                       group=None if group is None else int(group))
    return web.json_response(found)


async def share(request: web.Request) -> web.Response:
    """POST /api/daily/{game}/share: the caller's result line of today, and, with the bot running, that line prepared
    as a message for the page's ``shareMessage`` (``id``; none without the bot: the page copies ``line``)."""
    user = await current_user(request)
    line = await request.app[SERVICE].daily.result_line(request.match_info["game"], user.id)
    application = request.app.get(BOT)
    if application is None or not hasattr(application, "bot"):
        return web.json_response({"line": line, "id": None})
    from telegram.error import TelegramError

    from tgbot.daily_close import result_message

    try:
        prepared = await application.bot.save_prepared_inline_message(
            user.id, result_message(request.match_info["game"], line), allow_user_chats=True, allow_bot_chats=True,
            allow_group_chats=True)
    except TelegramError as error:
        log.info("no result line prepared for %s: %s", user.id, error)
        return web.json_response({"line": line, "id": None})
    return web.json_response({"line": line, "id": prepared.id})


async def history(request: web.Request) -> web.Response:
    """GET /api/daily/history: the caller's last deals of the day, their streak and best share per game."""
    user = await current_user(request)
    return web.json_response(await request.app[SERVICE].daily.history(user.id))


def setup_daily_api(app: web.Application) -> None:
    """Add the deal of the day's routes."""
    app.router.add_get("/api/daily", today)
    app.router.add_get("/api/daily/history", history)
    app.router.add_post("/api/daily/{game}", start)
    app.router.add_get("/api/daily/{game}/standings", standings)
    app.router.add_post("/api/daily/{game}/share", share)
