"""POST /api/tables/{id}/rematch: one rematch per finished table, every player of it seated there, nobody else."""

from __future__ import annotations

import asyncio
from typing import Any

from engine.config import Settings
from engine.service.tables import TableService
from tests.service.helpers import ANN, BOB, CAT, play_out
from tests.web.conftest import Client, ClientFactory, tma
from tests.web.sockets import connect

DAN = 104


def headers(client: Client, user_id: int, name: str) -> dict[str, str]:
    from webapp.keys import VERIFIER

    return tma(client.app[VERIFIER].sign({"id": user_id, "first_name": name}))


async def finished_with_friends(service: TableService) -> str:
    """A Coins game of Ann, Bob and an AI player, played to its end."""
    info = await service.create_table("coins", ANN, "Ann", {"target_score": 1, "timer": "relaxed"})
    await service.join(info.id, BOB, "Bob")
    await service.start_game(info.id, ANN)
    await play_out(service, info.id)
    return info.id


async def rematch(client: Client, table_id: str, user_id: int, name: str) -> tuple[int, dict[str, Any]]:
    resp = await client.post(f"/api/tables/{table_id}/rematch", headers=headers(client, user_id, name))
    return resp.status, await resp.json()


async def test_rematch_is_one_table_however_often_it_is_pressed(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    table_id = await finished_with_friends(service)

    answers = [await rematch(client, table_id, ANN, "Ann") for _ in range(3)]
    assert [status for status, _ in answers] == [200, 200, 200]
    ids = {body["id"] for _, body in answers}
    assert len(ids) == 1
    [fresh_id] = ids
    assert fresh_id != table_id
    assert await service.store.chats.rematch_of(table_id) == fresh_id
    assert [t.id for t in await service.tables_of(ANN)] == [fresh_id]  # no second lobby was opened

    fresh = answers[0][1]
    assert fresh["status"] == "lobby" and fresh["you"] == 0 and fresh["host_seat"] == 0
    assert fresh["options"]["target_score"] == 1 and fresh["timer"] == "relaxed" and fresh["size"] == 3
    assert fresh["seats"][1]["handle"] is None  # Bob is invited, not seated behind his back


async def test_rematch_pressed_by_two_players_seats_both_at_one_table(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    table_id = await finished_with_friends(service)

    (ann_status, ann), (bob_status, bob) = await asyncio.gather(
        rematch(client, table_id, ANN, "Ann"), rematch(client, table_id, BOB, "Bob"))
    assert (ann_status, bob_status) == (200, 200)
    assert ann["id"] == bob["id"]
    seated = (await service.info(str(ann["id"]))).seats
    assert sorted(s.user_id for s in seated if s.user_id is not None) == [ANN, BOB]
    assert {ann["you"], bob["you"]} == {0, 1}

    old = await client.get(f"/api/tables/{table_id}", headers=headers(client, CAT, "Cat"))
    assert (await old.json())["table"]["rematch"] == ann["id"]  # whoever looks at the old table sees where it went


async def test_players_watching_the_finished_table_are_told_of_the_rematch(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    table_id = await finished_with_friends(service)
    from webapp.keys import VERIFIER

    bob_socket, welcome = await connect(client, table_id, client.app[VERIFIER].sign({"id": BOB, "first_name": "Bob"}))
    assert welcome["view"]["table"]["rematch"] is None

    status, fresh = await rematch(client, table_id, ANN, "Ann")
    assert status == 200
    frame = await bob_socket.until(lambda f: f.get("kind") == "rematch")
    assert frame["view"]["table"]["rematch"] == fresh["id"] and frame["view"]["you"] == 1
    await bob_socket.close()


async def test_rematch_is_refused_to_strangers_before_the_end_and_for_unknown_tables(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    table_id = await finished_with_friends(service)

    status, body = await rematch(client, table_id, DAN, "Dan")
    assert (status, body["code"]) == (403, "not_seated")
    assert body["message"] == "You do not have a seat at this table."
    assert await service.store.chats.rematch_of(table_id) is None  # the refusal opened nothing

    playing = await service.create_table("coins", ANN, "Ann")
    await service.start_game(playing.id, ANN)
    status, body = await rematch(client, playing.id, ANN, "Ann")
    assert (status, body["code"]) == (409, "not_finished")
    assert body["message"] == "A rematch can be opened once this game is over."

    status, body = await rematch(client, "no-such-table", ANN, "Ann")
    assert (status, body["code"]) == (404, "table_not_found")

    unsigned = await client.post(f"/api/tables/{table_id}/rematch")
    assert unsigned.status == 401
