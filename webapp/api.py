"""The JSON routes under /api: configuration, local sign-in, the user, and table lobbies.

Every route but /api/config and /api/local/signin reads the user from the
``Authorization: tma <initData>`` header, validated by ``webapp.auth``. Errors are JSON
``{"code", "message"}`` with 400 (bad input), 401 (no valid sign-in), 403 (not allowed),
404 (no such table), 409 (refused by the table's state) or 413 (too large).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from aiohttp import web

from engine import games
from engine.core.errors import Refusal, RefusalCode, listed
from engine.i18n import gettext_for
from engine.service.live import TableInfo
from engine.service.tables import TableService
from webapp.auth import AuthError, WebUser, new_local_user
from webapp.keys import LANG, SERVICE, SETTINGS, VERIFIER

log = logging.getLogger(__name__)
MAX_BODY = 16 * 1024
LOBBY_OPS = ("join", "leave", "add_ai", "start", "options", "cancel")
BAD_INPUT = {"bad_options", "bad_request", "malformed_action", "unknown_action", "unknown_card", "unknown_game"}
FORBIDDEN = {"not_host", "not_seated", "local_signin_disabled"}
NOT_FOUND = {"table_not_found"}


def refusal_status(code: str) -> int:
    """The HTTP status for a refusal code."""
    if code in NOT_FOUND:
        return 404
    if code in FORBIDDEN:
        return 403
    if code in BAD_INPUT:
        return 400
    return 409


def json_error(status: int, code: str, message: str, **extra: str) -> web.Response:
    """A JSON error response."""
    return web.json_response({"code": code, "message": message, **extra}, status=status)


@web.middleware
async def errors_middleware(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Turn refusals, sign-in failures and HTTP errors of /api routes into JSON errors."""
    try:
        return await handler(request)
    except AuthError as exc:
        _ = gettext_for(None)
        return json_error(401, exc.code, _(exc.message), reason=exc.reason)
    except Refusal as refusal:
        _ = gettext_for(request.get(LANG) or None)
        return json_error(refusal_status(refusal.code), refusal.code, _(refusal.message))
    except web.HTTPException as exc:
        if not request.path.startswith("/api/") or exc.status < 400:
            raise
        code = {413: "too_large", 404: "not_found", 405: "method_not_allowed"}.get(exc.status, "bad_request")
        return json_error(exc.status, code, exc.reason)


def current_user(request: web.Request) -> WebUser:
    """The user vouched for by the request's ``Authorization: tma <initData>``; raises AuthError."""
    header = request.headers.get("Authorization", "")
    scheme, _, init_data = header.partition(" ")
    if scheme.lower() != "tma" or not init_data.strip():
        raise AuthError("missing", "Sign in first: send Authorization: tma <initData>.")
    user = request.app[VERIFIER].verify(init_data.strip())
    request[LANG] = user.language_code
    return user


async def read_json(request: web.Request) -> dict[str, Any]:
    """The request's JSON object body ({} when empty); raises a JSON-ready HTTP error."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise web.HTTPRequestEntityTooLarge(MAX_BODY, request.content_length)
    raw = await request.read()
    if len(raw) > MAX_BODY:
        raise web.HTTPRequestEntityTooLarge(MAX_BODY, len(raw))
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        raise Refusal(RefusalCode.BODY_NOT_JSON) from None
    if not isinstance(data, dict):
        raise Refusal(RefusalCode.BODY_NOT_OBJECT)
    return data


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
            return await service.set_options(table_id, user.id, changes)
        case "cancel":
            return await service.abandon(table_id, user.id)
    raise Refusal(RefusalCode.UNKNOWN_OPERATION, op=str(op), ops=listed(LOBBY_OPS))


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
            "max_players": game.max_players, "settings": [s.describe(s.default) for s in game.settings],
        })
    return out


async def config(request: web.Request) -> web.Response:
    """GET /api/config: what the page needs before anyone signs in."""
    settings = request.app[SETTINGS]
    return web.json_response({
        "local_mode": settings.local_mode,
        "bot_username": settings.bot_username,
        "games": describe_games(),
    })


async def local_signin(request: web.Request) -> web.Response:
    """POST /api/local/signin {"name"}: initData signed by this process (local mode only)."""
    verifier = request.app[VERIFIER]
    if not verifier.local:
        _ = gettext_for(None)
        return json_error(403, "local_signin_disabled",
                          _("Local sign-in is off: open the app from Telegram."))
    body = await read_json(request)
    try:
        user = new_local_user(body.get("name"))
    except ValueError:
        raise Refusal(RefusalCode.NAME_REQUIRED) from None
    return web.json_response({"init_data": verifier.sign(user), "user": user})


async def me(request: web.Request) -> web.Response:
    """GET /api/me: the signed-in user and their unfinished tables."""
    user = current_user(request)
    tables = await request.app[SERVICE].tables_of(user.id)
    return web.json_response({"user": user.as_dict(), "tables": [t.as_dict() for t in tables]})


async def create_table(request: web.Request) -> web.Response:
    """POST /api/tables {"game", "options"}: a new lobby hosted by the caller."""
    user = current_user(request)
    body = await read_json(request)
    game, options = body.get("game"), body.get("options") or {}
    if not isinstance(game, str) or not isinstance(options, dict):
        raise Refusal(RefusalCode.CREATE_SHAPE)
    info = await request.app[SERVICE].create_table(game, user.id, user.name, options)
    return web.json_response(info.as_dict())


async def table_view(request: web.Request) -> web.Response:
    """GET /api/tables/{id}: the caller's view (their own seat's, or a spectator's)."""
    user = current_user(request)
    view = await request.app[SERVICE].view(request.match_info["table_id"], user.id)
    return web.json_response(view)


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
    return web.json_response(info.as_dict())


def setup_api(app: web.Application) -> None:
    """Add the /api routes."""
    app.router.add_get("/api/config", config)
    app.router.add_post("/api/local/signin", local_signin)
    app.router.add_get("/api/me", me)
    app.router.add_post("/api/tables", create_table)
    app.router.add_get("/api/tables/{table_id}", table_view)
    app.router.add_post("/api/tables/{table_id}/{op}", table_op)
