"""A bare WebSocket client on a plain socket, whose reading the test controls to the byte.

aiohttp's client reads whatever arrives into a queue of its own (64 KiB) whether or not the
test asks for a frame, and loopback's kernel buffers grow to megabytes: a reader that "stops
reading" with it stalls nobody. This one reads from the socket only when asked, and takes a
small receive buffer before connecting, so a stall reaches the server within a few frames.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
from typing import Any

from yarl import URL


class RawSocket:
    """One WebSocket client connection (text frames, no extensions), read only on demand."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.loop = asyncio.get_running_loop()
        self.buffer = b""

    @classmethod
    async def connect(cls, url: URL, receive_buffer: int) -> RawSocket:
        """Open ``url`` (``http://host:port/path``) with ``receive_buffer`` bytes of kernel receive buffer."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)  # before connecting: the window is small
        sock.setblocking(False)
        raw = cls(sock)
        await raw.loop.sock_connect(sock, (url.host or "127.0.0.1", url.port or 80))
        key = base64.b64encode(os.urandom(16)).decode()
        await raw.loop.sock_sendall(sock, (
            f"GET {url.raw_path_qs} HTTP/1.1\r\nHost: {url.host}:{url.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = await raw._until(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        return raw

    async def _more(self) -> None:
        chunk = await self.loop.sock_recv(self.sock, 65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        self.buffer += chunk

    async def _until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            await self._more()
        head, _, self.buffer = self.buffer.partition(end)
        return head

    async def _take(self, size: int) -> bytes:
        while len(self.buffer) < size:
            await self._more()
        taken, self.buffer = self.buffer[:size], self.buffer[size:]
        return taken

    async def send_json(self, frame: dict[str, Any]) -> None:
        """Send one masked text frame."""
        data = json.dumps(frame).encode()
        size = len(data)
        header = bytes([0x81]) + (bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + struct.pack("!H", size))
        mask = os.urandom(4)
        await self.loop.sock_sendall(self.sock, header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    async def receive_json(self) -> dict[str, Any]:
        """The next text frame (control frames skipped; a close frame raises ConnectionError)."""
        while True:
            first, second = await self._take(2)
            size = second & 0x7F
            if size == 126:
                (size,) = struct.unpack("!H", await self._take(2))
            elif size == 127:
                (size,) = struct.unpack("!Q", await self._take(8))
            payload = await self._take(size)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise ConnectionError(f"closed: {payload!r}")
            if opcode == 0x1:
                found: dict[str, Any] = json.loads(payload)
                return found

    def close(self) -> None:
        """Drop the connection."""
        self.sock.close()
