"""A TCP proxy on loopback that can play a server's restart: every connection cut, new ones refused, then back.

Put it between the processes under test and their database (``url_through``) and call
``cut()``: every open connection through it is dropped at once and nothing listens on
its port, so a client's connect is refused, as while a restarted server is down;
``restore()`` listens on the same port again. Typical use::

    async with TcpProxy("127.0.0.1", 5432) as proxy:
        url = proxy.url_through("postgresql://postgres@127.0.0.1:5432/cardroom")
        ...
        await proxy.cut()
        await proxy.restore()
"""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType
from urllib.parse import urlsplit, urlunsplit

CHUNK = 64 * 1024


class TcpProxy:
    """Forwards every connection on its own loopback port to one upstream address."""

    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.port = 0  # chosen at the first start, kept across restores
        self.accepted = 0  # connections taken so far
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._pumps: set[asyncio.Task[None]] = set()

    @classmethod
    def before(cls, url: str) -> TcpProxy:
        """A proxy to the host and port of a URL (``postgresql://user@host:port/db``)."""
        parts = urlsplit(url)
        return cls(parts.hostname or "127.0.0.1", parts.port or 5432)

    def url_through(self, url: str) -> str:
        """The same URL with its host and port replaced by this proxy's."""
        parts = urlsplit(url)
        user = parts.netloc.rpartition("@")[0]
        netloc = f"{user}@127.0.0.1:{self.port}" if user else f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc))

    async def start(self) -> None:
        """Listen (on a free port the first time, on the same port after a cut)."""
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port, reuse_address=True)
        self.port = int(self._server.sockets[0].getsockname()[1])

    async def cut(self) -> None:
        """Drop every connection and stop listening: new connections are refused until ``restore``."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        for pump in list(self._pumps):
            pump.cancel()
        await asyncio.gather(*self._pumps, return_exceptions=True)
        if server is not None:
            await server.wait_closed()

    async def restore(self) -> None:
        """Accept connections again, on the same port."""
        if self._server is None:
            await self.start()

    async def close(self) -> None:
        """Stop for good."""
        await self.cut()

    async def __aenter__(self) -> TcpProxy:
        await self.start()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self.close()

    async def _accept(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            client_writer.transport.abort()
            return
        if self._server is None:  # cut while this one was connecting upstream
            client_writer.transport.abort()
            upstream_writer.transport.abort()
            return
        self.accepted += 1
        self._writers |= {client_writer, upstream_writer}
        for reader, writer in ((client_reader, upstream_writer), (upstream_reader, client_writer)):
            pump = asyncio.create_task(self._pump(reader, writer))
            self._pumps.add(pump)
            pump.add_done_callback(self._pumps.discard)

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Copy one direction until either side closes; then close both directions of the pair."""
        try:
            while chunk := await reader.read(CHUNK):
                writer.write(chunk)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self._writers.discard(writer)
            with contextlib.suppress(Exception):
                writer.close()
