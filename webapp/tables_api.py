"""The /api routes of tables: opening one (a lobby, or a game dealt at once), lessons, a table's view, lobby
intents and rematches.

``POST /api/tables`` with ``{"game", "options"}`` opens a lobby hosted by the caller; with ``"play_now": true``
as well it opens the game already dealt, the caller against AI players in every other seat, in one step
(``engine.service.lobby``'s ``play_now``: a deal that fails leaves no table behind). Either way the answer is
the table in the web's form.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from aiohttp import web

from engine.core.errors import Refusal, RefusalCode, listed
from engine.service.live import TableInfo
from engine.service.tables import TableService
from webapp.auth import WebUser
from webapp.caller import current_user, read_json
from webapp.keys import PUBLIC, SERVICE

LOBBY_OPS = ("join", "leave", "add_ai", "start", "options", "cancel")
MAX_OPTION_TEXT = 64


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


async def create_table(request: web.Request) -> web.Response:
    """POST /api/tables {"game", "options", "play_now"?}: a new lobby hosted by the caller, or a game dealt at once
    (refused before anything is read while the process has no new table left)."""
    request.app[SERVICE].check_opening()
    user = await current_user(request)
    body = await read_json(request)
    game, options, now = body.get("game"), body.get("options") or {}, body.get("play_now", False)
    if not isinstance(game, str) or not isinstance(options, dict) or not isinstance(now, bool):
        raise Refusal(RefusalCode.CREATE_SHAPE)
    service = request.app[SERVICE]
    opening = service.play_now if now else service.create_table
    info = await opening(game, user.id, user.name, check_options(options))
    return web.json_response(request.app[PUBLIC].table(info))


async def create_lesson(request: web.Request) -> web.Response:
    """POST /api/lessons {"game"}: a guided first game of that game, started, the caller against AI players."""
    request.app[SERVICE].check_opening()
    user = await current_user(request)
    game = (await read_json(request)).get("game")
    if not isinstance(game, str):
        raise Refusal(RefusalCode.CREATE_SHAPE)
    info = await request.app[SERVICE].start_lesson(game, user.id, user.name)
    return web.json_response(request.app[PUBLIC].table(info))


async def table_view(request: web.Request) -> web.Response:
    """GET /api/tables/{id}: the caller's view (their own seat's, or a spectator's)."""
    user = await current_user(request)
    service = request.app[SERVICE]
    info = await service.info(request.match_info["table_id"])  # loads the table, or refuses
    await service.daily.check_watcher(info, user.id)  # a deal of the day is seen early by nobody else
    snapshot = service.snapshot(info.id)
    if snapshot is None:
        raise Refusal(RefusalCode.TABLE_NOT_FOUND)
    return web.json_response(request.app[PUBLIC].view(snapshot, snapshot.info.seat_of(user.id)))


async def table_op(request: web.Request) -> web.Response:
    """POST /api/tables/{id}/{op}: a lobby intent; ``options`` takes {"changes": {...}}."""
    user = await current_user(request)
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
    user = await current_user(request)
    service = request.app[SERVICE]
    info = await service.info(request.match_info["table_id"])
    if info.seat_of(user.id) is None:
        raise Refusal(RefusalCode.NOT_SEATED)
    fresh, _opened = await service.join_rematch(info.id, user.id, user.name)
    return web.json_response(request.app[PUBLIC].own_table(fresh, user.id))


def setup_tables_api(app: web.Application) -> None:
    """Add the /api routes of tables."""
    app.router.add_post("/api/tables", create_table)
    app.router.add_post("/api/lessons", create_lesson)
    app.router.add_get("/api/tables/{table_id}", table_view)
    app.router.add_post("/api/tables/{table_id}/rematch", rematch)
    app.router.add_post("/api/tables/{table_id}/{op}", table_op)
