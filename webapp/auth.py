"""Who is asking: Telegram Mini App ``initData`` checked with the bot token's HMAC, and nothing else.

Telegram signs ``initData`` (a query string) like this: every field except ``hash`` is
written as ``key=value``, the lines are sorted and joined with ``\\n`` (the data-check
string), and ``hash`` is the hex HMAC-SHA256 of that string under the key
``HMAC-SHA256(key="WebAppData", msg=bot_token)``. The server recomputes it, compares in
constant time, refuses an ``auth_date`` older than the allowed age, and only then reads
the user. In local mode (no bot token) the process signs its own ``initData`` with a
random local token, so exactly the same check applies to everyone.

initData only starts a sign-in: once it has passed every check, the server hands out a
session token of its own (``user id.s<signed at>.HMAC``, under a key derived from the bot
token, so a token from another bot or with a changed byte is refused as forged). A sign-in is
as old as the Telegram data that vouched for it (``WebUser.signed_at``: initData's
``auth_date``, carried on by the session it started), and a session lasts ``SESSION_MAX_AGE``
(30 days) from then: using it does not make it last longer, opening the app from Telegram
again (fresh initData) does. A client that comes back with initData older than
``initdata_max_age`` (a table left open for days, then a reconnect) is still taken when its
initData's signature holds and it brings a live session token of that same user; initData too
old and no session, or a forged or expired one, is refused. A person can end every sign-in
of theirs at once (``engine.service.sign_outs``): the adapters refuse one from before that
moment (``sign_in_ended``). Tokens of the older form (``user id.expiry.HMAC``) are read as
signed ``SESSION_MAX_AGE`` before their expiry, so they end when they always would have.

A refused sign-in is an ``AuthError``: a refusal like any other (its code says why, in the
reader's language), on the wire ``unauthorized`` with a ``kind`` (``missing``, ``malformed``,
``missing_hash``, ``bad_hash``, ``stale``). Names, Telegram's or a local sign-in's, are
cleaned of control and format characters (``engine.core.names``) before anyone sees them.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from engine.core.errors import Refusal, RefusalCode
from engine.core.names import MAX_NAME, clean_name
from webapp.protocol import JsonError, is_unicode, load_json

MAX_INIT_DATA = 4096
FUTURE_SKEW = 300  # seconds an auth_date may lie ahead of our clock (clock drift)
KEY_FILE = "local-signin.key"
KEY_TRIES = 20  # rounds of "read, else link a new key" before a process gives up sharing one
MAX_DATE_DIGITS = 12
SESSION_MAX_AGE = 30 * 24 * 3600  # seconds a session lasts from the Telegram sign-in that started it
MAX_SESSION = 128  # characters; a longer token is no token of ours


C = RefusalCode
# why sign-in data was refused -> the kind the wire names (clients and logs key on it)
KINDS: dict[RefusalCode, str] = {
    C.SIGN_IN_MISSING: "missing", C.SIGN_IN_HEADER_MISSING: "missing", C.SIGN_IN_UNSIGNED: "missing_hash",
    C.SIGN_IN_FORGED: "bad_hash", C.SIGN_IN_EXPIRED: "stale", C.SIGN_IN_ENDED: "stale",
    **{c: "malformed" for c in (C.SIGN_IN_TOO_LONG, C.SIGN_IN_NOT_TEXT, C.SIGN_IN_NOT_A_QUERY, C.SIGN_IN_REPEATS_FIELD,
                                C.SIGN_IN_BAD_DATE, C.SIGN_IN_FROM_THE_FUTURE, C.SIGN_IN_NO_USER, C.SIGN_IN_BAD_USER_ID,
                                C.SIGN_IN_TEXT_NOT_UNICODE)},
}


class AuthError(Refusal):
    """initData that is missing, malformed, forged or too old: code ``unauthorized``; ``kind`` says which."""

    def __init__(self, reason: RefusalCode) -> None:
        super().__init__(reason)
        self.kind = KINDS[reason]

    def as_dict(self) -> dict[str, object]:
        """The refusal as a JSON-ready value (in English; adapters render it in the reader's language)."""
        return {"code": str(self.code), "reason": self.kind, "message": self.message}


@dataclass(frozen=True, slots=True)
class WebUser:
    """A Telegram user as vouched for by validated initData."""

    id: int
    first_name: str
    last_name: str = ""
    username: str = ""
    language_code: str = ""
    allows_write_to_pm: bool = False  # Telegram says the bot may write to them (they allowed it in a Mini App)
    signed_at: int = 0  # when Telegram signed the data this sign-in rests on (initData's, or its session's)

    @property
    def name(self) -> str:
        """The name shown at a table: Telegram's, cleaned of control and format characters."""
        return (clean_name(f"{self.first_name} {self.last_name}") or clean_name(self.username)
                or f"Player {self.id}")[:MAX_NAME]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        out: dict[str, Any] = {"id": self.id, "first_name": self.first_name}
        if self.last_name:
            out["last_name"] = self.last_name
        if self.username:
            out["username"] = self.username
        if self.language_code:
            out["language_code"] = self.language_code
        return out


def secret_key(token: str) -> bytes:
    """The HMAC key Telegram derives from a bot token for Mini App data."""
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: Mapping[str, str]) -> str:
    """Every field but ``hash`` as sorted ``key=value`` lines."""
    return "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")


