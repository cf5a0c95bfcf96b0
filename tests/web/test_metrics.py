"""GET /metrics: Prometheus text after real moves over a socket, and who may read it."""

from __future__ import annotations

from dataclasses import replace

from prometheus_client.parser import text_string_to_metric_families

from engine.config import Settings
from engine.service.tables import TableService
from tests.web.conftest import Client, ClientFactory, local_signin, tma
from tests.web.sockets import connect

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def scrape(client: Client, headers: dict[str, str] | None = None) -> Samples:
    """Every sample of /metrics, by name and labels (the text must parse as Prometheus text)."""
    resp = await client.get("/metrics", headers=headers or {})
    assert resp.status == 200, await resp.text()
    assert resp.headers["Content-Type"].startswith("text/plain; version=")
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(await resp.text()) for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[name, frozenset(labels.items())]


async def test_metrics_count_every_move_made_and_time_its_commit(client: Client, service: TableService) -> None:
    ann, _ = await local_signin(client, "Ann")
    table = await (await client.post("/api/tables", json={"game": "coins", "play_now": True},
                                      headers=tma(ann))).json()
    before = await scrape(client)
    assert value(before, "cardroom_moves_total", mover="person") == 0
    assert value(before, "cardroom_tables", status="playing") == 1
    peer, _ = await connect(client, table["id"], ann)
    made = 0
    while made < 4:
        await service.autoplay.idle()
        live = service.live(table["id"])
        assert live is not None and live.to_act() == {0}, "the AI seats move by themselves"
        view = await peer.caught_up(live.seq)
        await peer.send({"type": "act", "ref": f"m{made}", "seq": live.seq,
                         "action": {"type": "play", "card": view["state"]["legal"][0]}})
        assert (await peer.until(lambda f: f.get("ref") is not None))["type"] == "update"
        made += 1
    await peer.send({"type": "act", "ref": "old", "seq": 0, "action": {"type": "play", "card": "A-cups"}})
    assert (await peer.until(lambda f: f.get("ref") == "old"))["code"] == "stale"
    await service.autoplay.idle()

    after = await scrape(client)
    logged = await service.store.tables.load_actions(table["id"])
    auto = sum(1 for action in logged if action.auto)
    assert value(after, "cardroom_moves_total", mover="person") == made == len(logged) - auto
    assert value(after, "cardroom_moves_total", mover="auto") == auto >= made  # two AI seats answer each move
    assert value(after, "cardroom_move_commit_seconds_count") == len(logged)
    assert value(after, "cardroom_move_commit_seconds_bucket", le="+Inf") == len(logged)
    assert 0 < value(after, "cardroom_move_commit_seconds_sum") < len(logged) * 5
    assert value(after, "cardroom_refusals_total", code="stale") == 1
    assert value(after, "cardroom_open_sockets") == 1
    assert value(after, "cardroom_tables", status="playing") == 1
    assert value(after, "cardroom_socket_redirects_total") == 0
    assert ("cardroom_turn_messages_due", frozenset()) in after  # no bot here: nothing waits
    await peer.close()


async def test_metrics_are_refused_to_a_public_client_through_a_trusted_proxy(
    make_client: ClientFactory, settings: Settings,
) -> None:
    client = await make_client(replace(settings, trusted_proxies=("127.0.0.1",)))
    public = {"X-Forwarded-For": "203.0.113.9"}
    resp = await client.get("/metrics", headers=public)
    assert resp.status == 403 and "cardroom_" not in await resp.text()
    assert (await client.get("/metrics", headers={"Forwarded": "for=198.51.100.4"})).status == 403
    assert (await client.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"})).status == 200  # a local client
    assert (await client.get("/metrics")).status == 200  # the proxy itself, on loopback


async def test_metrics_are_served_to_the_addresses_listed(make_client: ClientFactory, settings: Settings) -> None:
    client = await make_client(replace(settings, trusted_proxies=("127.0.0.1",), metrics_allow=("203.0.113.0/24",)))
    await scrape(client, {"X-Forwarded-For": "203.0.113.9"})
    assert (await client.get("/metrics", headers={"X-Forwarded-For": "198.51.100.4"})).status == 403


async def test_a_forwarded_address_from_an_untrusted_peer_is_not_believed(client: Client) -> None:
    # no trusted proxy: the peer (loopback here) decides, whatever it writes in the header
    await scrape(client, {"X-Forwarded-For": "203.0.113.9"})


def test_settings_read_the_metrics_readers_as_a_list() -> None:
    settings = Settings.from_env({"METRICS_ALLOW": "10.0.0.0/8, 192.168.1.5,,"})
    assert settings.metrics_allow == ("10.0.0.0/8", "192.168.1.5")
    assert Settings.from_env({}).metrics_allow == ()
