"""The JSON routes under /api: configuration, local sign-in, the user, and table lobbies.

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

import asyncio
import json
import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from aiohttp import web

from engine import games
from engine.core.errors import Refusal, RefusalCode, listed
from engine.core.settings import Setting
from engine.i18n import LANGUAGES, negotiate, refusal_text
from engine.service.live import TableInfo
from engine.service.reach import is_unreachable
from engine.service.tables import TableService
from webapp.auth import AuthError, WebUser, new_local_user
from webapp.keys import (
    BUDGETS,
    LANG,
    LANG_COOKIE,
    PUBLIC,
    SERVICE,
    SESSION,
    SESSION_COOKIE,
    SESSION_HEADER,
    SETTINGS,
    VERIFIER,
)
from webapp.protocol import JsonError, load_json

log = logging.getLogger(__name__)
MAX_BODY = 16 * 1024
LOBBY_OPS = ("join", "leave", "add_ai", "start", "options", "cancel")
BAD_INPUT = {"bad_options", "bad_request", "bad_json", "bad_name", "bad_cursor", "malformed_action",
             "unknown_action", "unknown_card", "unknown_game"}
FORBIDDEN = {"not_host", "not_seated", "local_signin_disabled", "not_in_group"}
NOT_FOUND = {"table_not_found"}
TOO_MANY = {"too_many_tables", "too_many_requests", "too_many_new_tables"}
PAGE, MAX_PAGE = 20, 50
# HTTP errors of /api routes, as refusals (any other status is bad_request)
HTTP_REFUSALS = {413: RefusalCode.REQUEST_TOO_LARGE, 404: RefusalCode.NOT_FOUND, 405: RefusalCode.METHOD_NOT_ALLOWED,
                 408: RefusalCode.REQUEST_TIMEOUT}
MAX_OPTION_TEXT = 64
# packages whose errors are the database's (by name: the drivers are not imported here for that alone)
DATABASE_MODULES = frozenset({"sqlalchemy", "asyncpg", "sqlite3", "aiosqlite"})


def refusal_status(code: str) -> int:
    """The HTTP status for a refusal code."""
    if code in NOT_FOUND:
        return 404
    if code in FORBIDDEN:
        return 403
    if code in BAD_INPUT:
        return 400
    if code in TOO_MANY:
        return 429
    if code == RefusalCode.UNAVAILABLE:
        return 503
    return 409


def json_error(status: int, code: str, message: str, **extra: str) -> web.Response:
    """A JSON error response."""
    return web.json_response({"code": code, "message": message, **extra}, status=status)


@web.middleware
async def errors_middleware(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Turn refusals, sign-in failures and HTTP errors of /api routes into JSON errors; hand out the fresh session."""
    response = await _answer(request, handler)
    session = request.get(SESSION)
    if session and not response.prepared:
        give_session(request, response, session)
    return response


def give_session(request: web.Request, response: web.StreamResponse, session: str) -> None:
    """Put a session token on an answer: its header, and an HttpOnly cookie (cross-site only over https)."""
    settings, verifier = request.app[SETTINGS], request.app[VERIFIER]
    response.headers[SESSION_HEADER] = session
    secure = settings.public_url  # inside Telegram's web client the page is a cross-site frame: SameSite=None
    response.set_cookie(SESSION_COOKIE, session, max_age=verifier.session_max_age, path="/", httponly=True,
                        secure=secure, samesite="None" if secure else "Lax")