def sign_init_data(token: str, user: Mapping[str, Any], auth_date: int | None = None, **extra: str) -> str:
    """initData for ``user`` signed with ``token`` exactly as Telegram would (tests and local mode)."""
    fields = {
        "auth_date": str(int(time.time()) if auth_date is None else auth_date),
        "user": json.dumps(dict(user), separators=(",", ":"), ensure_ascii=False),
        **extra,
    }
    digest = hmac.new(secret_key(token), data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def session_key(token: str) -> bytes:
    """The HMAC key of the server's own session tokens, derived from the bot token (never Telegram's key)."""
    return hmac.new(b"CardroomSession", token.encode(), hashlib.sha256).digest()


class Verifier:
    """Checks initData against one bot token (or the local token) and a maximum age, and the sessions it started."""

    def __init__(self, token: str, max_age: int, *, local: bool = False,
                 session_max_age: int = SESSION_MAX_AGE) -> None:
        self.local = local
        self.max_age = max_age
        self.session_max_age = session_max_age
        self._token = token
        self._key = secret_key(token)
        self._session_key = session_key(token)

    def session_for(self, user: WebUser) -> str:
        """A session token for ``user``, good for ``session_max_age`` seconds from their Telegram sign-in."""
        body = f"{user.id}.s{user.signed_at}"
        return f"{body}.{self._session_mac(body)}"

    def _session_mac(self, body: str) -> str:
        return hmac.new(self._session_key, body.encode(), hashlib.sha256).hexdigest()

    def check_session(self, session: str, user_id: int, now: float) -> int:
        """When the Telegram sign-in that started ``session`` was signed; raises AuthError unless it is a live token
        of ours for ``user_id``."""
        body, _, mac = session[:MAX_SESSION].rpartition(".")
        if len(session) > MAX_SESSION or not hmac.compare_digest(self._session_mac(body).encode(), mac.encode()):
            raise AuthError(C.SIGN_IN_FORGED)  # another bot's token, or a changed byte
        owner, _, when = body.partition(".")
        if owner != str(user_id):
            raise AuthError(C.SIGN_IN_FORGED)  # someone else's session with this user's old initData
        signed = when[1:] if when.startswith("s") else when  # the older form held its expiry
        if not (signed.isascii() and signed.isdigit() and len(signed) <= MAX_DATE_DIGITS):
            raise AuthError(C.SIGN_IN_EXPIRED)
        signed_at = int(signed) if when.startswith("s") else int(signed) - self.session_max_age
        if signed_at + self.session_max_age < now:
            raise AuthError(C.SIGN_IN_EXPIRED)
        return signed_at

    def sign(self, user: Mapping[str, Any], auth_date: int | None = None) -> str:
        """initData for a locally signed-in user (local mode only)."""
        if not self.local:
            raise RuntimeError("only the local token signs initData; Telegram signs the real ones")
        return sign_init_data(self._token, user, auth_date)

    def verify(self, init_data: object, now: float | None = None, session: str | None = None) -> WebUser:
        """The user vouched for by ``init_data`` (past ``max_age`` only with a live ``session``); raises AuthError.

        A session token that comes with initData young enough is not needed and not looked at.
        """
        if not isinstance(init_data, str) or not init_data:
            raise AuthError(C.SIGN_IN_MISSING)
        if len(init_data) > MAX_INIT_DATA:
            raise AuthError(C.SIGN_IN_TOO_LONG)
        if not is_unicode(init_data):
            raise AuthError(C.SIGN_IN_NOT_TEXT)
        try:
            pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
        except ValueError:
            raise AuthError(C.SIGN_IN_NOT_A_QUERY) from None
        fields = dict(pairs)
        if len(fields) != len(pairs):
            raise AuthError(C.SIGN_IN_REPEATS_FIELD)
        received = fields.get("hash", "")
        if not received:
            raise AuthError(C.SIGN_IN_UNSIGNED)
        expected = hmac.new(self._key, data_check_string(fields).encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected.encode(), received.encode()):
            raise AuthError(C.SIGN_IN_FORGED)
        now = time.time() if now is None else now
        auth_date = self._auth_date(fields.get("auth_date", ""), now)
        expired = now - auth_date > self.max_age
        if expired and not session:
            raise AuthError(C.SIGN_IN_EXPIRED)
        user = _user_from(fields.get("user", ""))
        signed_at = self.check_session(session, user.id, now) if expired and session else auth_date
        return replace(user, signed_at=signed_at)

    def _auth_date(self, raw: str, now: float) -> int:
        if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_DATE_DIGITS):  # "²".isdigit() too
            raise AuthError(C.SIGN_IN_BAD_DATE)
        if int(raw) - now > FUTURE_SKEW:
            raise AuthError(C.SIGN_IN_FROM_THE_FUTURE)
        return int(raw)


