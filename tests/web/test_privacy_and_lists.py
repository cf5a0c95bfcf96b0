"""What others learn about a table (names and opaque handles, never Telegram ids); the open-table cap and list."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

from engine.config import Settings
from engine.service.tables import TableService
from tests.web.conftest import Client, ClientFactory, signed, tma
from tests.web.sockets import connect

HOST, GUEST, STRANGER, CHAT = 7_700_001, 7_700_002, 7_700_003, -1_009_876_543


def _leaks(text: str) -> list[str]:
    """The Telegram ids found in JSON text, and any field that names one."""
    found = [str(n) for n in (HOST, GUEST, CHAT) if str(n) in text]
    found += [key for key in ("user_id", "host_user_id", "chat_id") if f'"{key}"' in text]
    return found


async def test_table_json_names_no_telegram_ids_to_anyone(bot_client: Client, service: TableService) -> None:
    info = await service.create_table("coins", HOST, "Host", chat_id=CHAT)
    await service.join(info.id, GUEST, "Guest")
    host, guest, stranger = tma(signed(HOST, "Host")), tma(signed(GUEST, "Guest")), tma(signed(STRANGER, "Eve"))
    texts = [await (await bot_client.get(f"/api/tables/{info.id}", headers=who)).text()
             for who in (host, guest, stranger)]
    texts.append(json.dumps((await (await bot_client.get("/api/me", headers=guest)).json())["tables"]))
    texts.append(await (await bot_client.post(f"/api/tables/{info.id}/add_ai", headers=host)).text())
    peer, welcome = await connect(bot_client, info.id, signed(STRANGER, "Eve"))
    texts.append(json.dumps(welcome))
    await service.start_game(info.id, HOST)
    texts.append(json.dumps(await peer.until(lambda f: f["type"] == "update" and f["kind"] == "started")))
    await peer.close()
    for text in texts:
        assert _leaks(text) == [], text
    table = json.loads(texts[2])["table"]
    assert table["host_seat"] == 0
    handles = [s["handle"] for s in table["seats"]]
    assert handles[0] and handles[1] and handles[0] != handles[1] and handles[2] is None
    mine = json.loads(texts[1])
    assert mine["you"] == 1 and mine["table"]["seats"][1]["handle"] == handles[1]  # the same at every read
    assert [t["you"] for t in json.loads(texts[3])] == [1]  # the guest's own tables name the guest's own seat


async def test_new_table_json_has_a_host_seat_and_no_ids(bot_client: Client) -> None:
    resp = await bot_client.post("/api/tables", json={"game": "coins"}, headers=tma(signed(HOST, "Host")))
    text = await resp.text()
    assert _leaks(text) == [] and json.loads(text)["host_seat"] == 0


async def test_open_tables_per_user_are_capped(make_own_client: ClientFactory, bot_settings: Settings) -> None:
    client = await make_own_client(replace(bot_settings, max_open_tables_per_user=3))
    ann, bob = tma(signed(1, "Ann")), tma(signed(2, "Bob"))
    ids = []
    for _ in range(3):
        resp = await client.post("/api/tables", json={"game": "coins"}, headers=ann)
        assert resp.status == 200
        ids.append((await resp.json())["id"])
    refused = await client.post("/api/tables", json={"game": "coins"}, headers=ann)
    body = await refused.json()
    assert (refused.status, body["code"]) == (429, "too_many_tables") and "3" in body["message"]
    other = await (await client.post("/api/tables", json={"game": "coins"}, headers=bob)).json()
    joined = await client.post(f"/api/tables/{other['id']}/join", headers=ann)
    assert (joined.status, (await joined.json())["code"]) == (429, "too_many_tables")
    assert (await client.post(f"/api/tables/{ids[0]}/cancel", headers=ann)).status == 200
    assert (await client.post("/api/tables", json={"game": "coins"}, headers=ann)).status == 200


async def test_open_tables_are_capped_when_many_are_created_at_once(
    make_own_client: ClientFactory, bot_settings: Settings
) -> None:
    client = await make_own_client(replace(bot_settings, max_open_tables_per_user=3))
    ann = tma(signed(1, "Ann"))
    answers = await asyncio.gather(*(client.post("/api/tables", json={"game": "coins"}, headers=ann)
                                     for _ in range(8)))
    assert sorted(r.status for r in answers) == [200] * 3 + [429] * 5


async def test_me_lists_open_tables_a_page_at_a_time_newest_first(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    created = [(await service.create_table("coins", 5, "Ann")).id for _ in range(5)]
    init_data, _ = await _local(client, 5)
    ann = tma(init_data)
    seen: list[str] = []
    before = None
    for _ in range(4):
        query = "?limit=2" + (f"&before={before}" if before else "")
        page = await (await client.get("/api/me" + query, headers=ann)).json()
        assert len(page["tables"]) <= 2
        seen += [t["id"] for t in page["tables"]]
        before = page["next"]
        if before is None:
            break
    assert seen == created[::-1]
    bad = await client.get("/api/me?limit=5000", headers=ann)
    assert (bad.status, (await bad.json())["code"]) == (400, "bad_request")


async def _local(client: Client, user_id: int) -> tuple[str, int]:
    """Locally signed initData for a given user id (the process's own signer)."""
    from webapp.keys import VERIFIER

    verifier = client.app[VERIFIER]
    return verifier.sign({"id": user_id, "first_name": "Ann"}), user_id


async def test_listings_come_from_the_store_not_from_the_tables_in_memory(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    created = [(await service.create_table("coins", 7, "Ann")).id for _ in range(3)]
    service.max_loaded = 0
    await service.heal()  # idle tables are unloaded: memory holds none of them
    assert service.tables() == []
    init_data, _ = await _local(client, 7)
    ann = tma(init_data)
    listed = await (await client.get("/api/me?limit=2", headers=ann)).json()
    assert [t["id"] for t in listed["tables"]] == created[::-1][:2] and listed["next"] == created[1]
    rest = await (await client.get(f"/api/me?limit=2&before={listed['next']}", headers=ann)).json()
    assert [t["id"] for t in rest["tables"]] == created[:1] and rest["next"] is None


async def test_a_request_while_the_database_is_out_of_reach_gets_503_in_words(
    bot_client: Client, service: TableService, monkeypatch: Any
) -> None:
    async def out_of_reach(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionRefusedError(111, "Connect call failed")

    monkeypatch.setattr(service.store.tables, "table_ids_of_user", out_of_reach)
    resp = await bot_client.get("/api/me", headers={**tma(signed(7, language_code="ru"))})
    body = await resp.json()
    assert (resp.status, body["code"]) == (503, "unavailable")
    assert body["message"] == "Игра сейчас не может связаться со своей базой данных; попробуй ещё раз через минуту."
    monkeypatch.undo()
    assert (await bot_client.get("/api/me", headers=tma(signed(7)))).status == 200
