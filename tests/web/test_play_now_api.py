"""POST /api/tables with ``"play_now": true``: one request opens a game already dealt against AI players."""

from __future__ import annotations

from typing import Any

import pytest

from engine import games
from engine.core.errors import BadOptions, RefusalCode
from tests.web.conftest import Client, local_signin, tma


async def test_play_now_request_answers_a_dealt_table_with_ai_players(client: Client) -> None:
    init_data, _user_id = await local_signin(client, "Ann")
    body = {"game": "sergeant_major", "options": {"variant": "nine_five_two"}, "play_now": True}
    resp = await client.post("/api/tables", json=body, headers=tma(init_data))
    assert resp.status == 200, await resp.text()
    table = await resp.json()
    # sergeant_major/RULES.md §1: three players; the caller sits first, the two others are AI players
    assert table["status"] == "playing" and table["options"]["variant"] == "nine_five_two"
    assert [s["is_ai"] for s in table["seats"]] == [False, True, True] and table["host_seat"] == 0
    mine = await (await client.get("/api/me", headers=tma(init_data))).json()
    assert [(t["id"], t["status"]) for t in mine["tables"]] == [(table["id"], "playing")]


async def test_play_now_false_opens_a_lobby_as_before(client: Client) -> None:
    init_data, _user_id = await local_signin(client, "Ann")
    resp = await client.post("/api/tables", json={"game": "coins", "play_now": False}, headers=tma(init_data))
    assert resp.status == 200 and (await resp.json())["status"] == "lobby"


@pytest.mark.parametrize("play_now", ["yes", 1, None, {}])
async def test_play_now_that_is_not_true_or_false_is_a_bad_request(client: Client, play_now: object) -> None:
    init_data, _user_id = await local_signin(client, "Ann")
    resp = await client.post("/api/tables", json={"game": "coins", "play_now": play_now}, headers=tma(init_data))
    assert resp.status == 400 and (await resp.json())["code"] == "bad_request"
    mine = await (await client.get("/api/me", headers=tma(init_data))).json()
    assert mine["tables"] == []


async def test_play_now_whose_deal_fails_leaves_no_lobby_behind(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_deal(*_args: Any) -> Any:
        raise BadOptions(RefusalCode.BAD_OPTIONS)

    monkeypatch.setattr(type(games.get("coins")), "new_game", no_deal)
    init_data, _user_id = await local_signin(client, "Ann")
    resp = await client.post("/api/tables", json={"game": "coins", "play_now": True}, headers=tma(init_data))
    assert resp.status == 400 and (await resp.json())["code"] == "bad_options"
    mine = await (await client.get("/api/me", headers=tma(init_data))).json()
    assert mine["tables"] == []


async def test_play_now_of_kings_in_the_corner_seats_two_unless_chosen_otherwise(client: Client) -> None:
    """A first game where the player acts every other turn: four seats gave a player a turn in a long while."""
    init_data, _user_id = await local_signin(client, "Ann")
    config = await (await client.get("/api/config", headers=tma(init_data))).json()
    [kings] = [g for g in config["games"] if g["id"] == "kings_corner"]
    assert (kings["min_players"], kings["default_players"], kings["max_players"]) == (2, 2, 4)
    plain = await client.post("/api/tables", json={"game": "kings_corner", "play_now": True}, headers=tma(init_data))
    assert [s["is_ai"] for s in (await plain.json())["seats"]] == [False, True]
    body = {"game": "kings_corner", "options": {"players": 4}, "play_now": True}
    chosen = await client.post("/api/tables", json=body, headers=tma(init_data))
    assert [s["is_ai"] for s in (await chosen.json())["seats"]] == [False, True, True, True]