def _user_from(raw: str) -> WebUser:
    try:
        data = load_json(raw)
    except JsonError:
        data = None
    if not isinstance(data, dict):
        raise AuthError(C.SIGN_IN_NO_USER)
    user_id = data.get("id")
    if isinstance(user_id, bool) or not isinstance(user_id, int) or user_id <= 0:
        raise AuthError(C.SIGN_IN_BAD_USER_ID)

    def text(key: str) -> str:
        value = data.get(key)
        if not isinstance(value, str):
            return ""
        if not is_unicode(value):
            raise AuthError(C.SIGN_IN_TEXT_NOT_UNICODE)
        return clean_name(value)

    return WebUser(user_id, text("first_name"), text("last_name"), text("username"), text("language_code"),
                   data.get("allows_write_to_pm") is True)


def local_token(data_dir: Path | None) -> str:
    """The local signing token: kept in ``data_dir`` so sign-ins outlive a restart, else per process.

    Processes that start together on one data dir must sign with one key: a new key is written
    whole to a file of its own and linked into place only if no key is there yet (an atomic step),
    so the first process to link wins and every other one reads that key.
    """
    if data_dir is None:
        return secrets.token_hex(32)
    path = data_dir / KEY_FILE
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError:
        return secrets.token_hex(32)
    for _ in range(KEY_TRIES):
        existing = _read_key(path)
        if existing:
            return existing
        token = secrets.token_hex(32)
        draft = data_dir / f".{KEY_FILE}.{secrets.token_hex(8)}"
        try:
            with os.fdopen(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
                out.write(token)
            if existing is None:
                os.link(draft, path)  # fails if another process's key got there first: then read that one
            else:
                os.replace(draft, path)  # a key file too short to be one: replaced
            return token
        except FileExistsError:
            continue
        except OSError:
            return token  # the key cannot be kept: this process signs with its own
        finally:
            with contextlib.suppress(OSError):
                os.unlink(draft)
    return secrets.token_hex(32)


def _read_key(path: Path) -> str | None:
    """The key in ``path``; None when there is no file, "" when the file holds no usable key."""
    try:
        existing = path.read_text().strip()
    except FileNotFoundError:
        return None
    except OSError:
        return ""
    return existing if len(existing) >= 32 else ""


def new_local_user(name: object) -> dict[str, Any]:
    """A fresh local identity for a sign-in name; raises Refusal("bad_name") when the name is unusable."""
    if not isinstance(name, str) or not name.strip():
        raise Refusal(RefusalCode.BAD_NAME)
    if not is_unicode(name):
        raise Refusal(RefusalCode.NAME_NOT_TEXT)
    clean = clean_name(name)
    if not clean:  # nothing readable: only control or format characters
        raise Refusal(RefusalCode.BAD_NAME)
    # far above the ids Telegram hands out today, so a local database never mixes the two
    return {"id": 9_000_000_000_000 + secrets.randbelow(10**12), "first_name": clean}
