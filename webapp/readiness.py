"""``GET /readyz``: whether this process is ready to serve, for a proxy or platform; ``/healthz`` only says it is up.

Ready means: the table service runs, its database answers a trivial query within two seconds
at the newest schema (``engine.service.readiness``), the bot runs (or stands by while another
process leads it) or is deliberately off (no ``BOT_TOKEN``), and the process is not shutting
down. The answer is 200 ``{"ready": true}``, else 503 with ``problems``: what is not ready, by part.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from engine.service.readiness import database_problem
from webapp.keys import BOT, SERVICE

STOPPING = web.AppKey("stopping", asyncio.Event)  # set once the application is shutting down
BOT_READY = ("running", "standby")  # the bot's start states (tgbot.app.BotRunner) in which the process serves


def bot_problem(app: web.Application) -> str | None:
    """None when the bot runs, stands by, or is off; else how starting it goes."""
    bot: Any = app.get(BOT)
    if bot is None:  # no token (local mode), or a process built without the bot
        return None
    health = dict(getattr(bot.bot_data, "health", {}))
    state = health.get("state", "stopped")
    if state in BOT_READY:
        return None
    error = health.get("error")
    return f"the bot is {state}" + (f" ({error})" if error else "")


async def readyz(request: web.Request) -> web.Response:
    """GET /readyz: 200 when ready to serve, else 503 naming what is not."""
    app = request.app
    problems: dict[str, str] = {}
    if app[STOPPING].is_set():
        problems["process"] = "shutting down"
    service = app.get(SERVICE)
    if service is None:
        problems["service"] = "not started"
    else:
        found = await database_problem(service)
        if found is not None:
            problems["database"] = found
    found = bot_problem(app)
    if found is not None:
        problems["bot"] = found
    if problems:
        return web.json_response({"ready": False, "problems": problems}, status=503)
    return web.json_response({"ready": True})


async def _stopping(app: web.Application) -> None:
    app[STOPPING].set()


def setup_readiness(app: web.Application) -> None:
    """Add /readyz."""
    app[STOPPING] = asyncio.Event()
    app.on_shutdown.append(_stopping)
    app.router.add_get("/readyz", readyz)
