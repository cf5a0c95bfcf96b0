"""The WebSocket frames, one closed set per direction with a constructor each, and the parser of what clients send.

Every frame is a JSON object with a ``type``. A client frame that is not valid JSON, not
an object, nested deeper than ``MAX_DEPTH``, holding a string that is not valid Unicode
(a lone surrogate such as ``"\\ud800"``), of an unknown type, or with a field of the
wrong kind is refused here with a ``FrameError`` (a refusal whose wire code is
``malformed_frame``; its reason says what was wrong, in the reader's language) before
anything else looks at it. ``load_json`` is the same guarded reader for HTTP bodies.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal, NotRequired, TypedDict

import orjson

from engine.core.errors import Param, Refusal, RefusalCode

LobbyOp = Literal["join", "leave", "add_ai", "start", "options", "cancel"]
LOBBY_OPS: tuple[LobbyOp, ...] = ("join", "leave", "add_ai", "start", "options", "cancel")
MAX_REF = 64
MAX_DEPTH = 16  # frames and bodies are a few small objects deep; json.loads recurses per level
_TOKEN = re.compile(r'\\.|["\[\]{}]', re.DOTALL)  # an escape, a quote or a bracket


class JsonError(ValueError):
    """Text that is not acceptable JSON: not JSON at all, nested too deep, or holding invalid Unicode.

    ``reason`` is the frame refusal that says which (``frame_not_json``, ``frame_too_deep``, ``frame_not_unicode``).
    """

    def __init__(self, reason: RefusalCode, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason


def nesting_depth(text: str, stop: int = MAX_DEPTH) -> int:
    """How deep brackets nest in JSON text outside strings (counting stops past ``stop``), in one linear scan."""
    depth = deepest = 0
    in_string = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token == '"':
            in_string = not in_string
        elif in_string or len(token) > 1:  # a bracket inside a string, or an escape
            continue
        elif token in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop:
                    break
        else:
            depth -= 1
    return deepest


def is_unicode(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _all_unicode(value: Any) -> bool:
    # the depth is bounded by MAX_DEPTH before this runs, so recursion is safe
    if isinstance(value, str):
        return is_unicode(value)
    if isinstance(value, dict):
        return all(is_unicode(k) and _all_unicode(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_all_unicode(v) for v in value)
    return True


def load_json(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text no deeper than ``max_depth`` whose strings are all valid Unicode; raises JsonError."""
    if isinstance(text, bytes | bytearray):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise JsonError(RefusalCode.FRAME_NOT_UNICODE, "not UTF-8") from None
    # fast paths for the frames people send: text with no more brackets than the depth allowed cannot
    # nest deeper, and in text that is itself valid Unicode only a \u escape can make a lone surrogate
    if text.count("[") + text.count("{") > max_depth and nesting_depth(text, max_depth) > max_depth:
        raise JsonError(RefusalCode.FRAME_TOO_DEEP, f"nested deeper than {max_depth} levels")
    try:
        return orjson.loads(text)  # a tenth of the standard library's time, for the frames people send
    except orjson.JSONDecodeError:
        pass  # not JSON, or what only the standard library reads (NaN, 1e400, a lone surrogate): its answer stands
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise JsonError(RefusalCode.FRAME_NOT_JSON, "not JSON") from None
    if not is_unicode(text) or ("\\u" in text and not _all_unicode(data)):
        raise JsonError(RefusalCode.FRAME_NOT_UNICODE, "a string holds a lone surrogate")
    return data


# client -> server -----------------------------------------------------------------


class HelloFrame(TypedDict):
    """The first frame: who I am, the last seq I saw (None on a first visit), and the session a welcome handed out."""

    type: Literal["hello"]
    init_data: str
    last_seq: int | None
    session: str | None
    stay: bool  # the page followed as many redirects as it will without a welcome: serve it here


class ActFrame(TypedDict):
    """A move, made against ``seq``."""

    type: Literal["act"]
    ref: str
    seq: int
    action: dict[str, Any]


class LobbyFrame(TypedDict):
    """A lobby intent; ``changes`` only for ``options``."""

    type: Literal["lobby"]
    ref: str
    op: LobbyOp
    changes: dict[str, Any]


