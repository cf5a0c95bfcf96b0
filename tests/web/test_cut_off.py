"""A process cut off from the others (its heartbeat unconfirmed) refuses a move at once, saying the table moves.

With process addresses, another process takes the tables of one that lost touch
(``engine.service.pg_peers``); a move sent to the cut-off one is answered at once with
``moving`` and the socket closed (1013), so the page reconnects and is sent to the table's
new owner, instead of waiting on a database that does not answer.
"""

from __future__ import annotations

from dataclasses import replace

from aiohttp import WSMsgType

from engine.config import Settings
from engine.service.tables import TableService
from tests.web.conftest import ClientFactory, local_signin, tma
from tests.web.sockets import connect


async def test_a_move_sent_to_a_process_out_of_touch_is_refused_as_moving_and_the_socket_closed(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(replace(settings, process_url="http://127.0.0.1:1"))
    ann, _ = await local_signin(client, "Ann")
    tid = (await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json())["id"]
    for op in ("add_ai", "add_ai", "start"):
        assert (await client.post(f"/api/tables/{tid}/{op}", headers=tma(ann))).status == 200
    peer, _ = await connect(client, tid, ann)
    await service.autoplay.idle()
    view = await peer.caught_up((await service.info(tid)).seq)
    service.peers.in_touch = lambda: False  # type: ignore[method-assign]  # its heartbeat went unconfirmed
    card = view["state"]["legal"][0]
    await peer.send({"type": "act", "ref": "m", "seq": view["seq"], "action": {"type": "play", "card": card}})
    refused = await peer.until(lambda f: f["type"] == "refused", wait=2)
    assert (refused["ref"], refused["code"]) == ("m", "moving") and "moving" in refused["message"]
    closing = await peer.ws.receive(timeout=2)
    assert closing.type is WSMsgType.CLOSE and closing.data == 1013
    assert (await service.info(tid)).seq == view["seq"]  # nothing applied
