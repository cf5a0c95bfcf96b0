"""The deal of the day over HTTP: two people signed in locally play Coins' deal of the day on the same cards."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from engine import games
from engine.service.tables import TableService
from engine.store.database import Store
from tests.clock import ManualClock
from tests.service.daily_clock import today, today_noon
from tests.service.helpers import play_out
from tests.web.conftest import Client, local_signin, tma
from tests.web.sockets import Peer

NOON = today_noon()
DAY = today().isoformat()


@pytest.fixture
async def service(store: Store) -> AsyncIterator[TableService]:
    """The app's table service on a clock the test moves (the days open and close by it)."""
    started = TableService(store, ai_delay=0.0, heal_every=None, clock=ManualClock(NOON), daily_secret="web secret")
    await started.start()
    yield started
    await started.close()


async def hand(client: Client, init_data: str, table_id: str) -> tuple[int, list[str]]:
    """The caller's seat and hand at a table, as the page reads them."""
    view = await (await client.get(f"/api/tables/{table_id}", headers=tma(init_data))).json()
    return view["you"], view["state"]["hand"]


async def test_daily_api_two_people_same_cards_once_each_standings_after_finishing_seed_after_the_close(
    client: Client, service: TableService
) -> None:
    ann, ann_id = await local_signin(client, "Ann")
    bob, bob_id = await local_signin(client, "Bob")
    listed = await (await client.get("/api/daily", headers=tma(ann))).json()
    [coins] = [g for g in listed["games"] if g["game"] == "coins"]
    assert coins["status"] == {"state": "none"} and "seed" not in coins and listed["day"] == DAY
    published = coins["seed_hash"]

    started = {}
    for who in (ann, bob):
        resp = await client.post("/api/daily/coins", headers=tma(who))
        assert resp.status == 200, await resp.text()
        started[who] = (await resp.json())["table_id"]
    assert started[ann] != started[bob]
    assert await hand(client, ann, started[ann]) == await hand(client, bob, started[bob])  # same cards, same seat
    again = await (await client.post("/api/daily/coins", headers=tma(ann))).json()
    assert again["table_id"] == started[ann]  # starting again resumes the same table
    playing = await (await client.get("/api/daily", headers=tma(ann))).json()
    assert playing["games"][0]["status"] == {"state": "playing", "table_id": started[ann]}

    early = await client.get("/api/daily/coins/standings", headers=tma(ann))
    assert early.status == 409 and (await early.json())["code"] == "daily_not_finished"

    first_cards = (await hand(client, ann, started[ann]))[1]
    await play_out(service, started[ann])
    await service.daily.wait_settled()
    ann_sees = await client.get("/api/daily/coins/standings", headers=tma(ann))
    assert ann_sees.status == 200
    assert [r["user_id"] for r in (await ann_sees.json())["standings"]] == [ann_id]
    bob_early = await client.get("/api/daily/coins/standings", headers=tma(bob))
    assert bob_early.status == 409  # Bob has not finished: no peeking at Ann's result
    await play_out(service, started[bob])
    await service.daily.wait_settled()

    for who, me in ((ann, ann_id), (bob, bob_id)):
        refused = await client.post("/api/daily/coins", headers=tma(who))
        body = await refused.json()
        assert refused.status == 409 and body["code"] == "daily_done" and "today" in body["message"]
        board = await (await client.get("/api/daily/coins/standings", headers=tma(who))).json()
        rows = board["standings"]
        assert rows[0]["user_id"] == me and {r["user_id"] for r in rows} == {ann_id, bob_id}
        assert board["seed"] is None
        # the same cards, the same plays (each person's first legal card) and the day's AI deciding alike: a tie,
        # and a tie is 100 % of the field each
        assert [r["percent"] for r in rows] == [100, 100]
        assert board["line"] == f"Cardroom · Coins · {DAY} · {rows[0]['percent']}% · 🔥1"
    status = await (await client.get("/api/daily", headers=tma(bob))).json()
    assert status["games"][0]["status"]["state"] == "finished" and status["games"][0]["status"]["of"] == 2

    not_yet = await client.get(f"/api/daily/coins/standings?date={today() + timedelta(days=1)}", headers=tma(ann))
    assert not_yet.status == 409 and (await not_yet.json())["code"] == "daily_not_closed"
    bad = await client.get("/api/daily/coins/standings?date=02.12.2026", headers=tma(ann))
    assert bad.status == 400 and "2026-12-02" in (await bad.json())["message"]

    sealed = await client.get(f"/api/replay/{started[ann]}", headers=tma(bob))
    assert sealed.status == 404  # no replay of today's deal while it is open, even after finishing
    mine = await (await client.get("/api/daily/history", headers=tma(ann))).json()
    assert mine["streak"] == 1 and mine["best"] == {"coins": 100}
    assert [(d["day"], d["game"], d["of"], d["table_id"]) for d in mine["days"]] == [(DAY, "coins", 2, None)]

    clock = service.clock
    assert isinstance(clock, ManualClock)
    clock.now = NOON + 12 * 3600  # the day closes
    closed = await (await client.get(f"/api/daily/coins/standings?date={DAY}", headers=tma(ann))).json()
    seed = closed["seed"]
    assert closed["closed"] and hashlib.sha256(seed.encode()).hexdigest() == published
    assert {r["user_id"]: r["table_id"] for r in closed["standings"]} == {ann_id: started[ann], bob_id: started[bob]}
    replay = await client.get(f"/api/replay/{started[ann]}", headers=tma(bob))
    assert replay.status == 200 and (await replay.json())["seed"] == seed  # the field's deals, replayable now
    coins_game = games.get("coins")
    dealt = coins_game.new_game(coins_game.parse_options({}), 3, seed)
    assert coins_game.view(dealt, 0)["hand"] == first_cards  # the revealed seed re-deals the same cards


