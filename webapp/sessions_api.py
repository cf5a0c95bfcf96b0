"""Signing out everywhere: ``DELETE /api/me/sessions`` ends every sign-in of the caller's, on every device and process.

The caller's own too: the answer takes the session cookie away, and the page, which can no longer
sign in with the Telegram data it was opened with, says so and asks to be opened from Telegram
again. The service keeps the moment (``engine.service.sign_outs``).
"""

from __future__ import annotations

from aiohttp import web

from webapp.caller import current_user
from webapp.keys import SERVICE, SESSION, SESSION_COOKIE

PATH = "/api/me/sessions"


async def end_sessions(request: web.Request) -> web.Response:
    """DELETE: end every sign-in of the caller's made until now; ``{"ended_at": seconds since the epoch}``."""
    user = await current_user(request)
    at = await request.app[SERVICE].sign_outs.end_everywhere(user.id, user.name)
    request.pop(SESSION, None)  # no session goes back on this answer: it is over too
    response = web.json_response({"ended_at": at})
    response.del_cookie(SESSION_COOKIE, path="/")
    return response


def setup_sessions_api(app: web.Application) -> None:
    """Add the sign-out-everywhere route."""
    app.router.add_delete(PATH, end_sessions)
