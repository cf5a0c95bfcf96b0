"""Spectators: anyone signed in may open a running table without a seat, and the table says how many watch."""

from __future__ import annotations

from engine.service.tables import TableService
from tests.web.conftest import Client, signed
from tests.web.sockets import Frame, Peer, connect

ANN, DAN, EVE = 8_800_001, 8_800_002, 8_800_003


async def test_spectators_see_no_hand_and_the_players_see_how_many_watch(
    bot_client: Client, service: TableService
) -> None:
    info = await service.create_table("coins", ANN, "Ann")
    await service.add_ai(info.id, ANN)
    await service.add_ai(info.id, ANN)
    await service.start_game(info.id, ANN)
    await service.autoplay.idle()
    ann, welcome = await connect(bot_client, info.id, signed(ANN, "Ann"))
    assert (welcome["you"], welcome["watching"]) == (0, 0) and welcome["view"]["state"]["hand"]

    dan, seen = await connect(bot_client, info.id, signed(DAN, "Dan"))
    assert (seen["you"], seen["watching"]) == (None, 1)
    assert "hand" not in seen["view"]["state"] and "legal" not in seen["view"]["state"]
    assert await ann.until(lambda f: f["type"] == "watching") == {"type": "watching", "watching": 1}

    again, twice = await connect(bot_client, info.id, signed(DAN, "Dan"))  # a second tab of the same person
    assert twice["watching"] == 1
    eve, _ = await connect(bot_client, info.id, signed(EVE, "Eve"))
    assert (await ann.until(lambda f: f["type"] == "watching"))["watching"] == 2

    view = await service.view(info.id, ANN)
    await service.act(info.id, ANN, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
    moved = await ann.until(lambda f: f["type"] == "update")
    assert moved["watching"] == 2

    for peer in (eve, again, dan):
        await peer.close()
    alone = await ann.until(lambda f: f["type"] == "watching" and f["watching"] == 0)
    assert alone["watching"] == 0
    frames = await _drain(ann)
    assert [f for f in frames if f["type"] == "watching"] == []  # and nobody counted back in after
    await ann.close()


async def _drain(peer: Peer) -> list[Frame]:
    """Every frame that arrives until the socket is quiet for a moment."""
    frames: list[Frame] = []
    while True:
        try:
            frames.append(await peer.receive(0.3))
        except TimeoutError:
            return frames
