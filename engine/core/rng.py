"""The one place randomness is made: table seeds and the deals derived from them.

Provably fair deals. A table's seed is 32 random bytes from the operating system's
CSPRNG, written as 64 hex digits. When the game starts everyone is shown
``sha256(seed)``; when it is over the seed itself is shown, so anyone can check the
hash and re-derive every shuffle:

* the random stream for a purpose (``"deal:3"`` for the third deal) is the
  concatenation of ``sha256(f"{seed}:{purpose}:{i}")`` for i = 0, 1, 2, … ;
* a uniform integer below ``n`` takes the next 8 bytes of the stream as a big-endian
  unsigned integer ``x`` and rejects it while ``x >= 2**64 - 2**64 % n``; otherwise
  it is ``x % n``;
* a shuffle of the deck (cards in deck order) is Fisher–Yates from the end: for
  ``i`` from ``len-1`` down to ``1``, swap item ``i`` with item ``uniform(i + 1)``.

``python -m engine.core.rng SEED PURPOSE N`` prints the shuffled order of ``range(N)``.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
import sys
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_SPAN = 1 << 64
_LIMITS = tuple(_SPAN - _SPAN % n if n else 0 for n in range(65))  # below(n) rejects draws from here up
_QUADS = struct.Struct(">4Q")
_sha256 = hashlib.sha256


def new_seed() -> str:
    """A fresh table seed from the operating system's CSPRNG."""
    return secrets.token_hex(32)


def seed_hash(seed: str) -> str:
    """The commitment published when a game starts."""
    return hashlib.sha256(seed.encode()).hexdigest()


class DealRng:
    """A deterministic stream of uniform integers for one seed and purpose."""

    __slots__ = ("_block", "_pending", "_prefix")

    def __init__(self, seed: str, purpose: str) -> None:
        self._prefix = f"{seed}:{purpose}:".encode()
        self._block = 0
        self._pending: list[int] = []  # the unread 64-bit draws of the current block, next one last

    def _refill(self) -> list[int]:
        # one SHA-256 block is four 8-byte big-endian draws; the list holds them next one last
        self._pending = list(reversed(_QUADS.unpack(_sha256(self._prefix + str(self._block).encode()).digest())))
        self._block += 1
        return self._pending

    def _next64(self) -> int:
        return (self._pending or self._refill()).pop()

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _SPAN - _SPAN % n
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A uniformly shuffled copy of ``items``."""
        out = list(items)
        i = len(out) - 1
        limits = _LIMITS
        pending = self._pending
        while i > 0:
            if not pending:
                pending = self._refill()
            x = pending.pop()
            n = i + 1
            if x < (limits[n] if n < 65 else _SPAN - _SPAN % n):
                j = x % n
                out[i], out[j] = out[j], out[i]
                i -= 1
        return out


def deal_rng(seed: str, deal_no: int | str) -> DealRng:
    """The random stream for deal number ``deal_no`` (or another named purpose) of a seed."""
    return DealRng(seed, f"deal:{deal_no}" if isinstance(deal_no, int) else deal_no)


def main(argv: list[str]) -> int:
    """Print the shuffled order of range(N) for a seed and purpose."""
    if len(argv) != 3:
        print("usage: python -m engine.core.rng SEED PURPOSE N   (PURPOSE like deal:1)", file=sys.stderr)
        return 2
    seed, purpose, n = argv
    print(" ".join(map(str, DealRng(seed, purpose).shuffled(range(int(n))))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
