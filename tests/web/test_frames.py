"""Server frames are built by the constructors in webapp.protocol, never as dict literals in the socket code."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import webapp
from webapp import protocol

WEBAPP = Path(webapp.__file__).parent


@pytest.mark.parametrize("module", ["ws.py", "rooms.py", "api.py"])
def test_socket_code_builds_no_frame_literals(module: str) -> None:
    tree = ast.parse((WEBAPP / module).read_text())
    literals = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Dict)
                and any(isinstance(k, ast.Constant) and k.value == "type" for k in node.keys)]
    assert literals == [], f"{module} builds frames by hand at lines {literals}"


def test_frame_constructors_build_every_server_frame_type() -> None:
    welcome = protocol.welcome_frame(1, {"seq": 3})
    error = protocol.error_frame("c", "m", "why")
    frames: list[protocol.ServerFrame] = [
        welcome, protocol.update_frame(3, "moved", [], {"seq": 3}),
        protocol.ack_frame("r", 3), protocol.refused_frame("r", "stale", "m"), error,
        protocol.pong_frame(1), protocol.watching_frame(2),
    ]
    assert [f["type"] for f in frames] == ["welcome", "update", "ack", "refused", "error", "pong", "watching"]
    assert welcome["seq"] == 3 and error["reason"] == "why"
    assert not hasattr(protocol, "UpdateKind")
