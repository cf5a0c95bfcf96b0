"""The project's refusals: one base with a machine-readable code and a plain sentence.

``Refusal`` is what every layer catches; ``IllegalAction`` is a move the rules forbid,
``MalformedAction`` a move that is not even well formed, ``BadOptions`` a table setting
that is not allowed. Adapters translate by ``code`` and show ``message`` as a fallback.
"""

from __future__ import annotations


class Refusal(Exception):
    """Something asked for was refused; nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"

    def as_dict(self) -> dict[str, str]:
        """The refusal as a JSON-ready value."""
        return {"code": self.code, "message": self.message}


class IllegalAction(Refusal):
    """A well-formed move that the rules do not allow now."""


class MalformedAction(IllegalAction):
    """A move that is not well formed: wrong shape, unknown type, unknown card."""


class BadOptions(Refusal):
    """A table setting, or a combination of settings, that is not allowed."""

    def __init__(self, message: str) -> None:
        super().__init__("bad_options", message)
