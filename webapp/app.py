"""The aiohttp application: page, static files, JSON API, table sockets and, with a bot token, the bot.

``make_app(settings)`` builds it; each resource is one ``cleanup_ctx`` pair started and
stopped in order: the table service with its store (``engine.service.building``), then the
bot (only when a bot token is configured). Tests pass their own ``service`` (and
``bot=False``) to skip the first or the last.
"""

from __future__ import annotations

import gc
import hashlib
import hmac
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import web

from engine.config import Settings
from engine.service.building import running_service
from engine.service.tables import TableService
from webapp.api import setup_api
from webapp.assets import StaticFiles
from webapp.auth import Verifier, local_token
from webapp.caller import MAX_BODY
from webapp.client_errors import quiet_client_errors
from webapp.daily_api import setup_daily_api
from webapp.http_errors import errors_middleware
from webapp.invite_api import setup_invite_api
from webapp.keys import BOT, BUDGETS, CLOCK, PUBLIC, SERVICE, SETTINGS, STATIC, VERIFIER
from webapp.limits import Budgets
from webapp.metrics import setup_metrics
from webapp.pages import setup_pages
from webapp.public import PublicTables
from webapp.readiness import setup_readiness
from webapp.record_api import setup_record_api
from webapp.request_ids import request_ids
from webapp.sessions_api import setup_sessions_api
from webapp.settings_api import setup_settings_api
from webapp.shutdown import setup_shutdown
from webapp.webhook import MAX_UPDATE, setup_webhook
from webapp.write_access_api import setup_write_access_api
from webapp.ws import setup_ws

log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parent.parent
TEMPLATES_DIR = ROOT / "templates"
STATIC_DIR = Path(__file__).resolve().parent / "static"


async def _service_ctx(app: web.Application) -> AsyncIterator[None]:
    async with running_service(app[SETTINGS]) as service:
        app[SERVICE] = service
        yield


async def _bot_ctx(app: web.Application) -> AsyncIterator[None]:
    from tgbot.app import BotRunner, build_application

    settings = app[SETTINGS]
    application = build_application(settings, app[SERVICE])
    app[BOT] = application
    runner = BotRunner(application, settings)  # Telegram failing at start must not take the Mini App down
    runner.start()
    yield
    await runner.stop()


# a young collection every 10,000 new objects, not 700; a full one after 100 of the middle ones, not 10.
# A young collection still walks every open socket's wait for its next frame (aiohttp makes it anew for
# each frame, ~17 objects): at 3000 sockets 40-54k objects, 30-42 ms, every ~20 s at 1000 tables at the
# pace. At 2,000 they came every ~5 s and still took 18-27 ms, three times the collecting in all.
COLLECT_AFTER = (10_000, 20, 100)


async def freeze_start_up(_app: web.Application) -> None:
    """Once started, put what start-up made (modules, templates, catalogs) out of the garbage collector's way.

    A full collection walks every object it tracks; the ~120,000 that start-up leaves
    never become garbage, and walking them again and again makes each full collection a
    pause in every table's move (``bench.ws`` prints the pauses). Collections then come
    less often (``COLLECT_AFTER``): at 1000 tables ``bench.ws`` saw no full collection
    at all, 0.4 s of collecting in all against 2.2 s, and the p99 at the pace fell from
    33 to 25 ms. ``python -m webapp`` does this; tests, which start many apps in one
    process, do not.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECT_AFTER)


def make_app(
    settings: Settings,
    *,
    service: TableService | None = None,
    bot: bool = True,
    templates_dir: Path = TEMPLATES_DIR,
    static_dir: Path = STATIC_DIR,
    clock: Callable[[], float] = time.monotonic,
    hand_over: bool | None = None,
) -> web.Application:
    """The web application for ``settings``; ``service`` if given is used as is (and not closed), ``clock`` is
    the monotonic clock the sockets' flood budgets and each person's request budget refill by; ``hand_over``
    (by default: when the service is the application's own) hands its tables over on a graceful stop."""
    webhook = bool(settings.bot_token and bot)
    quiet_client_errors()
    app = web.Application(middlewares=[request_ids, errors_middleware],
                          client_max_size=MAX_UPDATE if webhook else MAX_BODY)
    app[SETTINGS] = settings
    app[CLOCK] = clock
    app[BUDGETS] = Budgets(settings.api_rate, settings.api_burst, clock)
    token = settings.bot_token or local_token(settings.data_dir)
    app[VERIFIER] = Verifier(token, settings.initdata_max_age, local=settings.local_mode)
    app[PUBLIC] = PublicTables(hmac.new(b"seat-handles", token.encode(), hashlib.sha256).digest())
    app[STATIC] = StaticFiles(static_dir)
    aiohttp_jinja2.setup(
        app, loader=jinja2.FileSystemLoader(str(templates_dir)), autoescape=jinja2.select_autoescape(default=True)
    )
    if service is None:
        app.cleanup_ctx.append(_service_ctx)
    else:
        app[SERVICE] = service
    if webhook:
        app.cleanup_ctx.append(_bot_ctx)
        setup_webhook(app)
    setup_pages(app)
    setup_invite_api(app)  # before setup_api: its /api/tables/{id}/{op} would take /invite
    setup_api(app)
    setup_record_api(app)
    setup_daily_api(app)
    setup_settings_api(app)
    setup_sessions_api(app)
    setup_write_access_api(app)
    setup_ws(app)
    setup_metrics(app)
    setup_readiness(app)
    setup_shutdown(app, hand_over=service is None if hand_over is None else hand_over)
    return app
