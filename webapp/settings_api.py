"""The person's turn-messages switch in the Mini App's settings: ``GET /api/me/turn_messages`` answers
``{"on": bool}``, ``PUT`` with ``{"on": bool}`` switches them (signed in, as every /api route). The bot's
/settings changes the same choice, and its notifier sends no turn message to a person who switched them off.
"""

from __future__ import annotations

from aiohttp import web

from engine.core.errors import Refusal, RefusalCode
from webapp.caller import current_user, read_json
from webapp.keys import SERVICE

PATH = "/api/me/turn_messages"


async def turn_messages(request: web.Request) -> web.Response:
    """GET: whether the caller gets turn messages."""
    user = await current_user(request)
    return web.json_response({"on": await request.app[SERVICE].people.wants_turn_messages(user.id)})


async def switch_turn_messages(request: web.Request) -> web.Response:
    """PUT {"on": true|false}: switch the caller's turn messages."""
    user = await current_user(request)
    on = (await read_json(request)).get("on")
    if not isinstance(on, bool):
        raise Refusal(RefusalCode.BAD_REQUEST)
    await request.app[SERVICE].people.choose_turn_messages(user.id, user.name, on)
    return web.json_response({"on": on})


def setup_settings_api(app: web.Application) -> None:
    """Add the turn-messages switch's routes."""
    app.router.add_get(PATH, turn_messages)
    app.router.add_put(PATH, switch_turn_messages)
