"""``GET /metrics``: the process's figures in Prometheus' text format, for loopback and the addresses listed.

Each application has a registry of its own (never the library's global one, so several apps in
one process do not clash), holding the process collector (CPU, memory, open files) and one
collector that reads everything else when scraped: the counts the table service keeps
(``engine.service.metrics``), the tables in memory by status, the open sockets and the bot's
calls waiting in its budget. Nothing is computed between scrapes beyond the service's plain counts.

Each process serves its own figures; Prometheus scrapes every process (``docs/operations.md``).
Who may read them: loopback, and the addresses or networks of ``METRICS_ALLOW``; behind a
proxy listed in ``TRUSTED_PROXIES`` the client's forwarded address decides (``webapp.limits``).
Anyone else gets 403.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from engine.service.kinds import TableStatus
from engine.service.metrics import Histogram
from webapp.keys import SERVICE, SETTINGS, SOCKETS
from webapp.limits import Network, Proxies

REGISTRY = web.AppKey("metrics_registry", CollectorRegistry)
READERS = web.AppKey("metrics_readers", Proxies)  # the proxies whose forwarded addresses are believed
ALLOWED: web.AppKey[tuple[Network, ...]] = web.AppKey("metrics_allowed")


def _histogram(name: str, doc: str, labels: list[str], found: dict[tuple[str, ...], Histogram]) -> Metric:
    family = HistogramMetricFamily(name, doc, labels=labels)
    for values, histogram in sorted(found.items()):
        buckets = [("+Inf" if bound == float("inf") else repr(bound), count) for bound, count in histogram.cumulative()]
        family.add_metric(list(values), buckets, histogram.total)
    return family


class ProcessFigures(Collector):
    """Reads the application's figures when Prometheus scrapes them."""

    def __init__(self, app: web.Application) -> None:
        self.app = app

    def collect(self) -> Iterator[Metric]:
        """Every figure of the process, read now."""
        service = self.app.get(SERVICE)
        sockets = self.app.get(SOCKETS)
        open_sockets = GaugeMetricFamily("cardroom_open_sockets", "Table sockets open on this process.")
        open_sockets.add_metric([], len(sockets) if sockets is not None else 0)
        yield open_sockets
        if service is None:
            return
        metrics = service.metrics
        tables = GaugeMetricFamily("cardroom_tables", "Tables in this process's memory, by status.",
                                   labels=["status"])
        by_status = dict.fromkeys((str(status) for status in TableStatus), 0)
        for table in service.tables():
            by_status[str(table.row.status)] = by_status.get(str(table.row.status), 0) + 1
        for status, count in by_status.items():
            tables.add_metric([status], count)
        yield tables
        moves = CounterMetricFamily("cardroom_moves", "Moves stored, by who made them (person, or auto: an AI, "
                                    "a stand-in for a timed-out turn, autopilot).", labels=["mover"])
        for mover in ("person", "auto"):
            moves.add_metric([mover], metrics.moves[mover])
        yield moves
        yield _histogram("cardroom_move_commit_seconds", "Seconds a move took to be durably stored.", [],
                         {(): metrics.commit})
        refusals = CounterMetricFamily("cardroom_refusals", "Intents and connections refused, by code.",
                                       labels=["code"])
        for code, count in sorted(metrics.refusals.items()):
            refusals.add_metric([code], count)
        yield refusals
        yield CounterMetricFamily("cardroom_socket_redirects", "Sockets sent to the process that owns their table.",
                                  value=metrics.redirects)
        calls = CounterMetricFamily("cardroom_bot_api_calls", "Bot API calls answered, by method and result "
                                    "(ok, 429, error).", labels=["method", "result"])
        for (method, result), count in sorted(metrics.bot_calls.items()):
            calls.add_metric([method, result], count)
        yield calls
        yield _histogram("cardroom_bot_budget_wait_seconds", "Seconds a Bot API call waited for its turn in the "
                         "bot's budget, by lane.", ["lane"], {(lane,): h for lane, h in metrics.budget_wait.items()})
        waiting = metrics.bot_waiting() if metrics.bot_waiting is not None else {}
        queued = GaugeMetricFamily("cardroom_bot_calls_waiting", "Bot API calls waiting in the budget now, by lane.",
                                   labels=["lane"])
        for lane, count in sorted(waiting.items()):
            queued.add_metric([lane], count)
        yield queued
        yield GaugeMetricFamily("cardroom_turn_messages_due", "Turn messages due and not yet sent (waiting in the "
                                "bot's budget).", value=waiting.get("turn", 0))


def is_allowed(request: web.Request) -> bool:
    """Whether the client may read /metrics: loopback, or an address ``METRICS_ALLOW`` lists."""
    address = request.app[READERS].client(request.remote or "", request.headers.getall("X-Forwarded-For", ()),
                                          request.headers.getall("Forwarded", ()))
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback or any(ip in network for network in request.app[ALLOWED])


async def metrics(request: web.Request) -> web.Response:
    """GET /metrics: the process's figures, to loopback and the addresses allowed; 403 to anyone else."""
    if not is_allowed(request):
        raise web.HTTPForbidden(text="metrics are served to loopback and METRICS_ALLOW only\n")
    return web.Response(body=generate_latest(request.app[REGISTRY]), headers={"Content-Type": CONTENT_TYPE_LATEST})


def setup_metrics(app: web.Application) -> None:
    """Add /metrics with a registry of this application's own."""
    settings = app[SETTINGS]
    registry = app[REGISTRY] = CollectorRegistry()
    ProcessCollector(registry=registry)
    registry.register(ProcessFigures(app))
    app[READERS] = Proxies(settings.trusted_proxies)
    app[ALLOWED] = Proxies(settings.metrics_allow).networks
    app.router.add_get("/metrics", metrics)