class ResyncFrame(TypedDict):
    """Send me a fresh view."""

    type: Literal["resync"]


class PingFrame(TypedDict):
    """Are you there? ``t`` is echoed back."""

    type: Literal["ping"]
    t: int | float | str | None


class PresenceFrame(TypedDict):
    """Whether the table is in front of the person now (the page visible, the Mini App not put aside)."""

    type: Literal["presence"]
    active: bool


ClientFrame = HelloFrame | ActFrame | LobbyFrame | ResyncFrame | PingFrame | PresenceFrame


# server -> client -----------------------------------------------------------------


class WelcomeFrame(TypedDict):
    """The seat's whole view: on connect and after every resync; ``watching``: people at the table with no seat.

    The first welcome on a socket also hands out a fresh ``session`` token, for the client's next hello.
    """

    type: Literal["welcome"]
    you: int | None
    seq: int
    view: dict[str, Any]
    watching: int
    session: NotRequired[str]


class UpdateFrame(TypedDict):
    """What changed, as this seat may see it, and its fresh view."""

    type: Literal["update"]
    seq: int
    kind: str
    events: list[dict[str, Any]]
    view: dict[str, Any]
    watching: int
    ref: NotRequired[str]  # on the mover's own update only: the ``ref`` of the move it acknowledges


class WatchingFrame(TypedDict):
    """How many people have the table open without a seat, when that changes between updates."""

    type: Literal["watching"]
    watching: int


class AckFrame(TypedDict):
    """Your intent was applied."""

    type: Literal["ack"]
    ref: str
    seq: int


class RefusedFrame(TypedDict):
    """Your intent was refused and nothing changed."""

    type: Literal["refused"]
    ref: str
    code: str
    message: str


class ErrorFrame(TypedDict):
    """A frame the server could not take at all."""

    type: Literal["error"]
    code: str
    message: str
    reason: NotRequired[str]


class PongFrame(TypedDict):
    """The answer to a ping."""

    type: Literal["pong"]
    t: int | float | str | None
    seq: NotRequired[int]


class RedirectFrame(TypedDict):
    """The table lives on another process: connect to ``url`` (its address) instead; the socket closes after it."""

    type: Literal["redirect"]
    url: str


ServerFrame = (WelcomeFrame | UpdateFrame | WatchingFrame | AckFrame | RefusedFrame | ErrorFrame | PongFrame
               | RedirectFrame)


class FrameError(Refusal):
    """A client frame that cannot be taken (wire code ``malformed_frame``, or ``unauthorized`` for a bad hello)."""


def json_refusal(error: JsonError, max_depth: int = MAX_DEPTH) -> FrameError:
    """The frame refusal for JSON text ``load_json`` would not take."""
    params: dict[str, Param] = {"maximum": max_depth} if error.reason is RefusalCode.FRAME_TOO_DEEP else {}
    return FrameError(error.reason, **params)


def _ref(data: dict[str, Any]) -> str:
    ref = data.get("ref", "")
    if not isinstance(ref, str | int) or isinstance(ref, bool) or len(str(ref)) > MAX_REF:
        raise FrameError(RefusalCode.BAD_REF)
    return str(ref)


def parse_client_frame(text: str | bytes) -> ClientFrame:
    """The typed frame in ``text``; raises FrameError (``malformed_frame``)."""
    try:
        data = load_json(text)
    except JsonError as exc:
        raise json_refusal(exc) from None
    if not isinstance(data, dict):
        raise FrameError(RefusalCode.FRAME_NOT_JSON)
    kind = data.get("type")
    if kind == "act":
        seq, action = data.get("seq"), data.get("action")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise FrameError(RefusalCode.ACT_WITHOUT_SEQ)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise FrameError(RefusalCode.ACT_WITHOUT_ACTION)
        return {"type": "act", "ref": _ref(data), "seq": seq, "action": action}
    if kind == "lobby":
        op, changes = data.get("op"), data.get("changes", {})
        if op not in LOBBY_OPS:
            raise FrameError(RefusalCode.BAD_LOBBY_OP, ops=", ".join(LOBBY_OPS))
        if not isinstance(changes, dict):
            raise FrameError(RefusalCode.FRAME_CHANGES_NOT_OBJECT)
        return {"type": "lobby", "ref": _ref(data), "op": op, "changes": changes}
    if kind == "ping":
        t = data.get("t")
        if t is not None and (isinstance(t, bool) or not isinstance(t, int | float | str) or len(str(t)) > MAX_REF):
            raise FrameError(RefusalCode.BAD_PING)
        return {"type": "ping", "t": t}
    if kind == "resync":
        return {"type": "resync"}
    if kind == "presence":
        active = data.get("active")
        if not isinstance(active, bool):
            raise FrameError(RefusalCode.MALFORMED_FRAME)
        return {"type": "presence", "active": active}
    if kind == "hello":
        return parse_hello(data)
    raise FrameError(RefusalCode.UNKNOWN_FRAME)


