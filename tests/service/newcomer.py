"""A newcomer's first game, finished last behind two AI players: the case the rating people see must read right for."""

from __future__ import annotations

from engine.service.tables import TableService
from tests.service.helpers import play_out


async def first_game_lost(service: TableService, first_uid: int, chat_id: int | None = None,
                          name: str = "Newcomer") -> tuple[str, int]:
    """The table and the newcomer (``first_uid`` or one of the next 59, each new) of a first Coins game to one point
    against two AI players (easy: the table's default level) that the newcomer finished last (level
    with the other last one, maybe: one point ends a game of Coins, so the two who did not score it share second)."""
    for n in range(60):
        uid = first_uid + n
        info = await service.create_table("coins", uid, name, {"target_score": 1}, chat_id=chat_id,
                                          seed=f"{n:04x}" * 16)
        await service.add_ai(info.id, uid)
        await service.add_ai(info.id, uid)
        await service.start_game(info.id, uid)
        await play_out(service, info.id)
        result = (await service.info(info.id)).result
        assert result is not None
        places = result["placements"]
        if places[0] == max(places) > min(places):
            return info.id, uid
    raise AssertionError("no seed of 60 leaves the newcomer last")
