"""The JSON API of the record: a player's history, the leaderboards, and replays of finished games.

``GET /api/history?limit&before`` — the caller's finished games, newest first; ``before``
is the ``finished_at`` of the last game of the previous page.
``GET /api/groups`` — the group chats where the caller finished games, newest first, each as
an opaque ``group`` handle (the same for everyone in that group, so a leaderboard link can be
shared) with a ``label`` in the reader's language ("Group 2", numbered in the order the
caller first played there), the games played there and the people played with.
``GET /api/leaderboard?group=<handle>&game=<name>`` (or ``chat=<id>``) — the ratings of the
people who played that game in the group; only someone who played there may look.
``GET /api/played-with?game=<name>`` — the leaderboard with no group: the caller and the people
they finished that game with, anywhere (local play included), by their rating in it.
``GET /api/replay/<table id>?from=<seq>`` — a finished game step by step, every hand shown,
with the seed that proves the deals; anyone signed in may open a shared replay.
``GET /api/tables/<table id>/ratings`` — each person's rating before and after a finished game,
``{"seats": [{"seat": 0, "before": 1500, "after": 1392, "change": -108, "provisional": true}, ...]}``
(no AI seat; an empty list for a lesson or a table not finished; 404 ``table_not_found`` for no such
table).
Every rating is the number people see (``engine.service.rating_scale``: whole points, 1500 for a
newcomer, never below 0), with ``provisional`` (its player's first games: the page writes "1500?");
the page shows these numbers as they come and never works one out. ``/api/stats`` and the
leaderboards also say how many games a rating stays provisional (``provisional_games``).
No Telegram id leaves, of a person or of a chat: people are names, and ``you`` marks the caller.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from engine.core.errors import Refusal, RefusalCode
from engine.i18n import gettext_for
from engine.service.rating_scale import PROVISIONAL_GAMES
from webapp.caller import current_user, reader_language
from webapp.keys import PUBLIC, SERVICE

MAX_PEOPLE = 6  # names shown per group


def _number(request: web.Request, name: str, default: int, lowest: int, highest: int) -> int:
    raw = request.query.get(name, str(default))
    digits = raw.removeprefix("-")  # int() refuses thousands of digits, and non-ASCII ones isdigit() takes
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 20) or not lowest <= int(raw) <= highest:
        raise Refusal(RefusalCode.BAD_NUMBER, name=name, minimum=lowest, maximum=highest)
    return int(raw)


async def history(request: web.Request) -> web.Response:
    """GET /api/history: the caller's finished games."""
    user = await current_user(request)
    limit = _number(request, "limit", 20, 1, 50)
    raw_before = request.query.get("before")
    try:
        before = float(raw_before) if raw_before else None
    except ValueError:
        raise Refusal(RefusalCode.BAD_CURSOR) from None
    games = await request.app[SERVICE].record.history(user.id, limit, before)
    for game in games:
        game.pop("chat_id", None)
    return web.json_response({"games": games, "next": games[-1]["finished_at"] if len(games) == limit else None})


async def stats(request: web.Request) -> web.Response:
    """GET /api/stats: the caller's own figures per game, wherever the games were played."""
    user = await current_user(request)
    return web.json_response({"games": await request.app[SERVICE].record.stats(user.id),
                              "provisional_games": PROVISIONAL_GAMES})


async def groups(request: web.Request) -> web.Response:
    """GET /api/groups: the groups the caller finished games in, as opaque handles with a label."""
    user = await current_user(request)
    _ = gettext_for(reader_language(request, user))
    public = request.app[PUBLIC]
    found = await request.app[SERVICE].record.groups(user.id)
    shown: list[dict[str, Any]] = [
        {"group": public.group_handle(g["chat_id"]), "label": _("Group {n}").format(n=number), "number": number,
         "games": g["games"], "last": g["last"], "people": g["people"][:MAX_PEOPLE]}
        for number, g in enumerate(found, 1)
    ]
    shown.sort(key=lambda g: g["last"], reverse=True)
    return web.json_response({"groups": shown})


async def _chat_of(request: web.Request, user_id: int) -> int:
    """The chat a leaderboard request names: a group handle among the caller's groups, or a chat id they played in."""
    service = request.app[SERVICE]
    handle = request.query.get("group")
    if handle is not None:
        public = request.app[PUBLIC]
        for group in await service.record.groups(user_id):
            if public.group_handle(group["chat_id"]) == handle:
                return int(group["chat_id"])
        raise Refusal(RefusalCode.NOT_IN_GROUP)
    chat = _number(request, "chat", 0, -(2**53), 2**53)
    if not await service.chats.played_in(user_id, chat):
        raise Refusal(RefusalCode.NOT_IN_GROUP)
    return chat


async def leaderboard(request: web.Request) -> web.Response:
    """GET /api/leaderboard: a group's players of one game by rating."""
    user = await current_user(request)
    game = request.query.get("game", "coins")
    service = request.app[SERVICE]
    chat = await _chat_of(request, user.id)
    board = await service.record.leaderboard(chat, game)
    return web.json_response({"game": game, "players": _shown(board, user.id), "provisional_games": PROVISIONAL_GAMES})


async def played_with(request: web.Request) -> web.Response:
    """GET /api/played-with: the caller and the people they finished one game with, by rating."""
    user = await current_user(request)
    game = request.query.get("game", "coins")
    board = await request.app[SERVICE].record.played_with(user.id, game)
    return web.json_response({"game": game, "players": _shown(board, user.id), "provisional_games": PROVISIONAL_GAMES})


def _shown(board: list[dict[str, Any]], user_id: int) -> list[dict[str, Any]]:
    """A leaderboard as the page sees it: names and figures, ``you`` for the caller, no ids."""
    return [{"place": e["place"], "name": e["name"], "rating": e["rating"], "provisional": e["provisional"],
             "games": e["games"], "wins": e["wins"], "you": e["user_id"] == user_id} for e in board]


async def replay(request: web.Request) -> web.Response:
    """GET /api/replay/{table_id}: a page of a finished game's steps."""
    await current_user(request)
    start = _number(request, "from", 0, 0, 1_000_000)
    return web.json_response(await request.app[SERVICE].record.replay(request.match_info["table_id"], start))


async def rating_changes(request: web.Request) -> web.Response:
    """GET /api/tables/{table_id}/ratings: each person's rating before and after a finished game."""
    await current_user(request)
    seats = await request.app[SERVICE].record.rating_changes(request.match_info["table_id"])
    return web.json_response({"seats": seats})


def setup_record_api(app: web.Application) -> None:
    """Add the record's routes."""
    app.router.add_get("/api/history", history)
    app.router.add_get("/api/groups", groups)
    app.router.add_get("/api/stats", stats)
    app.router.add_get("/api/leaderboard", leaderboard)
    app.router.add_get("/api/played-with", played_with)
    app.router.add_get("/api/replay/{table_id}", replay)
    app.router.add_get("/api/tables/{table_id}/ratings", rating_changes)
