"""A whole small Coins flow over the table WebSocket: lobby, start, people and an AI playing."""

from __future__ import annotations

from engine.service.tables import TableService
from tests.web.conftest import Client, local_signin, tma
from tests.web.sockets import Frame, connect


async def test_table_flow_lobby_start_and_moves_over_websocket(client: Client, service: TableService) -> None:
    ann, ann_id = await local_signin(client, "Ann")
    bob, _ = await local_signin(client, "Bob")
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json()
    tid = table["id"]
    ann_ws, ann_welcome = await connect(client, tid, ann)
    bob_ws, bob_welcome = await connect(client, tid, bob)
    assert (ann_welcome["you"], bob_welcome["you"]) == (0, None)
    assert ann_welcome["view"]["table"]["status"] == "lobby" and ann_welcome["view"]["state"] is None

    await bob_ws.send({"type": "lobby", "ref": "j", "op": "join"})
    assert (await bob_ws.until(lambda f: f["type"] == "ack"))["ref"] == "j"
    seen = await ann_ws.until(lambda f: f["type"] == "update" and f["kind"] == "lobby")
    assert seen["view"]["table"]["seats"][1]["name"] == "Bob"

    await ann_ws.send({"type": "lobby", "ref": "ai", "op": "add_ai"})
    await ann_ws.send({"type": "lobby", "ref": "go", "op": "start"})
    assert (await ann_ws.until(lambda f: f["type"] == "ack" and f["ref"] == "go"))["seq"] == 0
    started = await bob_ws.until(lambda f: f["type"] == "update" and f["kind"] == "started")
    assert started["view"]["you"] == 1
    assert started["view"]["table"]["seats"][2]["is_ai"] is True
    dealt = [e for e in started["events"] if e["type"] == "dealt"]
    assert [len(e["cards"]) for e in dealt if e["seat"] == 1] == [16]
    assert all("cards" not in e and e["count"] == 16 for e in dealt if e["seat"] != 1)

    peers = {0: ann_ws, 1: bob_ws}
    for _ in range(6):
        await service.autoplay.idle()
        live = service.live(tid)
        assert live is not None
        seq = live.seq
        views = {seat: await peer.caught_up(seq) for seat, peer in peers.items()}
        (seat,) = live.to_act()
        assert seat in peers, "the AI seat moves by itself"
        card = views[seat]["state"]["legal"][0]
        assert card in views[seat]["state"]["hand"]
        await peers[seat].send({"type": "act", "ref": f"m{seq}", "seq": seq, "action": {"type": "play", "card": card}})
        ack = await peers[seat].until(lambda f: f["type"] in ("ack", "refused") or "ref" in f)
        assert (ack["type"], ack["ref"], ack["seq"]) == ("update", f"m{seq}", seq + 1)  # the mover's update is the ack
        assert card not in ack["view"]["state"]["hand"]

        def next_update(f: Frame, s: int = seq) -> bool:
            return bool(f["type"] == "update" and f["seq"] == s + 1)

        moved = await peers[1 - seat].until(next_update)
        assert {"type": "played", "seat": seat, "card": card} in moved["events"] and "ref" not in moved
        assert card not in moved["view"]["state"]["hand"]

    ai_moves = [a for a in await service.store.tables.load_actions(tid) if a.seat == 2]
    assert len(ai_moves) >= 2 and all(a.auto for a in ai_moves)
    assert (await service.view(tid, ann_id))["seq"] >= 6 + len(ai_moves)
    for peer in peers.values():
        await peer.close()


async def test_ping_is_answered_with_pong_echoing_t(client: Client) -> None:
    ann, _ = await local_signin(client, "Ann")
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json()
    peer, _ = await connect(client, table["id"], ann)
    await peer.send({"type": "ping", "t": 1234})
    assert await peer.receive() == {"type": "pong", "t": 1234}
    await peer.close()


async def test_opening_the_table_brings_a_seat_back_from_autopilot(client: Client, service: TableService) -> None:
    ann, ann_id = await local_signin(client, "Ann")
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json()
    await service.start_game(table["id"], ann_id)
    await service.autoplay.idle()
    live = service.live(table["id"])
    assert live is not None
    live.seat_row(0).autopilot, live.seat_row(0).missed = True, 2  # as after two expired turns
    peer, welcome = await connect(client, table["id"], ann)
    assert welcome["view"]["table"]["seats"][0]["autopilot"] is False
    assert not live.seat_row(0).autopilot and live.seat_row(0).missed == 0
    stored = await service.store.tables.load_table(table["id"])
    assert stored is not None and not stored.seats[0].autopilot
    await peer.close()
