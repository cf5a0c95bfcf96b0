"""The Mini App page (rendered from ``templates/app.html``), its static files, and the health check."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

import aiohttp_jinja2
from aiohttp import web

from engine import words
from engine.catalogue import describe_games
from engine.i18n import DEFAULT_LOCALE, LANGUAGES, gettext_for, negotiate, translations
from engine.option_words import page_strings
from webapp.addresses import ADDRESSES
from webapp.assets import import_map
from webapp.keys import BOT, LANG_COOKIE, SETTINGS, STATIC
from webapp.telegram_link import telegram_app_link

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
PLURAL_TABLE = 200  # plural indices for n = 0..199; the page maps larger n to n % 100 + 100
_LANG = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?")


def page_language(request: web.Request) -> str:
    """The page's language (one the catalogs have): ``?lang=``, else the page's cookie, else the browser's first choice.

    In Telegram the page itself then compares this with the user's ``language_code`` and reloads
    once with ``?lang=`` when they differ (the server never sees initData before the page runs).
    """
    candidates = (request.query.get("lang", ""), request.cookies.get(LANG_COOKIE, ""),
                  request.headers.get("Accept-Language", "").split(",")[0])
    for candidate in candidates:
        tag = candidate.split(";")[0].strip()
        if _LANG.fullmatch(tag):
            return negotiate(tag)
    return DEFAULT_LOCALE


@cache
def plural_indices(lang: str) -> tuple[int, ...]:
    """The catalog's plural form index for each n below PLURAL_TABLE (from its Plural-Forms header)."""
    rule: Callable[[int], int] = getattr(translations(lang), "plural", lambda n: int(n != 1))
    return tuple(rule(n) for n in range(PLURAL_TABLE))


def plural_forms_for(lang: str) -> Callable[[str, str], list[str]]:
    """A ``plurals(singular, plural)`` helper for templates: every form of the message in ``lang``, in index order.

    The page picks one with its plural index table, so "{n} cards" reads right for any n in
    every language: three forms in Russian and Latvian, one in Korean, two in English.
    """
    indices = plural_indices(lang)
    samples = [indices.index(i) for i in sorted(set(indices))]
    ngettext = translations(lang).ngettext

    def plurals(singular: str, plural: str) -> list[str]:
        return [ngettext(singular, plural, n) for n in samples]

    return plurals


def static_url_for(version: str) -> Callable[[str], str]:
    """A ``static_url("app.js")`` helper for templates: the versioned, long-cached URL."""

    def static_url(path: str) -> str:
        return f"/static/{path.lstrip('/')}?v={version}"

    return static_url


@cache
def games_for_page() -> list[dict[str, Any]]:
    """What the page is told of every game (the rules do not change while the process runs)."""
    return describe_games()


async def page(request: web.Request) -> web.StreamResponse:
    """GET /: the Mini App page."""
    settings = request.app[SETTINGS]
    lang = page_language(request)
    static = request.app[STATIC]
    version = static.version()
    context: dict[str, Any] = {
        "local_mode": settings.local_mode,
        "bot_username": settings.bot_username,
        "telegram_link": telegram_app_link(request),  # for the page opened outside Telegram
        "static_version": version,
        "static_url": static_url_for(version),
        "import_map": import_map(static),
        "lang": lang,
        "languages": list(LANGUAGES.items()),  # in order: tojson would sort a dict's keys
        "_": gettext_for(lang),
        "pgettext": translations(lang).pgettext,
        "plurals": plural_forms_for(lang),
        "plural_indices": list(plural_indices(lang)),
        "option_values": page_strings(translations(lang)),  # the words the bot's Options keyboard uses too
        "word_forms": words.page_strings(translations(lang)),  # suits' and ranks' case forms, for {card:acc}
        "table_id": request.query.get("table", "")[:32],
        "games": games_for_page(),  # each game's facts, for the page's game clients
    }
    response = aiohttp_jinja2.render_template("app.html", request, context)
    response.headers["Cache-Control"] = REVALIDATE
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["Vary"] = "Accept-Encoding"
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response.enable_compression(web.ContentCoding.gzip)
    return response


async def static_file(request: web.Request) -> web.StreamResponse:
    """GET /static/{path}: a static file, gzipped when the client accepts it, with cache headers."""
    asset = request.app[STATIC].get(request.match_info["path"])
    if asset is None:
        raise web.HTTPNotFound(text="Not found.")
    version = request.query.get("v")
    headers = {
        "Cache-Control": IMMUTABLE if version and version == request.app[STATIC].version() else REVALIDATE,
        "ETag": asset.etag,
        "Vary": "Accept-Encoding",
        "X-Content-Type-Options": "nosniff",
    }
    if asset.etag in request.headers.get("If-None-Match", ""):
        return web.Response(status=304, headers=headers)
    body = asset.body
    if asset.gzipped is not None and "gzip" in request.headers.get("Accept-Encoding", ""):
        body = asset.gzipped
        headers["Content-Encoding"] = "gzip"
    return web.Response(body=body, headers={**headers, "Content-Type": asset.content_type})


async def healthz(request: web.Request) -> web.Response:
    """GET /healthz: the process is up (and, with a bot, whether it runs or is still trying to start)."""
    body: dict[str, Any] = {"ok": True}
    addresses = request.app.get(ADDRESSES)
    if addresses is not None and (found := addresses.health()):  # origin, any wrong address (webapp.addresses)
        body["addresses"] = found
    bot: Any = request.app.get(BOT)
    if bot is not None:
        body["bot"] = dict(getattr(bot.bot_data, "health", {}))
    return web.json_response(body)


def setup_pages(app: web.Application) -> None:
    """Add the page, static and health routes."""
    app.router.add_get("/", page)
    app.router.add_get("/static/{path:.+}", static_file)
    app.router.add_get("/healthz", healthz)
