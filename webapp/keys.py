"""The application's typed state: one ``web.AppKey`` per shared object."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import web

from engine.config import Settings
from engine.service.tables import TableService
from webapp.assets import StaticFiles
from webapp.auth import Verifier
from webapp.limits import Budgets, Gate
from webapp.public import PublicTables
from webapp.rooms import Rooms

SETTINGS = web.AppKey("settings", Settings)
SERVICE = web.AppKey("service", TableService)
VERIFIER = web.AppKey("verifier", Verifier)
STATIC = web.AppKey("static", StaticFiles)
PUBLIC = web.AppKey("public", PublicTables)  # the web's form of tables: no Telegram ids
ROOMS = web.AppKey("rooms", Rooms)
GATE = web.AppKey("gate", Gate)  # counts of open table sockets, for their limits
BUDGETS = web.AppKey("budgets", Budgets)  # each person's /api requests a second
# the monotonic clock the sockets' flood budgets and the request budgets refill by (tests set their own)
CLOCK: web.AppKey[Callable[[], float]] = web.AppKey("clock")
BOT = web.AppKey("bot", object)  # the python-telegram-bot Application, when a bot token is set
# open table sockets, closed on shutdown
SOCKETS: web.AppKey[set[web.WebSocketResponse[Any]]] = web.AppKey("sockets", set)
LANG = web.RequestKey("lang", str)  # the signed-in user's language, for refusal messages
LANG_COOKIE = "cardroom_lang"  # the page sets it when it settles on a language (the picker, or Telegram's)
# the server's own session token (webapp.auth): handed out in a cookie and a header of /api answers and in a
# socket's first welcome; read back from the hello's ``session``, the header, or the cookie
SESSION_COOKIE = "cardroom_session"
SESSION_HEADER = "X-Cardroom-Session"
SESSION = web.RequestKey("session", str)  # the fresh session token for this request's answer
