"""The project's refusals: a closed set of codes, each with an English template and named parameters.

``Refusal`` is what every layer catches; ``IllegalAction`` is a move the rules forbid,
``MalformedAction`` a move that is not even well formed, ``BadOptions`` a table setting
that is not allowed. A refusal is built as ``Refusal(RefusalCode.X, **params)``: its English
``message`` comes from the code's template in ``MESSAGES``. Parameters are wire values
(cards like ``"9-clubs"``, suits like ``"clubs"``, spaces like ``"NE"``, numbers, or lists
joined as text), so an adapter can render them in the reader's language.

A few specific codes report a broader code on the wire (``FAMILY``, in ``engine.core.refusal_codes``):
``code`` is that wire code, ``reason`` the specific one whose template the message uses (``MESSAGES``, in
``engine.core.refusal_texts``); they are equal for most codes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.core.refusal_codes import FAMILY, RefusalCode
from engine.core.refusal_texts import MESSAGES, N_, Param, placeholders, render

__all__ = ["FAMILY", "MESSAGES", "N_", "BadOptions", "IllegalAction", "MalformedAction", "Param", "Refusal",
           "RefusalCode", "listed", "placeholders", "render"]


def listed(items: Iterable[object]) -> str:
    """A list parameter as wire text: its items joined by commas."""
    return ", ".join(str(item) for item in items)


class Refusal(Exception):
    """Something asked for was refused; nothing changed."""

    def __init__(self, reason: RefusalCode, /, **params: Param) -> None:
        template, names = MESSAGES[reason]
        if set(params) != set(names):
            raise TypeError(f"{reason} takes the parameters {names}, not {tuple(params)}")
        self.reason = reason
        self.code = FAMILY.get(reason, reason)
        self.params = params
        self.message = template.format(**params)
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.reason!r}, {self.params!r})"

    def render(self, translate: Callable[[str], str]) -> str:
        """The message in another language: the translated template filled with the parameters."""
        return render(self.reason, self.params, translate)

    def as_dict(self) -> dict[str, object]:
        """The refusal as a JSON-ready value; ``reason`` appears only where it differs from ``code``."""
        out: dict[str, object] = {"code": str(self.code), "message": self.message, "params": dict(self.params)}
        if self.reason != self.code:
            out["reason"] = str(self.reason)
        return out


class IllegalAction(Refusal):
    """A well-formed move that the rules do not allow now."""


class MalformedAction(IllegalAction):
    """A move that is not well formed: wrong shape, unknown type, unknown card."""


class BadOptions(Refusal):
    """A table setting, or a combination of settings, that is not allowed (wire code ``bad_options``)."""
