"""The JSON routes under /api: configuration, local sign-in and the user here; tables in ``webapp.tables_api``.

Every route but /api/config and /api/local/signin reads the user from the
``Authorization: tma <initData>`` header, validated by ``webapp.auth``; initData older
than ``initdata_max_age`` is taken with a live session token of the same user, from the
``X-Cardroom-Session`` header or the ``cardroom_session`` cookie. Every answer to a
signed-in call carries a fresh session token in both (the cookie is HttpOnly). Errors are JSON
``{"code", "message"}`` with 400 (bad input: ``bad_json`` for a body that is not a JSON
object, is nested too deep or holds invalid Unicode, ``bad_options``, ``bad_name``,
``bad_init_data`` for signed sign-in data that makes no sense, ...), 401 (no valid
sign-in), 403 (not allowed), 404 (no such table), 408 (the body did not arrive within
``body_timeout``), 409 (refused by the table's state), 413 (over 16 KB), 429
(``too_many_tables``: the table service refuses a seat to a user at ``max_open_tables_per_user``
tables in the lobby or being played; ``too_many_requests``, with ``Retry-After``: one person
may make ``api_rate`` signed-in calls a second, in bursts of up to ``api_burst``; ``too_many_new_tables``,
with ``Retry-After``: the process opens at most ``new_tables_rate`` tables a second for everyone together,
in bursts of up to ``new_tables_burst``, so a storm of openings leaves the tables in play their time) or 503
(``unavailable``: the database is out of reach just now, or its connection failed mid-call; the same
request may work a moment later).

Tables leave in the web's form (``webapp.public``): seat names and opaque handles, the
host as ``host_seat``, never a Telegram user id or chat id.

``GET /api/me?limit=20&before=<table id>`` lists the caller's open tables newest first,
``limit`` (1 to 50, default 20) at a time, each with the caller's own seat as ``you``;
``next`` in the answer is the ``before`` of the next page, or null on the last one, and
``language`` the language the caller chose (in the page's picker or with the bot's
``/language``), or null. ``POST /api/me/language`` with ``{"language": code}`` chooses it
(400 ``bad_request`` for a language the catalogs do not have).

``POST /api/tables/{id}/rematch`` gives a finished table's one rematch to one of its players (409
``not_finished`` before the end, 403 ``not_seated`` for anyone else).

``POST /api/lessons`` with ``{"game": name}`` opens a guided first game of that game: a
table already started against AI players, from the game's lesson seed and short options
(``engine.service.lessons``); a lesson goes on no record and changes no rating.
"""

from __future__ import annotations

import json

from aiohttp import web

from engine.catalogue import describe_games
from engine.core.errors import Refusal, RefusalCode, listed
from engine.i18n import LANGUAGES
from webapp.auth import new_local_user
from webapp.caller import current_user, read_json
from webapp.keys import PUBLIC, SERVICE, SETTINGS, VERIFIER
from webapp.tables_api import setup_tables_api

PAGE, MAX_PAGE = 20, 50


def games_for_config() -> list[dict[str, object]]:
    """Every game as ``engine.catalogue`` describes it; ``name`` repeats its ``id`` for the page's older reads."""
    return [{**game, "name": game["id"]} for game in describe_games()]


async def config(request: web.Request) -> web.Response:
    """GET /api/config: what the page needs before anyone signs in."""
    settings = request.app[SETTINGS]
    return web.json_response({
        "local_mode": settings.local_mode,
        "bot_username": settings.bot_username,
        "miniapp_short_name": settings.miniapp_short_name,
        "games": games_for_config(),
    })


async def local_signin(request: web.Request) -> web.Response:
    """POST /api/local/signin {"name"}: initData signed by this process (local mode only)."""
    verifier = request.app[VERIFIER]
    if not verifier.local:
        raise Refusal(RefusalCode.LOCAL_SIGNIN_DISABLED)
    body = await read_json(request)
    user = new_local_user(body.get("name"))
    return web.json_response({"init_data": verifier.sign(user), "user": user})


def _page_params(request: web.Request) -> tuple[int, str | None]:
    raw_limit, before = request.query.get("limit", str(PAGE)), request.query.get("before") or None
    if not (raw_limit.isascii() and raw_limit.isdigit() and len(raw_limit) <= 6 and 1 <= int(raw_limit) <= MAX_PAGE):
        raise Refusal(RefusalCode.BAD_PAGE_LIMIT, maximum=MAX_PAGE)
    return int(raw_limit), before


async def me(request: web.Request) -> web.Response:
    """GET /api/me?limit&before: the signed-in user and a page of their unfinished tables, newest first."""
    user = await current_user(request)
    limit, before = _page_params(request)
    service = request.app[SERVICE]
    if user.allows_write_to_pm:  # allowed in this or another Mini App: turn messages can reach them
        await service.people.allowed_messages(user.id, user.name)
    if before is not None:
        try:
            info = await service.info(before)
        except Refusal:
            raise Refusal(RefusalCode.BAD_CURSOR) from None
        if info.seat_of(user.id) is None:
            raise Refusal(RefusalCode.BAD_CURSOR)
    page = await service.tables_of(user.id, limit=limit + 1, before=before)
    public = request.app[PUBLIC]
    return web.json_response({
        "user": user.as_dict(),
        "language": await service.people.language(user.id),  # chosen here or with the bot's /language
        "tables": [public.own_table(info, user.id) for info in page[:limit]],
        "next": page[limit - 1].id if len(page) > limit else None,
    })


async def set_language(request: web.Request) -> web.Response:
    """POST /api/me/language {"language"}: the language the caller reads, in the Mini App and from the bot alike."""
    user = await current_user(request)
    code = (await read_json(request)).get("language")
    if not isinstance(code, str) or code not in LANGUAGES:
        shown = code[:16] if isinstance(code, str) else json.dumps(code)[:16]
        raise Refusal(RefusalCode.UNKNOWN_LANGUAGE, code=shown, languages=listed(LANGUAGES))
    await request.app[SERVICE].people.choose_language(user.id, user.name, code)
    return web.json_response({"language": code})


def setup_api(app: web.Application) -> None:
    """Add the /api routes."""
    app.router.add_get("/api/config", config)
    app.router.add_post("/api/local/signin", local_signin)
    app.router.add_get("/api/me", me)
    app.router.add_post("/api/me/language", set_language)
    setup_tables_api(app)