def parse_hello(data: dict[str, Any]) -> HelloFrame:
    """The hello frame in ``data``; raises FrameError."""
    init_data, last_seq = data.get("init_data"), data.get("last_seq")
    if not isinstance(init_data, str):
        raise FrameError(RefusalCode.HELLO_WITHOUT_INIT_DATA)
    if last_seq is not None and (isinstance(last_seq, bool) or not isinstance(last_seq, int)):
        raise FrameError(RefusalCode.BAD_LAST_SEQ)
    session = data.get("session")
    return {"type": "hello", "init_data": init_data, "last_seq": last_seq,
            "session": session if isinstance(session, str) and session else None, "stay": data.get("stay") is True}


def dump(frame: ServerFrame) -> str:
    """A server frame as compact JSON text that is always valid UTF-8 (orjson: a tenth of the stdlib's time)."""
    return encode(frame)


def encode(value: Any) -> str:
    """Any JSON-ready value as compact JSON text that is always valid UTF-8."""
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        # a lone surrogate (from a name stored before names were checked) cannot be written as UTF-8: escape it
        return json.dumps(value, separators=(",", ":"))


def welcome_frame(you: int | None, view: dict[str, Any], watching: int = 0, session: str | None = None) -> WelcomeFrame:
    """The seat's whole view (with a session token on a socket's first welcome)."""
    frame: WelcomeFrame = {"type": "welcome", "you": you, "seq": view["seq"], "view": view, "watching": watching}
    if session is not None:
        frame["session"] = session
    return frame


def update_frame(
    seq: int, kind: str, events: list[dict[str, Any]], view: dict[str, Any], watching: int = 0
) -> UpdateFrame:
    """One change at the table as a seat may see it."""
    return {"type": "update", "seq": seq, "kind": kind, "events": events, "view": view, "watching": watching}


def acknowledging(update_text: str, ref: str) -> str:
    """An update frame's text that also acknowledges the move ``ref`` (the mover's copy): ``ref`` put first."""
    return '{"ref":' + orjson.dumps(ref).decode() + "," + update_text[1:]


def watching_frame(watching: int) -> WatchingFrame:
    """The number of people watching, changed."""
    return {"type": "watching", "watching": watching}


def ack_frame(ref: str, seq: int) -> AckFrame:
    """An applied intent."""
    return {"type": "ack", "ref": ref, "seq": seq}


def refused_frame(ref: str, code: str, message: str) -> RefusedFrame:
    """A refused intent; nothing changed."""
    return {"type": "refused", "ref": ref, "code": code, "message": message}


def error_frame(code: str, message: str, reason: str | None = None) -> ErrorFrame:
    """A frame the server could not take."""
    frame: ErrorFrame = {"type": "error", "code": code, "message": message}
    if reason is not None:
        frame["reason"] = reason
    return frame


def pong_frame(t: int | float | str | None, seq: int | None = None) -> PongFrame:
    """The answer to a ping, with the table's seq at the last update this process sent (a page behind resyncs)."""
    frame: PongFrame = {"type": "pong", "t": t}
    if seq is not None:
        frame["seq"] = seq
    return frame


def redirect_frame(url: str) -> RedirectFrame:
    """The table lives on the process at ``url``: connect there."""
    return {"type": "redirect", "url": url}