async def test_daily_api_refuses_an_unknown_game_and_a_caller_not_signed_in(client: Client) -> None:
    ann, _ = await local_signin(client, "Ann")
    unknown = await client.post("/api/daily/poker", headers=tma(ann))
    assert unknown.status == 400 and (await unknown.json())["code"] == "unknown_game"
    anonymous = await client.get("/api/daily")
    assert anonymous.status == 401
    for group in ("abc", "-²", "-١٢", "-" + "9" * 40):  # digits that are not ASCII, and too many of them
        not_a_group = await client.get("/api/daily/coins/standings", params={"group": group}, headers=tma(ann))
        assert not_a_group.status == 400 and (await not_a_group.json())["code"] == "bad_request", group
    outsider = await client.get("/api/daily/coins/standings?group=-100", headers=tma(ann))
    assert outsider.status == 409 and (await outsider.json())["code"] == "daily_not_finished"


async def test_a_deal_of_the_day_table_is_seen_before_the_close_only_by_its_player_and_those_who_finished_it(
    client: Client, service: TableService
) -> None:
    ann, _ = await local_signin(client, "Ann")
    bob, _ = await local_signin(client, "Bob")
    cat, _ = await local_signin(client, "Cat")
    table_id = (await (await client.post("/api/daily/coins", headers=tma(ann))).json())["table_id"]
    assert (await client.get(f"/api/tables/{table_id}", headers=tma(ann))).status == 200  # her own
    peek = await client.get(f"/api/tables/{table_id}", headers=tma(bob))
    assert peek.status == 409 and (await peek.json())["code"] == "daily_not_finished"  # her cards are his today
    peer = Peer(await client.ws_connect(f"/ws/{table_id}"))
    await peer.send({"type": "hello", "init_data": bob, "last_seq": None})
    refused = await peer.receive()
    assert (refused["type"], refused["code"]) == ("error", "daily_not_finished"), refused
    assert "Coins" in refused["message"]

    bobs = (await (await client.post("/api/daily/coins", headers=tma(bob))).json())["table_id"]
    await play_out(service, bobs)
    await service.daily.wait_settled()
    watched = await client.get(f"/api/tables/{table_id}", headers=tma(bob))  # he has played the deal: he may watch
    assert watched.status == 200 and (await watched.json())["you"] is None
    assert (await client.get(f"/api/tables/{table_id}", headers=tma(cat))).status == 409

    clock = service.clock
    assert isinstance(clock, ManualClock)
    clock.now = NOON + 12 * 3600  # the day closes: everyone may look
    assert (await client.get(f"/api/tables/{table_id}", headers=tma(cat))).status == 200
