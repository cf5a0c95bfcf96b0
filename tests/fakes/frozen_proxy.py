"""A TCP proxy that can play a partition: every byte dropped on the way while frozen, nothing closed.

Unlike ``TcpProxy.cut`` (connections closed, as a restarted server does), ``freeze`` leaves every
connection open on both sides and delivers nothing more: the client's queries never get an
answer and the server hears nothing from the client, as when packets are dropped between them
or the client process is stopped (SIGSTOP). ``thaw`` delivers again.
"""

from __future__ import annotations

import asyncio
import contextlib

from tests.fakes.tcp_proxy import CHUNK, TcpProxy


class FrozenProxy(TcpProxy):
    """A ``TcpProxy`` whose connections can be frozen: open, but silent both ways."""

    frozen = False

    def freeze(self) -> None:
        """Drop every byte from now on, both ways, closing nothing."""
        self.frozen = True

    def thaw(self) -> None:
        """Deliver again (what was dropped stays lost)."""
        self.frozen = False

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while chunk := await reader.read(CHUNK):
                if self.frozen:
                    continue  # dropped on the way
                writer.write(chunk)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        if self.frozen:
            return  # a close does not get through either: the other side keeps its end open (``cut`` ends it)
        self._writers.discard(writer)
        with contextlib.suppress(Exception):
            writer.close()
