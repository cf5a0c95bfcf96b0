"""A spectator whose link stalls while the game plays on catches up once it reads again, even after the game ended.

A real socket on loopback, with small kernel buffers on both ends so that a reader that
stops reading backs up into the server's own buffer within a few updates: the room skips
it (``webapp.rooms``), and must welcome it again as soon as it drains, not with the
table's next update: the game finishes while it is stalled, so there is none.
"""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

from engine.service.kinds import TableStatus
from engine.service.tables import TableService
from tests.waiting import until
from tests.web.conftest import Client, local_signin, tma
from tests.web.raw_socket import RawSocket
from webapp.keys import ROOMS

SMALL = 4096  # bytes of kernel buffer each way: the stall reaches the server's buffer within a few updates
CAUGHT_UP_WITHIN = 2.0  # seconds from reading again to the stored game's last seq (the bound)


async def test_a_spectator_that_stopped_reading_reaches_the_finished_games_last_seq_once_it_reads_again(
    client: Client, service: TableService
) -> None:
    ann, ann_id = await local_signin(client, "Ann")
    bob, _ = await local_signin(client, "Bob")
    tid = (await (await client.post("/api/tables", json={"game": "coins", "options": {"target_score": 10}},
                                    headers=tma(ann))).json())["id"]
    for _ in range(2):
        assert (await client.post(f"/api/tables/{tid}/add_ai", headers=tma(ann))).status == 200
    peer = await RawSocket.connect(client.make_url(f"/ws/{tid}"), SMALL)
    await peer.send_json({"type": "hello", "init_data": bob, "last_seq": None})
    welcome = await asyncio.wait_for(peer.receive_json(), 5)
    assert (welcome["type"], welcome["you"]) == ("welcome", None)
    room = client.app[ROOMS]._rooms[tid]  # the server's end of this one socket
    (transport,) = room.members.values()
    transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SMALL)
    (member,) = room.members

    # Bob reads nothing from here on; Ann starts and leaves, and the AI players finish the game
    assert (await client.post(f"/api/tables/{tid}/start", headers=tma(ann))).status == 200
    assert (await client.post(f"/api/tables/{tid}/leave", headers=tma(ann))).status == 200
    lagged = False

    def finished() -> bool:
        nonlocal lagged
        lagged = lagged or member.lagging
        live = service.live(tid)
        return live is not None and live.row.status == TableStatus.FINISHED

    await until(finished, within=60)
    assert lagged, "the stalled reader was never skipped: the buffers were not filled"
    final = (await service.info(tid)).seq
    assert ann_id not in {s.user_id for s in (await service.info(tid)).seats}

    began = time.monotonic()  # Bob reads again
    frames: list[dict[str, Any]] = []
    view: dict[str, Any] = welcome["view"]
    async with asyncio.timeout(CAUGHT_UP_WITHIN):
        while view["seq"] != final or view["table"]["status"] != "finished":
            frames.append(await peer.receive_json())
            view = frames[-1].get("view", view)
    assert "welcome" in {f["type"] for f in frames}  # the whole view again, at the last seq
    print(f"stalled spectator caught up to seq {final} in {time.monotonic() - began:.2f} s")
    peer.close()
