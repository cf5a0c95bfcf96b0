"""Limits on what one client may take: token buckets for frame and request rates, and counts of open table sockets.

Sockets still to sign in are counted by the client's address: the peer's, or, when the peer is
one of ``trusted_proxies``, the right-most address in ``X-Forwarded-For`` (else ``Forwarded``)
that is not a trusted proxy, the last hop only our own proxies vouch for. What a client writes
further left is its own say and never read. An IPv6 client is counted by its /64, the block one
household or phone is given, so rotating addresses inside it buys no more places.

The door has two caps on sockets still to sign in: ``max_unauthenticated_per_address`` from one
address, and ``max_unauthenticated_sockets`` in all; past the second, an address that has a
socket waiting already is refused, but one with none still gets its place (up to twice the cap),
so a few addresses holding silent sockets cannot keep everyone else out.
"""

from __future__ import annotations

import ipaddress
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from engine.config import Settings
from engine.core.errors import Refusal, RefusalCode

# a flooding socket is closed once it has had this many bursts' worth of frames refused,
# a budget that refills at this share of the frame rate, so bursty but moderate clients never reach it
STRIKES_PER_BURST = 2.5
STRIKE_RATE = 0.5
KEPT_BUDGETS = 1024  # people's request budgets kept before the full ones (idle people) are dropped
MAX_ADDRESS = 64  # characters of a forwarded hop that is no address, kept as its key
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class Proxies:
    """The reverse proxies whose forwarded-address headers are believed (``trusted_proxies``)."""

    def __init__(self, entries: Iterable[str]) -> None:
        self.networks: tuple[Network, ...] = tuple(ipaddress.ip_network(e, strict=False) for e in entries)

    def trusts(self, address: str) -> bool:
        """Whether ``address`` is one of the trusted proxies (never, for text that is no address)."""
        if not self.networks:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.networks)

    def client(self, remote: str, forwarded_for: Sequence[str] = (), forwarded: Sequence[str] = ()) -> str:
        """The client's address: the peer's, or behind a trusted proxy the right-most untrusted forwarded hop."""
        if not self.trusts(remote):
            return remote
        hops = [hop.strip() for line in forwarded_for for hop in line.split(",") if hop.strip()]
        if not hops:
            hops = [hop for line in forwarded for hop in _forwarded_for(line)]
        for hop in reversed(hops):
            if not self.trusts(hop):
                return hop[:MAX_ADDRESS]
        return hops[0][:MAX_ADDRESS] if hops else remote  # nothing but our proxies: the first one asked


def _forwarded_for(line: str) -> list[str]:
    """The ``for=`` addresses of a ``Forwarded`` header (RFC 7239), in order, without ports or brackets."""
    out = []
    for element in line.split(","):
        for pair in element.split(";"):
            name, _, value = pair.strip().partition("=")
            if name.strip().lower() != "for":
                continue
            value = value.strip().strip('"')
            if value.startswith("["):  # [v6]:port
                value = value[1:].partition("]")[0]
            elif value.count(":") == 1:  # v4:port
                value = value.partition(":")[0]
            if value:
                out.append(value)
    return out


class TokenBucket:
    """At most ``rate`` tokens a second on average, in bursts of up to ``burst``; it refills as time passes."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.last = clock()

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Budgets:
    """A request budget (a token bucket) for each person, kept only while it is not full again.

    A person idle for ``burst / rate`` seconds has a full budget, the same as a newcomer's, so
    theirs is dropped once more than ``KEPT_BUDGETS`` are kept: memory follows the people
    making requests now, not everyone who ever did.
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: dict[int, TokenBucket] = {}
        self._prune_at = KEPT_BUDGETS

    def take(self, person: int) -> bool:
        """Spend one of ``person``'s requests if they have one left."""
        bucket = self._buckets.get(person)
        if bucket is None:
            bucket = self._buckets[person] = TokenBucket(self.rate, self.burst, self.clock)
            if len(self._buckets) > self._prune_at:
                self._prune()
        return bucket.take()

    def __len__(self) -> int:
        return len(self._buckets)

    def _prune(self) -> None:
        now = self.clock()
        self._buckets = {person: bucket for person, bucket in self._buckets.items()
                         if bucket.tokens + (now - bucket.last) * self.rate < self.burst}
        self._prune_at = max(KEPT_BUDGETS, 2 * len(self._buckets))  # pruning stays rare while many are busy


def door_key(address: str) -> str:
    """What the door counts ``address`` by: an IPv4 address itself, an IPv6 address's /64 (text that is no address
    as it is)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return address


class Gate:
    """Counts the table sockets of the process to enforce the limits on them."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pending: Counter[str] = Counter()  # sockets still to say hello, by remote address (an IPv6 /64)
        self.pending_total = 0
        self.users: Counter[int] = Counter()  # signed-in sockets by user
        self.proxies = Proxies(settings.trusted_proxies)

    @contextmanager
    def unauthenticated(self, address: str) -> Iterator[Refusal | None]:
        """Hold a place for a socket still to say hello; yields the refusal (too_many_pending) if there is none."""
        remote = door_key(address)
        cap = self.settings.max_unauthenticated_sockets
        if self.pending_total >= 2 * cap or (self.pending_total >= cap and self.pending[remote] > 0):
            yield Refusal(RefusalCode.TOO_MANY_PENDING)
            return
        if self.pending[remote] >= self.settings.max_unauthenticated_per_address:
            yield Refusal(RefusalCode.TOO_MANY_PENDING_HERE)
            return
        self.pending[remote] += 1
        self.pending_total += 1
        try:
            yield None
        finally:
            self.pending_total -= 1
            self.pending[remote] -= 1
            if self.pending[remote] <= 0:
                del self.pending[remote]

    @contextmanager
    def signed_in(self, user_id: int) -> Iterator[bool]:
        """Hold a place for a user's socket; yields False when they already have as many as allowed."""
        if self.users[user_id] >= self.settings.max_sockets_per_user:
            yield False
            return
        self.users[user_id] += 1
        try:
            yield True
        finally:
            self.users[user_id] -= 1
            if self.users[user_id] <= 0:
                del self.users[user_id]
