"""A graceful stop (SIGTERM, or aiohttp's shutdown): nobody at a table is dropped by a deploy.

aiohttp first stops listening (a load balancer sends new connections to the other processes),
then runs this, in order:

1. Stop taking work: ``/readyz`` answers 503, a new table socket is closed at once with 1012
   (service restart), and a move sent on an open socket is refused as ``moving`` (its socket
   closed with 1012 too, so the page comes back where the table now lives).
2. Let the moves already accepted finish: the AI and timers stop and each table's lock is taken
   once (``engine.service.hand_over``).
3. Send the turn messages that are due (the bot's notifier, when the bot runs in this process),
   waiting at most ``FLUSH_WITHIN`` seconds.
4. Hand every table's lease over at once: another process drives them now, not after the
   heartbeat's timeout.
5. Close every open table socket with 1012 "service restart": the page reconnects at once to its
   own address, which the load balancer sends to a live process (``webapp/static/shell/net.js``).

Steps 2-4 share the bound ``stop_timeout`` (a setting, 10 s) less ``CLOSE_RESERVE``; step 5 always
runs. The tables are handed over only when the stop is told to (the application's own service,
or a test that asks): a service handed in by a test may be used again after its app stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import WSCloseCode, web

from engine.service.tables import TableService
from webapp.keys import BOT, SERVICE, SETTINGS, SOCKETS
from webapp.readiness import STOPPING

log = logging.getLogger(__name__)
CLOSE_RESTART = WSCloseCode.SERVICE_RESTART  # 1012: the page reconnects at once, to its own address
RESTART_REASON = b"service restart"
FLUSH_WITHIN = 5.0  # seconds the due turn messages may take to go out
CLOSE_RESERVE = 2.0  # seconds of the bound kept for closing the sockets and the rest of the shutdown
CLOSE_WITHIN = 1.0  # seconds the pages have to answer their sockets' close
Flush = Callable[[], Awaitable[None]]
STOP: web.AppKey[GracefulStop] = web.AppKey("stop")  # the stop under way, once the application shuts down


class GracefulStop:
    """The stop sequence, handed what it stops: the flag the process serves by, its sockets, service and bot."""

    def __init__(self, stopping: asyncio.Event, sockets: set[web.WebSocketResponse[Any]], *,
                 service: TableService | None = None, flush: Flush | None = None, within: float = 10.0,
                 flush_within: float = FLUSH_WITHIN, clock: Callable[[], float] = time.monotonic) -> None:
        self.stopping = stopping
        self.sockets = sockets
        self.service = service  # None: the tables are not handed over (a service another owner closes)
        self.flush = flush
        self.within = within
        self.flush_within = flush_within
        self.clock = clock
        self.took: dict[str, float] = {}  # seconds from the start of the stop at which each step ended

    async def run(self) -> None:
        """Stop taking work, finish it, hand the tables over and send every socket elsewhere, within the bound."""
        began = self.clock()
        self.stopping.set()
        try:
            async with asyncio.timeout(max(0.1, self.within - CLOSE_RESERVE)):
                await self._hand_over(began)
        except TimeoutError:
            log.warning("the graceful stop ran out of its %.0f s before the sockets were told; telling them now",
                        self.within)
            if self.service is not None and "leases" not in self.took:  # the others take the tables all the same
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.service.hand_over.release_leases(), CLOSE_WITHIN)
        sockets = list(self.sockets)
        with contextlib.suppress(TimeoutError):  # a page that does not answer its close is let go (aiohttp drops it)
            async with asyncio.timeout(CLOSE_WITHIN):
                await asyncio.gather(*(restart(ws) for ws in sockets), return_exceptions=True)
        self.took["sockets"] = self.clock() - began
        log.info("stopped gracefully in %.2f s: %d socket(s) sent elsewhere", self.took["sockets"], len(sockets),
                 extra={"steps": self.took})

    async def _hand_over(self, began: float) -> None:
        service = self.service
        if service is not None:
            tables = await service.hand_over.finish_moves()
            self.took["moves"] = self.clock() - began
            log.info("the moves in flight at %d table(s) are finished", tables)
        if self.flush is not None:
            try:
                await asyncio.wait_for(self.flush(), self.flush_within)
            except TimeoutError:
                log.warning("the due turn messages were not all sent within %.0f s", self.flush_within)
            except Exception:
                log.exception("sending the due turn messages failed")
            self.took["messages"] = self.clock() - began
        if service is not None:
            await service.hand_over.release_leases()
            self.took["leases"] = self.clock() - began


async def restart(ws: web.WebSocketResponse[Any]) -> None:
    """Close a socket with 1012: the page comes back at once, to a live process."""
    with contextlib.suppress(Exception):  # the peer may be gone already
        await ws.close(code=CLOSE_RESTART, message=RESTART_REASON)


def bot_flush(app: web.Application) -> Flush | None:
    """The bot's way to send the due turn messages, when the bot runs in this process."""
    notifier = getattr(getattr(app.get(BOT), "bot_data", None), "notifier", None)
    flush = getattr(notifier, "flush", None)
    return flush if callable(flush) else None


def setup_shutdown(app: web.Application, *, hand_over: bool) -> None:
    """Run the graceful stop when the application shuts down (``hand_over``: hand its service's tables over)."""

    graceful = app[STOP] = GracefulStop(app[STOPPING], app[SOCKETS], within=app[SETTINGS].stop_timeout)

    async def stop(app: web.Application) -> None:
        graceful.service = app.get(SERVICE) if hand_over else None  # the application's own is started by now
        graceful.flush = bot_flush(app)
        await graceful.run()

    app.on_shutdown.append(stop)
