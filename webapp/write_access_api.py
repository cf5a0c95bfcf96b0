"""Whether the bot may message the caller, and Telegram's yes to the page's request for it.

``GET /api/me/write_access`` answers ``{"can_message": bool}`` for the caller only (signed in, as every /api
route): the page asks Telegram for write access (``requestWriteAccess``) when the bot cannot reach them yet.
``POST /api/me/write_access`` with ``{"status": "allowed"}`` is the page reporting Telegram's answer
(``write_access_requested``): the service marks the caller reachable, so the turn messages of their next turn go
to them privately. Any other body is refused with 400 ``bad_request`` and changes nothing (a "cancelled" is
never sent: nothing changes then). Launch data that already says so (``allows_write_to_pm``) counts as a yes.
"""

from __future__ import annotations

from aiohttp import web

from engine.core.errors import Refusal, RefusalCode
from webapp.caller import current_user, read_json
from webapp.keys import SERVICE

PATH = "/api/me/write_access"
ALLOWED = "allowed"  # Telegram's status when the person allowed the bot to write to them


async def write_access(request: web.Request) -> web.Response:
    """GET: whether the bot may message the caller."""
    user = await current_user(request)
    people = request.app[SERVICE].people
    if user.allows_write_to_pm:  # Telegram's signed word: the bot may write to them
        await people.allowed_messages(user.id, user.name)
    return web.json_response({"can_message": await people.can_message(user.id)})


async def write_access_allowed(request: web.Request) -> web.Response:
    """POST {"status": "allowed"}: Telegram told the caller's page they allowed the bot to write to them."""
    user = await current_user(request)
    if (await read_json(request)).get("status") != ALLOWED:
        raise Refusal(RefusalCode.BAD_REQUEST)
    await request.app[SERVICE].people.allowed_messages(user.id, user.name)
    return web.json_response({"can_message": True})


def setup_write_access_api(app: web.Application) -> None:
    """Add the write-access routes."""
    app.router.add_get(PATH, write_access)
    app.router.add_post(PATH, write_access_allowed)
