"""Faults a test switches on for the next calls of a method: server errors, lost responses, dropped connections.

Kinds:

- ``server_error``: nothing happens; the answer is ``{"ok": false, "error_code": 502, "description": "Bad Gateway"}``
  (or 500 "Internal Server Error", or any 5xx given as ``status``).
- ``timeout_after_effect``: the call takes effect (the message exists), but the answer is held back until the client
  hangs up (its read timeout: python-telegram-bot raises TimedOut) or ``delay`` seconds have passed.
- ``timeout_before_effect``: the same wait, but the call never takes effect (its Call keeps status 0).
- ``drop_after_effect``: the call takes effect and the connection is closed without an answer
  (python-telegram-bot raises NetworkError).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from http import HTTPStatus
from typing import Literal, get_args

from aiohttp import web

from .model import JSON

FaultKind = Literal["server_error", "timeout_after_effect", "timeout_before_effect", "drop_after_effect"]
FAULT_KINDS: frozenset[str] = frozenset(get_args(FaultKind))
_POLL = 0.01  # how often a held answer checks whether the client is still there


@dataclass(slots=True)
class Fault:
    """One injected fault; `times` None means every call until cleared, `hits` counts the calls it met."""

    method: str
    kind: FaultKind
    times: int | None = 1
    status: int = 502
    delay: float | None = None
    hits: int = 0

    @property
    def spent(self) -> bool:
        """True once it has met all the calls it was meant for."""
        return self.times is not None and self.hits >= self.times

    def envelope(self) -> JSON:
        """The body of a server_error answer."""
        return {"ok": False, "error_code": self.status, "description": HTTPStatus(self.status).phrase}


class Faults:
    """The faults waiting for calls, first injected first used."""

    def __init__(self) -> None:
        self._waiting: list[Fault] = []

    def inject(self, method: str, kind: FaultKind, *, times: int | None, status: int, delay: float | None) -> Fault:
        """Queue a fault for the next `times` calls of `method`."""
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; one of {sorted(FAULT_KINDS)}")
        if times is not None and times < 1:
            raise ValueError("times must be at least 1 (or None for every call)")
        if not 500 <= status <= 599:
            raise ValueError("server errors have a 5xx status")
        if delay is not None and delay < 0:
            raise ValueError("delay must not be negative")
        fault = Fault(method, kind, times, status, delay)
        self._waiting.append(fault)
        return fault

    def take(self, method: str) -> Fault | None:
        """The fault this call of `method` meets, if any (it counts as one hit)."""
        for fault in self._waiting:
            if fault.method.lower() == method.lower() and not fault.spent:
                fault.hits += 1
                if fault.spent:
                    self._waiting.remove(fault)
                return fault
        return None

    def clear(self) -> None:
        """Forget every waiting fault."""
        self._waiting.clear()

    @property
    def waiting(self) -> list[Fault]:
        """Faults not yet used up."""
        return list(self._waiting)


def client_gone(request: web.Request) -> bool:
    """True once the client closed the connection."""
    transport = request.transport
    return transport is None or transport.is_closing()


async def hold(request: web.Request, delay: float | None, closing: asyncio.Event) -> None:
    """Wait until the client hangs up, `delay` seconds pass (when given) or the server closes."""
    loop = asyncio.get_running_loop()
    deadline = None if delay is None else loop.time() + delay
    while not closing.is_set() and not client_gone(request):
        step = _POLL if deadline is None else min(_POLL, deadline - loop.time())
        if step <= 0:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(closing.wait(), step)


def drop(request: web.Request) -> None:
    """Close the connection without answering."""
    transport = request.transport
    if transport is not None:
        transport.abort()
