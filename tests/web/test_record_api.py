"""The record over HTTP: history and replays for the people who played, leaderboards only for the group's players."""

from __future__ import annotations

import json

from engine.config import Settings
from engine.i18n import gettext_for
from engine.service.tables import TableService
from tests.service.helpers import ANN, BOB, CAT, play_out
from tests.web.conftest import Client, ClientFactory, tma

DAN = 104
GROUP = -500


def headers(client: Client, user_id: int, name: str) -> dict[str, str]:
    from webapp.keys import VERIFIER

    return tma(client.app[VERIFIER].sign({"id": user_id, "first_name": name}))


async def finished(service: TableService) -> str:
    info = await service.create_table("coins", ANN, "Ann", {"target_score": 1}, chat_id=GROUP)
    await service.join(info.id, BOB, "Bob")
    await service.join(info.id, CAT, "Cat")
    await service.start_game(info.id, ANN)
    await play_out(service, info.id)
    return info.id


async def test_history_leaderboard_and_replay_over_http(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    table_id = await finished(service)
    ann, dan = headers(client, ANN, "Ann"), headers(client, DAN, "Dan")

    history = await (await client.get("/api/history", headers=ann)).json()
    assert [g["table_id"] for g in history["games"]] == [table_id] and history["next"] is None
    assert [s["you"] for s in history["games"][0]["seats"]] == [True, False, False]

    board = await client.get(f"/api/leaderboard?chat={GROUP}&game=coins", headers=ann)
    players = (await board.json())["players"]
    assert board.status == 200 and sorted(p["name"] for p in players) == ["Ann", "Bob", "Cat"]
    assert [p["you"] for p in players].count(True) == 1
    text = await board.text()
    assert str(ANN) not in text and str(BOB) not in text and str(GROUP) not in text  # no Telegram ids leave

    outsider = await client.get(f"/api/leaderboard?chat={GROUP}&game=coins", headers=dan)
    assert (outsider.status, (await outsider.json())["code"]) == (403, "not_in_group")
    bad = await client.get("/api/leaderboard?chat=abc", headers=ann)
    assert (bad.status, (await bad.json())["code"]) == (400, "bad_request")

    shared = await (await client.get(f"/api/replay/{table_id}", headers=dan)).json()  # a shared link opens it
    assert shared["steps"][0]["seq"] == 0 and len(shared["steps"][0]["views"]) == 3
    assert json.dumps(shared).count('"hand"') >= 3 * len(shared["steps"])


async def test_a_game_in_play_cannot_be_replayed(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    info = await service.create_table("coins", ANN, "Ann")
    await service.start_game(info.id, ANN)
    peek = await client.get(f"/api/replay/{info.id}", headers=headers(client, BOB, "Bob"))
    assert (peek.status, (await peek.json())["code"]) == (404, "table_not_found")


async def test_groups_name_each_group_by_an_opaque_handle_that_opens_its_leaderboard(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    await finished(service)
    solo = await service.create_table("coins", ANN, "Ann", {"target_score": 1}, chat_id=ANN)  # a private chat
    await service.start_game(solo.id, ANN)
    await play_out(service, solo.id)
    ann, bob, dan = headers(client, ANN, "Ann"), headers(client, BOB, "Bob"), headers(client, DAN, "Dan")

    answer = await client.get("/api/groups", headers=ann)
    text = await answer.text()
    assert str(GROUP) not in text and '"chat' not in text and '"user' not in text  # no chat or user ids
    groups = json.loads(text)["groups"]
    assert [(g["label"], g["number"], g["games"]) for g in groups] == [("Group 1", 1, {"coins": 1})]
    assert groups[0]["people"] == ["Bob", "Cat"]
    handle = groups[0]["group"]
    bobs = (await (await client.get("/api/groups", headers=bob)).json())["groups"]
    assert [g["group"] for g in bobs] == [handle]  # the same group has the same handle for each of its players

    board = await (await client.get(f"/api/leaderboard?group={handle}&game=coins", headers=bob)).json()
    assert sorted(p["name"] for p in board["players"]) == ["Ann", "Bob", "Cat"]
    outsider = await client.get(f"/api/leaderboard?group={handle}&game=coins", headers=dan)
    assert (outsider.status, (await outsider.json())["code"]) == (403, "not_in_group")
    assert (await (await client.get("/api/groups", headers=dan)).json()) == {"groups": []}


async def test_group_labels_follow_the_readers_language(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    await finished(service)
    answer = await client.get("/api/groups", headers=headers(client, ANN, "Ann"), cookies={"cardroom_lang": "ru"})
    label = (await answer.json())["groups"][0]["label"]
    assert label == "Группа 1"


async def test_stats_give_a_persons_own_figures_per_game_wherever_they_played(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    table_id = await finished(service)
    alone = await service.create_table("coins", ANN, "Ann", {"target_score": 1})  # no chat: a local game
    await service.start_game(alone.id, ANN)
    await play_out(service, alone.id)
    history = await (await client.get("/api/history", headers=headers(client, ANN, "Ann"))).json()
    places = [next(s["placement"] for s in g["seats"] if s["you"]) for g in history["games"]]

    stats = await (await client.get("/api/stats", headers=headers(client, ANN, "Ann"))).json()
    [coins] = stats["games"]
    assert (coins["game"], coins["games"], coins["wins"]) == ("coins", 2, places.count(1))
    assert coins["recent"] == places and isinstance(coins["rating"], int) and coins["provisional"] is True
    assert table_id in [g["table_id"] for g in history["games"]]
    nobody = await (await client.get("/api/stats", headers=headers(client, DAN, "Dan"))).json()
    assert nobody == {"games": [], "provisional_games": 10}


async def test_played_with_is_the_leaderboard_of_local_play(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    info = await service.create_table("coins", ANN, "Ann", {"target_score": 1})  # no group: local play
    await service.join(info.id, BOB, "Bob")
    await service.start_game(info.id, ANN)
    await play_out(service, info.id)
    ann, dan = headers(client, ANN, "Ann"), headers(client, DAN, "Dan")
    answer = await client.get("/api/played-with?game=coins", headers=ann)
    board = await answer.json()
    assert answer.status == 200 and board["game"] == "coins"
    assert sorted(p["name"] for p in board["players"]) == ["Ann", "Bob"]
    assert [p["place"] for p in board["players"]] == [1, 2] and all(p["games"] == 1 for p in board["players"])
    assert [p["you"] for p in board["players"]] == [p["name"] == "Ann" for p in board["players"]]
    assert str(ANN) not in await answer.text() and str(BOB) not in await answer.text()  # no Telegram ids leave
    nobody = await (await client.get("/api/played-with?game=coins", headers=dan)).json()
    assert nobody["players"] == []
    unknown = await client.get("/api/played-with?game=chess", headers=ann)
    assert unknown.status == 400
    assert (await client.get("/api/played-with?game=coins")).status == 401


async def test_rating_changes_over_http_for_the_people_only_and_refused_in_the_readers_words(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    info = await service.create_table("coins", ANN, "Ann", {"target_score": 1}, chat_id=GROUP)
    await service.join(info.id, BOB, "Bob")
    await service.add_ai(info.id, ANN)
    await service.start_game(info.id, ANN)
    dan = headers(client, DAN, "Dan")
    playing = await client.get(f"/api/tables/{info.id}/ratings", headers=dan)
    assert (playing.status, await playing.json()) == (200, {"seats": []})  # nothing yet while it is played
    await play_out(service, info.id)

    answer = await client.get(f"/api/tables/{info.id}/ratings", headers=headers(client, ANN, "Ann"))
    seats = (await answer.json())["seats"]
    assert answer.status == 200 and [s["seat"] for s in seats] == [0, 1]  # the AI in seat 2 is never rated
    assert seats == await service.record.rating_changes(info.id)
    assert [s["before"] for s in seats] == [1500, 1500] and all(isinstance(s["after"], int) for s in seats)
    assert all(s["change"] == s["after"] - 1500 and s["provisional"] is True for s in seats)
    assert str(ANN) not in await answer.text() and str(BOB) not in await answer.text()  # seats, not ids

    nobody = await client.get(f"/api/tables/{info.id}/ratings")
    assert nobody.status == 401
    unknown = await client.get("/api/tables/nosuchtable/ratings", headers=dan, cookies={"cardroom_lang": "ru"})
    refusal = await unknown.json()
    assert (unknown.status, refusal["code"]) == (404, "table_not_found")
    assert refusal["message"] == gettext_for("ru")("There is no such table.") != "There is no such table."
