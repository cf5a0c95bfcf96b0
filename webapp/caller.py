"""Who is calling an /api route and what they sent: the signed-in user and their session, their language, the body.

A signed-in call carries ``Authorization: tma <initData>`` (validated by ``webapp.auth``); initData older than
``initdata_max_age`` is taken with a live session token of the same user, from the ``X-Cardroom-Session``
header or the ``cardroom_session`` cookie, and every answer hands one back in both (lasting 30 days from the
Telegram sign-in it rests on, however often it is used). A person who signed out everywhere since is refused.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from engine.core.errors import Refusal, RefusalCode
from engine.i18n import negotiate
from webapp.auth import AuthError, WebUser
from webapp.keys import (
    BUDGETS,
    LANG,
    LANG_COOKIE,
    SERVICE,
    SESSION,
    SESSION_COOKIE,
    SESSION_HEADER,
    SETTINGS,
    VERIFIER,
)
from webapp.protocol import JsonError, load_json

MAX_BODY = 16 * 1024


def give_session(request: web.Request, response: web.StreamResponse, session: str) -> None:
    """Put a session token on an answer: its header, and an HttpOnly cookie (cross-site only over https)."""
    settings, verifier = request.app[SETTINGS], request.app[VERIFIER]
    response.headers[SESSION_HEADER] = session
    secure = settings.public_url  # inside Telegram's web client the page is a cross-site frame: SameSite=None
    response.set_cookie(SESSION_COOKIE, session, max_age=verifier.session_max_age, path="/", httponly=True,
                        secure=secure, samesite="None" if secure else "Lax")


def request_language(request: web.Request) -> str | None:
    """The language a refusal to this request is read in: the signed-in reader's, else the page's."""
    return request.get(LANG) or cookie_language(request)


def cookie_language(request: web.Request) -> str | None:
    """The language the page shows (its cookie, set by the picker or from Telegram), if it set one."""
    chosen = request.cookies.get(LANG_COOKIE, "")
    return negotiate(chosen) if chosen else None


def reader_language(request: web.Request, user: WebUser) -> str | None:
    """The language the page shows, else the user's Telegram one."""
    return cookie_language(request) or user.language_code or None


async def current_user(request: web.Request) -> WebUser:
    """The user vouched for by the request's ``Authorization: tma <initData>`` (and session), within their budget.

    Raises AuthError (``sign_in_ended`` for a sign-in from before they signed out everywhere), or
    Refusal("too_many_requests") when they have spent their budget (nothing is done).
    """
    header = request.headers.get("Authorization", "")
    scheme, _, init_data = header.partition(" ")
    if scheme.lower() != "tma" or not init_data.strip():
        raise AuthError(RefusalCode.SIGN_IN_HEADER_MISSING)
    verifier = request.app[VERIFIER]
    user = await signed_in(request.app, verifier.verify(init_data.strip(), session=request_session(request)))
    request[SESSION] = verifier.session_for(user)
    request[LANG] = reader_language(request, user) or ""
    if not request.app[BUDGETS].take(user.id):
        raise Refusal(RefusalCode.TOO_MANY_REQUESTS)
    return user


async def signed_in(app: web.Application, user: WebUser) -> WebUser:
    """``user``, unless they have signed out everywhere since the Telegram sign-in vouching for them (AuthError)."""
    if not await app[SERVICE].sign_outs.still_signed_in(user.id, user.signed_at):
        raise AuthError(RefusalCode.SIGN_IN_ENDED)
    return user


def request_session(request: web.Request) -> str | None:
    """The session token a request brings: its header, else its cookie."""
    return request.headers.get(SESSION_HEADER) or request.cookies.get(SESSION_COOKIE) or None


async def read_body(request: web.Request, limit: int, seconds: float) -> bytes:
    """The request body, at most ``limit`` bytes, arriving within ``seconds``; raises 413 or 408."""
    if request.content_length is not None and request.content_length > limit:
        raise web.HTTPRequestEntityTooLarge(limit, request.content_length)
    body = bytearray()
    try:
        async with asyncio.timeout(seconds):
            while chunk := await request.content.read(limit + 1 - len(body)):
                body += chunk
                if len(body) > limit:
                    raise web.HTTPRequestEntityTooLarge(limit, len(body))
    except TimeoutError:
        raise web.HTTPRequestTimeout(reason="The request body did not arrive in time.") from None
    return bytes(body)


async def read_json(request: web.Request) -> dict[str, Any]:
    """The request's JSON object body ({} when empty); raises a JSON-ready HTTP error or Refusal("bad_json")."""
    raw = await read_body(request, MAX_BODY, request.app[SETTINGS].body_timeout)
    if not raw.strip():
        return {}
    try:
        data = load_json(raw)
    except JsonError as exc:
        raise Refusal(RefusalCode.BAD_JSON) from exc
    if not isinstance(data, dict):
        raise Refusal(RefusalCode.BAD_JSON)
    return data


