"""How an /api route answers a failure: refusal codes as HTTP statuses, JSON errors, the database's errors.

Errors are JSON ``{"code", "message"}`` in the reader's language; ``webapp.api`` lists the statuses.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from engine.core.errors import Refusal, RefusalCode
from engine.i18n import refusal_text
from engine.service.reach import is_unreachable
from webapp.auth import AuthError
from webapp.caller import cookie_language, give_session, request_language
from webapp.keys import SERVICE, SESSION

log = logging.getLogger(__name__)
BAD_INPUT = {"bad_options", "bad_request", "bad_json", "bad_name", "bad_cursor", "malformed_action",
             "unknown_action", "unknown_card", "unknown_game"}
FORBIDDEN = {"not_host", "not_seated", "local_signin_disabled", "not_in_group"}
NOT_FOUND = {"table_not_found"}
TOO_MANY = {"too_many_tables", "too_many_requests", "too_many_new_tables"}
# HTTP errors of /api routes, as refusals (any other status is bad_request)
HTTP_REFUSALS = {413: RefusalCode.REQUEST_TOO_LARGE, 404: RefusalCode.NOT_FOUND, 405: RefusalCode.METHOD_NOT_ALLOWED,
                 408: RefusalCode.REQUEST_TIMEOUT}
# packages whose errors are the database's (by name: the drivers are not imported here for that alone)
DATABASE_MODULES = frozenset({"sqlalchemy", "asyncpg", "sqlite3", "aiosqlite"})



def refusal_status(code: str) -> int:
    """The HTTP status for a refusal code."""
    if code in NOT_FOUND:
        return 404
    if code in FORBIDDEN:
        return 403
    if code in BAD_INPUT:
        return 400
    if code in TOO_MANY:
        return 429
    if code == RefusalCode.UNAVAILABLE:
        return 503
    return 409


def json_error(status: int, code: str, message: str, **extra: str) -> web.Response:
    """A JSON error response."""
    return web.json_response({"code": code, "message": message, **extra}, status=status)


@web.middleware
async def errors_middleware(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Turn refusals, sign-in failures and HTTP errors of /api routes into JSON errors; hand out the fresh session."""
    response = await _answer(request, handler)
    session = request.get(SESSION)
    if session and not response.prepared:
        give_session(request, response, session)
    return response


async def _answer(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    try:
        return await handler(request)
    except AuthError as exc:
        request.app[SERVICE].metrics.refused(exc.code)
        text = refusal_text(exc, cookie_language(request))
        if exc.kind == "malformed":  # sign-in data that is not even well formed is a bad request
            return json_error(400, RefusalCode.BAD_INIT_DATA, text, reason=exc.kind)
        return json_error(401, exc.code, text, reason=exc.kind)
    except Refusal as refusal:
        request.app[SERVICE].metrics.refused(refusal.code)
        response = json_error(refusal_status(refusal.code), refusal.code,
                              refusal_text(refusal, request_language(request)))
        if refusal.code == RefusalCode.TOO_MANY_REQUESTS:
            response.headers["Retry-After"] = "1"  # a budget refills a request in well under a second
        elif refusal.code == RefusalCode.TOO_MANY_NEW_TABLES:  # the process's or the person's
            response.headers["Retry-After"] = str(refusal.params["seconds"])
        return response
    except web.HTTPException as exc:
        if not request.path.startswith("/api/") or exc.status < 400:
            raise
        refused = Refusal(HTTP_REFUSALS.get(exc.status, RefusalCode.BAD_REQUEST))
        return json_error(exc.status, refused.code, refusal_text(refused, request_language(request)))
    except Exception as exc:
        if not request.path.startswith("/api/") or not is_database_error(exc):
            raise
        log_database_error(exc, f"{request.method} {request.path}")
        unavailable = Refusal(RefusalCode.UNAVAILABLE)
        return json_error(503, unavailable.code,
                          refusal_text(unavailable, request_language(request)))


def is_database_error(error: BaseException) -> bool:
    """Whether ``error`` came from the database or its driver (out of reach, or a connection in a broken state).

    Such an error says nothing about the request: it may work a moment later, on a fresh connection
    (asyncpg's ``InternalClientError: cannot switch to state …`` after a connection was cut mid-call).
    """
    if is_unreachable(error):
        return True
    seen: BaseException | None = error
    for _ in range(8):  # the driver's error wrapped by SQLAlchemy's, a few links deep at most
        if seen is None:
            return False
        if type(seen).__module__.partition(".")[0] in DATABASE_MODULES:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def log_database_error(error: BaseException, what: str, logger: logging.Logger = log) -> None:
    """Log a database error: out of reach is a warning; any other (a broken connection, a failed statement) an error."""
    if is_unreachable(error):
        logger.warning("%s: the database is out of reach (%s)", what, error)
    else:
        logger.error("%s: the database failed", what, exc_info=error)


