"""Each request and socket gets a request id: the log lines written while serving it carry it (``engine.logs``).

A proxy's ``X-Request-Id`` is kept when it is a plain token (letters, digits, ``-_.:``, at most
64), so a request can be followed from the proxy's log into ours; else a fresh one is drawn.
The answer says it back in ``X-Request-Id``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Awaitable, Callable

from aiohttp import web

from engine.logs import REQUEST_ID

HEADER = "X-Request-Id"
PLAIN = re.compile(r"[A-Za-z0-9._:-]{1,64}")


@web.middleware
async def request_ids(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Serve the request with its id set for the log, and say the id in the answer."""
    given = request.headers.get(HEADER, "")
    request_id = given if PLAIN.fullmatch(given) else secrets.token_hex(8)
    token = REQUEST_ID.set(request_id)
    try:
        response = await handler(request)
    finally:
        REQUEST_ID.reset(token)
    if not response.prepared:
        response.headers[HEADER] = request_id
    return response
