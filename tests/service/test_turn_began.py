"""The seq at which each seat's turn began, as the service publishes it in every TableInfo."""

from __future__ import annotations

from typing import Any

from engine.service.bus import Update
from engine.service.live import TableInfo
from engine.service.tables import TableService
from tests.service.helpers import ANN, BOB, CAT, human_move


def _not_to_act_is_none(info: TableInfo) -> None:
    assert len(info.turn_began) == info.size
    for seat in range(info.size):
        assert (info.turn_began[seat] is None) == (seat not in info.to_act), (seat, info)


async def test_turn_began_is_the_seq_of_every_move_in_a_game_where_each_action_is_a_turn(
        service: TableService) -> None:
    info = await service.create_table("coins", ANN, "Ann", {"target_score": 3}, seed="turns 1")
    assert info.turn_began == (None, None, None)  # a lobby: nobody is to act
    await service.join(info.id, BOB, "Bob")
    await service.join(info.id, CAT, "Cat")
    updates = service.subscribe(info.id)
    started = await service.start_game(info.id, ANN)
    assert updates.queue.get_nowait().kind == "started"
    (first,) = started.to_act
    assert started.turn_began[first] == 0
    _not_to_act_is_none(started)
    seen: list[Update] = []
    again = 0  # moves after which the mover is to act again (the trick's winner leads the next)
    last_to_act: tuple[int, ...] = started.to_act
    while (await service.info(info.id)).status == "playing":
        user, action, seq = await human_move(service, info.id)
        await service.act(info.id, user, action, seq)
        update = updates.queue.get_nowait()
        seen.append(update)
        now = update.info
        _not_to_act_is_none(now)
        for seat in now.to_act:  # every action is a turn: whoever is to act began at this move
            assert now.turn_began[seat] == now.seq
        again += now.to_act == last_to_act
        last_to_act = now.to_act
    updates.close()
    assert seen[-1].kind == "finished" and seen[-1].info.turn_began == (None, None, None)
    assert again > 0, "a seat acted twice in a row at least once (so the rule was exercised)"


async def test_a_seat_that_keeps_acting_keeps_its_turn_in_a_game_of_many_action_turns(service: TableService) -> None:
    info = await service.create_table("kings_corner", ANN, "Ann", {"players": 2}, seed="turns 2")
    await service.join(info.id, BOB, "Bob")
    started = await service.start_game(info.id, ANN)
    (seat,) = started.to_act
    assert started.turn_began[seat] == 0 and started.turn_began[1 - seat] is None
    user = started.seats[seat].user_id
    assert user is not None
    plays = 0
    while True:
        view: dict[str, Any] = await service.view(info.id, user)
        legal = view["state"]["legal"]
        if plays >= 2 and {"type": "end_turn"} in legal:
            break
        await service.act(info.id, user, next(a for a in legal if a["type"] != "end_turn"), view["seq"])
        plays += 1
        now = await service.info(info.id)
        assert now.to_act == (seat,)
        assert now.turn_began == started.turn_began, "a seat acting again within its turn keeps the turn's start"
    await service.act(info.id, user, {"type": "end_turn"}, now.seq)
    after = await service.info(info.id)
    assert after.to_act == (1 - seat,)
    assert after.turn_began[1 - seat] == after.seq == plays + 1 and after.turn_began[seat] is None
