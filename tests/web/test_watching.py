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


async def test_a_spectators_updates_carry_no_hand_and_no_private_event_while_the_players_move(
    bot_client: Client, service: TableService
) -> None:
    # Kings in the Corner: every turn ends with a draw, an event private to the drawer (its cards), a count to the rest
    # a fixed deal: a random one may let the AI go out on its first turn, leaving no turns to watch
    info = await service.create_table("kings_corner", ANN, "Ann", seed="spectator watches four turns")
    await service.add_ai(info.id, ANN)
    await service.start_game(info.id, ANN)
    await service.autoplay.idle()
    ann, _ = await connect(bot_client, info.id, signed(ANN, "Ann"))
    dan, _ = await connect(bot_client, info.id, signed(DAN, "Dan"))
    for _ in range(4):  # Ann ends her turn (drawing), the AI plays its own
        await service.autoplay.idle()
        view = await service.view(info.id, ANN)
        if view["state"]["over"]:
            break
        legal = view["state"]["legal"]
        action = next((a for a in legal if a["type"] == "end_turn"), legal[0])
        await service.act(info.id, ANN, action, view["seq"])
    await service.autoplay.idle()
    watched = [f for f in await _drain(dan) if f["type"] == "update"]
    played = [f for f in await _drain(ann) if f["type"] == "update"]
    assert watched and [f["seq"] for f in watched] == [f["seq"] for f in played]
    mine = [e for f in played for e in f["events"] if e["type"] == "drew" and e["seat"] == 0]
    assert mine and all("cards" in e for e in mine)  # the draws were private, so the check below means something
    for frame, seen in zip(watched, played, strict=True):
        state = frame["view"]["state"]
        assert "hand" not in state and "legal" not in state
        for event, hers in zip(frame["events"], seen["events"], strict=True):
            if event != hers:  # only Ann's own draws differ: she sees her cards, the spectator their count
                assert (hers["type"], hers["seat"], "cards" in hers) == ("drew", 0, True)
            assert event["type"] not in ("drew", "dealt") or "cards" not in event, event
    shadows = [e for f in watched for e in f["events"] if e["type"] == "drew"]
    assert shadows and all(set(e) == {"type", "seat", "count", "stock"} for e in shadows)
    await dan.close()
    await ann.close()


async def _drain(peer: Peer) -> list[Frame]:
    """Every frame that arrives until the socket is quiet for a moment."""
    frames: list[Frame] = []
    while True:
        try:
            frames.append(await peer.receive(0.3))
        except TimeoutError:
            return frames
