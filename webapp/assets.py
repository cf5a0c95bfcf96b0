"""The static files (ES modules, CSS, SVG), held in memory, gzipped once, and versioned by content.

The page links its entry points with ``?v=<version>``: a request carrying the current
version is cached for a year (the URL changes whenever any file does); anything else,
like the modules an entry point imports by relative path, is revalidated with its ETag.
A file changed on disk is picked up on its next request.
"""

from __future__ import annotations

import gzip
import hashlib
import time
from dataclasses import dataclass
from pathlib import Path

TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".png": "image/png",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
}
COMPRESSIBLE = {".js", ".mjs", ".css", ".svg", ".json", ".txt"}
MAX_FILE = 2 * 1024 * 1024
VERSION_TTL = 1.0  # seconds between looks at the folder for changed files


@dataclass(frozen=True, slots=True)
class Asset:
    """One static file as served."""

    body: bytes
    gzipped: bytes | None
    etag: str
    content_type: str
    stamp: tuple[int, int]  # (mtime_ns, size) when read


class StaticFiles:
    """The files under one folder, read on first request and re-read when they change."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._assets: dict[str, Asset] = {}
        self._version: tuple[tuple[tuple[str, int, int], ...], str] | None = None
        self._checked = -VERSION_TTL

    def get(self, relpath: str) -> Asset | None:
        """The asset at ``relpath`` under the root, or None if there is none (or it is not servable)."""
        path = self._resolve(relpath)
        if path is None:
            return None
        try:
            stat = path.stat()
        except OSError:
            return None
        stamp = (stat.st_mtime_ns, stat.st_size)
        cached = self._assets.get(relpath)
        if cached is not None and cached.stamp == stamp:
            return cached
        if stat.st_size > MAX_FILE:
            return None
        body = path.read_bytes()
        gz = gzip.compress(body, 9, mtime=0) if path.suffix in COMPRESSIBLE else None
        asset = Asset(body, gz if gz is not None and len(gz) < len(body) else None,
                      '"' + hashlib.sha256(body).hexdigest()[:20] + '"', TYPES[path.suffix], stamp)
        self._assets[relpath] = asset
        return asset

    def _resolve(self, relpath: str) -> Path | None:
        if not relpath or relpath.startswith("/") or "\\" in relpath or "\0" in relpath:
            return None
        parts = relpath.split("/")
        if any(p in ("", ".", "..") or p.startswith(".") for p in parts):
            return None
        path = self.root.joinpath(*parts)
        if path.suffix not in TYPES or not path.is_file():
            return None
        return path

    def files(self) -> list[str]:
        """Every servable file's path relative to the root, sorted."""
        if not self.root.is_dir():
            return []
        out = []
        for path in self.root.rglob("*"):
            rel = path.relative_to(self.root).as_posix()
            if path.is_file() and self._resolve(rel) is not None:
                out.append(rel)
        return sorted(out)

    def version(self) -> str:
        """A short hash of every file's content: it changes whenever any file does."""
        now = time.monotonic()
        if self._version is not None and now - self._checked < VERSION_TTL:
            return self._version[1]
        self._checked = now
        stamps = []
        for rel in self.files():
            stat = (self.root / rel).stat()
            stamps.append((rel, stat.st_mtime_ns, stat.st_size))
        key = tuple(stamps)
        if self._version is not None and self._version[0] == key:
            return self._version[1]
        digest = hashlib.sha256()
        for rel, _, _ in key:
            asset = self.get(rel)
            digest.update(rel.encode() + b"\0" + (asset.etag.encode() if asset else b"") + b"\0")
        version = digest.hexdigest()[:12]
        self._version = (key, version)
        return version


def import_map(files: StaticFiles, prefix: str = "/static/") -> dict[str, dict[str, str]]:
    """The page's import map: every ES module on disk mapped to its URL with the current content version.

    A module imported by relative path then resolves to the same versioned URL as one linked
    from the page, so a changed file is fetched anew and an unchanged one comes from the cache.
    """
    version = files.version()
    modules = [rel for rel in files.files() if rel.endswith((".js", ".mjs"))]
    return {"imports": {f"{prefix}{rel}": f"{prefix}{rel}?v={version}" for rel in modules}}
