"""Guided first games: one request opens a started table against AI players, dealt from the lesson's seed, and a
finished lesson goes on no record."""

from __future__ import annotations

from engine.core.rng import seed_hash
from engine.service.lessons import LESSONS
from engine.service.tables import TableService
from engine.store.database import Store
from tests.web.conftest import Client, local_signin, tma


async def test_lesson_opens_started_against_ai_players_with_its_seed(client: Client) -> None:
    init_data, _user_id = await local_signin(client, "Newcomer")
    for game, players in (("coins", 3), ("sergeant_major", 3), ("kings_corner", 2)):
        resp = await client.post("/api/lessons", json={"game": game}, headers=tma(init_data))
        assert resp.status == 200, await resp.text()
        table = await resp.json()
        assert table["status"] == "playing" and table["lesson"] is True
        assert table["size"] == players and table["seed"] is None
        assert table["seed_hash"] == seed_hash(LESSONS[game].seed)
        assert [s["is_ai"] for s in table["seats"]] == [False] + [True] * (players - 1)
    plain = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(init_data))).json()
    assert plain["lesson"] is False


async def test_lesson_for_an_unknown_game_is_refused(client: Client) -> None:
    init_data, _user_id = await local_signin(client, "Newcomer")
    resp = await client.post("/api/lessons", json={"game": "poker"}, headers=tma(init_data))
    assert resp.status == 400 and (await resp.json())["code"] == "unknown_game"
    resp = await client.post("/api/lessons", json={"game": 3}, headers=tma(init_data))
    assert resp.status == 400


async def test_finished_lesson_goes_on_no_record(service: TableService, store: Store) -> None:
    info = await service.start_lesson("coins", 501, "Newcomer")
    while True:
        await service.idle()
        snapshot = service.snapshot(info.id)
        assert snapshot is not None
        if snapshot.info.status == "finished":
            break
        view = snapshot.view(0)["state"]
        await service.act(info.id, 501, {"type": "play", "card": view["legal"][0]}, snapshot.info.seq)
    assert snapshot.info.result is not None and snapshot.info.lesson
    assert await store.records.history(501, 20, None) == []