async def _answer(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    try:
        return await handler(request)
    except AuthError as exc:
        text = refusal_text(exc, cookie_language(request))
        if exc.kind == "malformed":  # sign-in data that is not even well formed is a bad request
            return json_error(400, RefusalCode.BAD_INIT_DATA, text, reason=exc.kind)
        return json_error(401, exc.code, text, reason=exc.kind)
    except Refusal as refusal:
        response = json_error(refusal_status(refusal.code), refusal.code,
                              refusal_text(refusal, request_language(request)))
        if refusal.code == RefusalCode.TOO_MANY_REQUESTS:
            response.headers["Retry-After"] = "1"  # a budget refills a request in well under a second
        elif refusal.code == RefusalCode.TOO_MANY_NEW_TABLES:
            response.headers["Retry-After"] = str(refusal.params["seconds"])
        return response
    except web.HTTPException as exc:
        if not request.path.startswith("/api/") or exc.status < 400:
            raise
        refused = Refusal(HTTP_REFUSALS.get(exc.status, RefusalCode.BAD_REQUEST))
        return json_error(exc.status, refused.code, refusal_text(refused, request_language(request)))
    except Exception as exc:
        if not request.path.startswith("/api/") or not is_database_error(exc):
            raise
        log_database_error(exc, f"{request.method} {request.path}")
        unavailable = Refusal(RefusalCode.UNAVAILABLE)
        return json_error(503, unavailable.code,
                          refusal_text(unavailable, request_language(request)))


def is_database_error(error: BaseException) -> bool:
    """Whether ``error`` came from the database or its driver (out of reach, or a connection in a broken state).

    Such an error says nothing about the request: it may work a moment later, on a fresh connection
    (asyncpg's ``InternalClientError: cannot switch to state …`` after a connection was cut mid-call).
    """
    if is_unreachable(error):
        return True
    seen: BaseException | None = error
    for _ in range(8):  # the driver's error wrapped by SQLAlchemy's, a few links deep at most
        if seen is None:
            return False
        if type(seen).__module__.partition(".")[0] in DATABASE_MODULES:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def log_database_error(error: BaseException, what: str, logger: logging.Logger = log) -> None:
    """Log a database error: out of reach is a warning; any other (a broken connection, a failed statement) an error."""
    if is_unreachable(error):
        logger.warning("%s: the database is out of reach (%s)", what, error)
    else:
        logger.error("%s: the database failed", what, exc_info=error)


def request_language(request: web.Request) -> str | None:
    """The language a refusal to this request is read in: the signed-in reader's, else the page's."""
    return request.get(LANG) or cookie_language(request)


def cookie_language(request: web.Request) -> str | None:
    """The language the page shows (its cookie, set by the picker or from Telegram), if it set one."""
    chosen = request.cookies.get(LANG_COOKIE, "")
    return negotiate(chosen) if chosen else None


def reader_language(request: web.Request, user: WebUser) -> str | None:
    """The language the page shows, else the user's Telegram one."""
    return cookie_language(request) or user.language_code or None


def current_user(request: web.Request) -> WebUser:
    """The user vouched for by the request's ``Authorization: tma <initData>`` (and session), within their budget.

    Raises AuthError, or Refusal("too_many_requests") when they have spent their budget (nothing is done).
    """
    header = request.headers.get("Authorization", "")
    scheme, _, init_data = header.partition(" ")
    if scheme.lower() != "tma" or not init_data.strip():
        raise AuthError(RefusalCode.SIGN_IN_HEADER_MISSING)
    verifier = request.app[VERIFIER]
    user = verifier.verify(init_data.strip(), session=request_session(request))
    request[SESSION] = verifier.session_for(user.id)
    request[LANG] = reader_language(request, user) or ""
    if not request.app[BUDGETS].take(user.id):
        raise Refusal(RefusalCode.TOO_MANY_REQUESTS)
    return user


def request_session(request: web.Request) -> str | None:
    """The session token a request brings: its header, else its cookie."""
    return request.headers.get(SESSION_HEADER) or request.cookies.get(SESSION_COOKIE) or None


async def read_body(request: web.Request, limit: int, seconds: float) -> bytes:
    """The request body, at most ``limit`` bytes, arriving within ``seconds``; raises 413 or 408."""
    if request.content_length is not None and request.content_length > limit:
        raise web.HTTPRequestEntityTooLarge(limit, request.content_length)
    body = bytearray()
    try:
        async with asyncio.timeout(seconds):
            while chunk := await request.content.read(limit + 1 - len(body)):
                body += chunk
                if len(body) > limit:
                    raise web.HTTPRequestEntityTooLarge(limit, len(body))
    except TimeoutError:
        raise web.HTTPRequestTimeout(reason="The request body did not arrive in time.") from None
    return bytes(body)


async def read_json(request: web.Request) -> dict[str, Any]:
    """The request's JSON object body ({} when empty); raises a JSON-ready HTTP error or Refusal("bad_json")."""
    raw = await read_body(request, MAX_BODY, request.app[SETTINGS].body_timeout)
    if not raw.strip():
        return {}
    try:
        data = load_json(raw)
    except JsonError as exc:
        raise Refusal(RefusalCode.BAD_JSON) from exc
    if not isinstance(data, dict):
        raise Refusal(RefusalCode.BAD_JSON)
    return data


def check_options(options: object) -> dict[str, Any]:
    """Options as a mapping of short names to plain values (text, numbers, yes/no); raises Refusal("bad_options")."""
    if not isinstance(options, dict):
        raise Refusal(RefusalCode.BAD_OPTIONS)
    for name, value in options.items():
        if len(name) > MAX_OPTION_TEXT:
            raise Refusal(RefusalCode.SETTING_NAME_TOO_LONG)
        if value is None or isinstance(value, bool | int):
            continue
        if isinstance(value, float) and math.isfinite(value):
            continue
        if isinstance(value, str) and len(value) <= MAX_OPTION_TEXT and value.isascii():
            continue
        raise Refusal(RefusalCode.SETTING_VALUE_SHAPE, name=name[:MAX_OPTION_TEXT])
    return options


async def lobby_op(
    service: TableService, table_id: str, user: WebUser, op: str, changes: Mapping[str, Any]
) -> TableInfo:
    """Perform a lobby intent for a user; raises Refusal."""
    match op:
        case "join":
            return await service.join(table_id, user.id, user.name)
        case "leave":
            return await service.leave(table_id, user.id)
        case "add_ai":
            return await service.add_ai(table_id, user.id)
        case "start":
            return await service.start_game(table_id, user.id)
        case "options":
            return await service.set_options(table_id, user.id, check_options(dict(changes)))
        case "cancel":
            return await service.abandon(table_id, user.id)
    raise Refusal(RefusalCode.UNKNOWN_OPERATION, op=str(op), ops=listed(LOBBY_OPS))


def describe_setting(setting: Setting) -> dict[str, Any]:
    """A setting for option pickers; ``applies_to`` lists the variants it is for, when not all of them."""
    out = setting.describe(setting.default)
    if setting.applies_to is not None:
        out["applies_to"] = list(setting.applies_to)
    return out


def describe_games() -> list[dict[str, Any]]:
    """Every game that can be played, with its settings for option pickers."""
    out = []
    for name in games.names():
        try:
            game = games.get(name)
        except (Refusal, ImportError, AttributeError):
            log.warning("game %s is registered but cannot be loaded", name)
            continue
        out.append({
            "name": game.name, "title": game.title, "min_players": game.min_players,
            "max_players": game.max_players, "settings": [describe_setting(s) for s in game.settings],
        })
    return out


async def config(request: web.Request) -> web.Response:
    """GET /api/config: what the page needs before anyone signs in."""
    settings = request.app[SETTINGS]
    return web.json_response({
        "local_mode": settings.local_mode,
        "bot_username": settings.bot_username,
        "miniapp_short_name": settings.miniapp_short_name,
        "games": describe_games(),
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
    if not (raw_limit.isascii() and raw_limit.isdigit() and 1 <= int(raw_limit) <= MAX_PAGE):
        raise Refusal(RefusalCode.BAD_PAGE_LIMIT, maximum=MAX_PAGE)
    return int(raw_limit), before


async def me(request: web.Request) -> web.Response:
    """GET /api/me?limit&before: the signed-in user and a page of their unfinished tables, newest first."""
    user = current_user(request)
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
    user = current_user(request)
    code = (await read_json(request)).get("language")
    if not isinstance(code, str) or code not in LANGUAGES:
        shown = code[:16] if isinstance(code, str) else json.dumps(code)[:16]
        raise Refusal(RefusalCode.UNKNOWN_LANGUAGE, code=shown, languages=listed(LANGUAGES))
    await request.app[SERVICE].people.choose_language(user.id, user.name, code)
    return web.json_response({"language": code})


async def create_table(request: web.Request) -> web.Response:
    """POST /api/tables {"game", "options"}: a new lobby hosted by the caller."""
    user = current_user(request)
    body = await read_json(request)
    game, options = body.get("game"), body.get("options") or {}
    if not isinstance(game, str) or not isinstance(options, dict):
        raise Refusal(RefusalCode.CREATE_SHAPE)
    info = await request.app[SERVICE].create_table(game, user.id, user.name, check_options(options))
    return web.json_response(request.app[PUBLIC].table(info))


async def create_lesson(request: web.Request) -> web.Response:
    """POST /api/lessons {"game"}: a guided first game of that game, started, the caller against AI players."""
    user = current_user(request)
    game = (await read_json(request)).get("game")
    if not isinstance(game, str):
        raise Refusal(RefusalCode.CREATE_SHAPE)
    info = await request.app[SERVICE].start_lesson(game, user.id, user.name)
    return web.json_response(request.app[PUBLIC].table(info))


async def table_view(request: web.Request) -> web.Response:
    """GET /api/tables/{id}: the caller's view (their own seat's, or a spectator's)."""
    user = current_user(request)
    service = request.app[SERVICE]
    info = await service.info(request.match_info["table_id"])  # loads the table, or refuses
    snapshot = service.snapshot(info.id)
    if snapshot is None:
        raise Refusal(RefusalCode.TABLE_NOT_FOUND)
    return web.json_response(request.app[PUBLIC].view(snapshot, snapshot.info.seat_of(user.id)))


async def table_op(request: web.Request) -> web.Response:
    """POST /api/tables/{id}/{op}: a lobby intent; ``options`` takes {"changes": {...}}."""
    user = current_user(request)
    op = request.match_info["op"]
    if op not in LOBBY_OPS:
        raise web.HTTPNotFound(reason="Unknown table operation.")
    body = await read_json(request)
    changes = body.get("changes", {})
    if not isinstance(changes, dict):
        raise Refusal(RefusalCode.CHANGES_NOT_OBJECT)
    info = await lobby_op(request.app[SERVICE], request.match_info["table_id"], user, op, changes)
    return web.json_response(request.app[PUBLIC].table(info))


async def rematch(request: web.Request) -> web.Response:
    """POST /api/tables/{id}/rematch: the finished table's one rematch, with the caller (one of its players) in it.

    The first press opens it, hosted by the caller; every later press, by anyone who played, gets the same
    table and a seat in it while it is a lobby. The answer is the rematch, with the caller's seat as ``you``.
    """
    user = current_user(request)
    service = request.app[SERVICE]
    info = await service.info(request.match_info["table_id"])
    if info.seat_of(user.id) is None:
        raise Refusal(RefusalCode.NOT_SEATED)
    fresh, _opened = await service.join_rematch(info.id, user.id, user.name)
    return web.json_response(request.app[PUBLIC].own_table(fresh, user.id))


def setup_api(app: web.Application) -> None:
    """Add the /api routes."""
    app.router.add_get("/api/config", config)
    app.router.add_post("/api/local/signin", local_signin)
    app.router.add_get("/api/me", me)
    app.router.add_post("/api/me/language", set_language)
    app.router.add_post("/api/tables", create_table)
    app.router.add_post("/api/lessons", create_lesson)
    app.router.add_get("/api/tables/{table_id}", table_view)
    app.router.add_post("/api/tables/{table_id}/rematch", rematch)
    app.router.add_post("/api/tables/{table_id}/{op}", table_op)
