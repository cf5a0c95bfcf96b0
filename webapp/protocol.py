"""The WebSocket frames, one closed set per direction, and the parser of what clients send.

Every frame is a JSON object with a ``type``. A client frame that is not valid JSON, not
an object, of an unknown type, or with a field of the wrong kind is refused here with
``FrameError("malformed_frame", ...)`` before anything else looks at it.
"""

from __future__ import annotations

import json
from typing import Any, Literal, NotRequired, TypedDict

LobbyOp = Literal["join", "leave", "add_ai", "start", "options", "cancel"]
LOBBY_OPS: tuple[LobbyOp, ...] = ("join", "leave", "add_ai", "start", "options", "cancel")
UpdateKind = Literal["lobby", "started", "moved", "seat_changed", "finished", "abandoned"]
MAX_REF = 64


# client -> server -----------------------------------------------------------------


class HelloFrame(TypedDict):
    """The first frame: who I am and the last seq I saw (None on a first visit)."""

    type: Literal["hello"]
    init_data: str
    last_seq: int | None


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


ClientFrame = HelloFrame | ActFrame | LobbyFrame | ResyncFrame | PingFrame


# server -> client -----------------------------------------------------------------


class WelcomeFrame(TypedDict):
    """The seat's whole view: on connect and after every resync."""

    type: Literal["welcome"]
    you: int | None
    seq: int
    view: dict[str, Any]


class UpdateFrame(TypedDict):
    """What changed, as this seat may see it, and its fresh view."""

    type: Literal["update"]
    seq: int
    kind: str
    events: list[dict[str, Any]]
    view: dict[str, Any]


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


ServerFrame = WelcomeFrame | UpdateFrame | AckFrame | RefusedFrame | ErrorFrame | PongFrame


class FrameError(Exception):
    """A client frame that cannot be taken; nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def frame(self) -> ErrorFrame:
        """The error frame that answers it."""
        return {"type": "error", "code": self.code, "message": self.message}


def _malformed(message: str) -> FrameError:
    return FrameError("malformed_frame", message)


def _ref(data: dict[str, Any]) -> str:
    ref = data.get("ref", "")
    if not isinstance(ref, str | int) or isinstance(ref, bool) or len(str(ref)) > MAX_REF:
        raise _malformed('"ref" must be a short string.')
    return str(ref)


def parse_client_frame(text: str | bytes) -> ClientFrame:
    """The typed frame in ``text``; raises FrameError("malformed_frame")."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise _malformed("A frame must be a JSON object.") from None
    if not isinstance(data, dict):
        raise _malformed("A frame must be a JSON object.")
    kind = data.get("type")
    if kind == "act":
        seq, action = data.get("seq"), data.get("action")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise _malformed('"act" needs the "seq" the move was made against.')
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise _malformed('"act" needs an "action" object with a "type".')
        return {"type": "act", "ref": _ref(data), "seq": seq, "action": action}
    if kind == "lobby":
        op, changes = data.get("op"), data.get("changes", {})
        if op not in LOBBY_OPS:
            raise _malformed(f'"op" must be one of {", ".join(LOBBY_OPS)}.')
        if not isinstance(changes, dict):
            raise _malformed('"changes" must be an object.')
        return {"type": "lobby", "ref": _ref(data), "op": op, "changes": changes}
    if kind == "ping":
        t = data.get("t")
        if t is not None and (isinstance(t, bool) or not isinstance(t, int | float | str) or len(str(t)) > MAX_REF):
            raise _malformed('"t" must be a number or a short string.')
        return {"type": "ping", "t": t}
    if kind == "resync":
        return {"type": "resync"}
    if kind == "hello":
        return parse_hello(data)
    raise _malformed("Unknown frame type; expected hello, act, lobby, resync or ping.")


def parse_hello(data: dict[str, Any]) -> HelloFrame:
    """The hello frame in ``data``; raises FrameError."""
    init_data, last_seq = data.get("init_data"), data.get("last_seq")
    if not isinstance(init_data, str):
        raise FrameError("unauthorized", '"hello" needs "init_data".')
    if last_seq is not None and (isinstance(last_seq, bool) or not isinstance(last_seq, int)):
        raise _malformed('"last_seq" must be a number or null.')
    return {"type": "hello", "init_data": init_data, "last_seq": last_seq}


def dump(frame: ServerFrame) -> str:
    """A server frame as compact JSON text."""
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)
