"""The Mini App page's first-load weight: the page and every static file it links, gzipped as browsers ask."""

from __future__ import annotations

import re
import zlib
from typing import Any

import aiohttp

ACCEPT = {"Accept-Encoding": "gzip, deflate, br"}


def _text(headers: Any, body: bytes) -> str:
    if headers.get("Content-Encoding") in ("gzip", "deflate"):
        body = zlib.decompress(body, 47)  # 47: a gzip or zlib header, detected
    return body.decode("utf-8", "replace")


async def page_weight(session: aiohttp.ClientSession, url: str) -> tuple[int, int, int]:
    """(files, bytes on the wire, bytes uncompressed) of the page at ``url`` and what it links under /static/."""
    async with session.get(url + "/", headers=ACCEPT) as resp:
        body = await resp.read()
        page = _text(resp.headers, body)
    files, wire, raw = 1, len(body), len(page.encode())
    linked = sorted(set(re.findall(r'"(/static/[^"?]+)(?:\?v=[^"]*)?"', page)))
    css_linked: set[str] = set()
    for path in linked:
        async with session.get(url + path, headers=ACCEPT) as resp:
            body = await resp.read()
            text = _text(resp.headers, body)
        files, wire, raw = files + 1, wire + len(body), raw + len(text.encode())
        if path.endswith(".css"):
            css_linked |= set(re.findall(r"url\((?:['\"])?(/static/[^'\")?]+)", text))
    for path in sorted(css_linked - set(linked)):
        async with session.get(url + path, headers=ACCEPT) as resp:
            body = await resp.read()
        files, wire, raw = files + 1, wire + len(body), raw + len(_text(resp.headers, body).encode())
    return files, wire, raw
