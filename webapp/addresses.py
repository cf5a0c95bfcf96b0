"""Whether the process addresses a socket is sent to answer: this process's own (``PROCESS_URL``), and its peers'.

With several processes, a socket reaching a process that does not own its table is sent to
the owner's address (``webapp.ws``). A wrong address (a typo, a port not published, a
proxy that routes elsewhere) would send sockets to nowhere, and bring them back, for ever.
So before sending a socket to an address, the process asks that address's ``/healthz``
(at most every ``FRESH_FOR`` seconds each): one that does not answer in ``PROBE_TIMEOUT``
seconds, or answers as this very process, is not sent to; the socket is served here (the
``(table_id, seq)`` guard keeps two processes from applying one move twice), and the
address is logged and listed in ``/healthz``. At start the process asks its own address
the same question, and says loudly when it does not reach itself. A page that followed
``MAX_HOPS`` redirects without a welcome says so in its hello (``stay``) and is served where it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

log = logging.getLogger(__name__)
PROBE_TIMEOUT = 1.0  # seconds an address has to answer /healthz
FRESH_FOR = 10.0  # seconds a probe's answer is kept
SELF_CHECK_FOR = 15.0  # seconds the process keeps asking its own address at start (the listener may come late)
SELF_CHECK_EVERY = 0.5
WARN_EVERY = 60.0  # seconds between two warnings about the same address


@dataclass(slots=True)
class Probe:
    """What an address answered, and when it was asked."""

    ok: bool
    at: float
    why: str = ""


@dataclass(slots=True)
class Report:
    """What ``/healthz`` says of the addresses."""

    own: str | None
    own_ok: bool | None = None  # None: not checked (no address, or still checking)
    own_why: str = ""
    unreachable: dict[str, str] = field(default_factory=dict)  # peer address -> why
    loops: int = 0  # sockets that came back after as many redirects as a page follows


def is_fresh(probe: Probe | None, now: float) -> bool:
    """Whether a probe's answer may still be used."""
    return probe is not None and now - probe.at < FRESH_FOR


def answered_origin(body: Any) -> str | None:
    """The origin a ``/healthz`` answer names (``health`` below puts it under ``addresses``), if any."""
    found = body.get("addresses") if isinstance(body, dict) else None
    origin = found.get("origin") if isinstance(found, dict) else None
    return origin if isinstance(origin, str) else None


def verdict(status: int, body: Any, own_origin: str) -> tuple[bool, str]:
    """Whether an answer of ``/healthz`` is another live process's (and why not)."""
    if status != 200:
        return False, f"/healthz answered {status}"
    if own_origin and answered_origin(body) == own_origin:
        return False, "it is this process's own address"
    return True, ""


class Addresses:
    """Probes of the addresses sockets are sent to, kept a few seconds each; and this process's own."""

    def __init__(self, own: str | None, origin: Callable[[], str], clock: Callable[[], float] = time.monotonic) -> None:
        self.origin = origin  # this process's origin (what its /healthz says), "" when alone
        self.clock = clock
        self.report = Report(own)
        self._probes: dict[str, Probe] = {}
        self._asking: dict[str, asyncio.Task[Probe]] = {}
        self._warned: dict[str, float] = {}
        self._session: aiohttp.ClientSession | None = None
        self._self_check: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Start asking: this process's own address first (in the background)."""
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=PROBE_TIMEOUT))
        if self.report.own is not None:
            self._self_check = asyncio.create_task(self.check_self(), name="own-address")

    async def close(self) -> None:
        """Stop asking."""
        tasks = [t for t in (self._self_check, *self._asking.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._session is not None:
            await self._session.close()

    async def _ask(self, url: str, *, own: bool = False) -> Probe:
        session = self._session
        if session is None:
            return Probe(True, self.clock())  # not opened (a test's bare app): take the address as it is
        try:
            async with session.get(url.rstrip("/") + "/healthz") as resp:
                body = await resp.json(content_type=None) if resp.status == 200 else None
                ok, why = verdict(resp.status, body, "" if own else self.origin())
                if own and ok and self.origin() and answered_origin(body) != self.origin():
                    ok, why = False, "another process answers there"
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as error:
            ok, why = False, f"no answer ({type(error).__name__}: {error})".strip()
        return Probe(ok, self.clock(), why)

    async def answers(self, url: str) -> bool:
        """Whether a peer's address answers as another live process (asked at most every ``FRESH_FOR`` s)."""
        probe = self._probes.get(url)
        if not is_fresh(probe, self.clock()):
            task = self._asking.get(url)
            if task is None:
                task = self._asking[url] = asyncio.create_task(self._ask(url))
                task.add_done_callback(lambda _t: self._asking.pop(url, None))
            probe = self._probes[url] = await asyncio.shield(task)
        assert probe is not None
        if probe.ok:
            self.report.unreachable.pop(url, None)
        else:
            self.report.unreachable[url] = probe.why
            self._warn(url, "sockets are served here instead of being sent to %s, which does not answer as a "
                       "process of this game (%s): check that process's PROCESS_URL", url, probe.why)
        return probe.ok

    def looped(self, url: str | None) -> None:
        """A socket came back after as many redirects as a page follows: served here; said in /healthz and the log."""
        self.report.loops += 1
        self._warn(f"loop:{url}", "a socket followed redirects without a welcome and is served here (its table's "
                   "owner advertises %s): check the processes' PROCESS_URL", url)

    def _warn(self, key: str, message: str, *args: Any) -> None:
        now = self.clock()
        if now - self._warned.get(key, -WARN_EVERY) >= WARN_EVERY:
            self._warned[key] = now
            log.warning(message, *args)

    async def check_self(self) -> None:
        """Ask this process's own address until it answers as this process, for ``SELF_CHECK_FOR`` seconds at most."""
        own = self.report.own
        if own is None:
            return
        began = self.clock()
        probe = Probe(False, began, "not asked")
        while self.clock() - began < SELF_CHECK_FOR:
            probe = await self._ask(own, own=True)
            if probe.ok:
                self.report.own_ok, self.report.own_why = True, ""
                return
            await asyncio.sleep(SELF_CHECK_EVERY)
        self.report.own_ok, self.report.own_why = False, probe.why
        log.error("PROCESS_URL %s does not reach this process (%s): other processes cannot send sockets here and "
                  "serve this process's tables' sockets themselves; fix PROCESS_URL", own, probe.why)

    def health(self) -> dict[str, Any]:
        """The addresses' part of ``/healthz``: this process's origin (when it shares a database), and any address
        found wrong; empty for a process alone with nothing wrong."""
        report = self.report
        found: dict[str, Any] = {"origin": self.origin()} if self.origin() else {}
        if report.own_ok is False:
            found["own_address"] = {"url": report.own, "problem": report.own_why}
        if report.unreachable:
            found["unreachable_peers"] = dict(report.unreachable)
        if report.loops:
            found["redirect_loops"] = report.loops
        return found


ADDRESSES = web.AppKey("addresses", Addresses)


async def addresses_ctx(app: web.Application) -> Any:
    """Open the probes for the application's life."""
    addresses = app[ADDRESSES]
    await addresses.open()
    yield
    with contextlib.suppress(Exception):
        await addresses.close()
