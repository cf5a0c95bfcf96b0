"""POST /telegram/webhook: Telegram's updates handed to the bot running in this process.

Telegram sends the secret given to setWebhook in ``X-Telegram-Bot-Api-Secret-Token``
(``WEBHOOK_SECRET``, or the one the bot made up at start when that is unset); a request
without the right one is refused before its body is read. Accepted updates go
onto the bot application's ``update_queue``, exactly as polling would deliver them.
"""

from __future__ import annotations

import hmac
from typing import Any

from aiohttp import web

from webapp.caller import read_body
from webapp.keys import BOT, SETTINGS
from webapp.protocol import JsonError, load_json

WEBHOOK_PATH = "/telegram/webhook"
MAX_UPDATE = 1024 * 1024
MAX_DEPTH = 64  # Telegram's updates nest replies and entities a few levels deep, never dozens


async def telegram_webhook(request: web.Request) -> web.Response:
    """Queue one Telegram update for the bot."""
    application: Any = request.app[BOT]
    secret = request.app[SETTINGS].webhook_secret or getattr(application.bot_data, "webhook_secret", None)
    given = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
    if not secret or not hmac.compare_digest(given.encode(), secret.encode()):
        return web.json_response({"code": "forbidden", "message": "Wrong or missing secret token."}, status=403)
    try:
        data: Any = load_json(await read_body(request, MAX_UPDATE, request.app[SETTINGS].body_timeout), MAX_DEPTH)
    except web.HTTPRequestEntityTooLarge:
        return web.json_response({"code": "too_large", "message": "Update too large."}, status=413)
    except web.HTTPRequestTimeout:
        return web.json_response({"code": "request_timeout", "message": "The update did not arrive in time."},
                                 status=408)
    except JsonError:
        return web.json_response({"code": "bad_json", "message": "The body must be JSON."}, status=400)
    if not isinstance(data, dict):
        return web.json_response({"code": "bad_request", "message": "The body must be a JSON object."}, status=400)
    from telegram import Update  # only a process that runs the bot gets here: local mode never imports it

    await application.update_queue.put(Update.de_json(data, application.bot))
    return web.json_response({"ok": True})


def setup_webhook(app: web.Application) -> None:
    """Add the webhook route (only when a bot runs in this process)."""
    app.router.add_post(WEBHOOK_PATH, telegram_webhook)
