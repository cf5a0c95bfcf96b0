"""Small drivers for service tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from engine.service.kinds import UpdateKind
from engine.service.loading import notice
from engine.service.tables import TableService
from engine.store.database import Store

ANN, BOB, CAT = 101, 102, 103


async def started_coins(service: TableService, humans: int = 3, **options: Any) -> str:
    """A Coins table with ``humans`` people (Ann, Bob, Cat) and AI in the other seats, dealt."""
    info = await service.create_table("coins", ANN, "Ann", options or None, seed=None)
    for user, name in ((BOB, "Bob"), (CAT, "Cat"))[: humans - 1]:
        await service.join(info.id, user, name)
    await service.start_game(info.id, ANN)
    await service.autoplay.idle()
    return info.id


async def human_move(service: TableService, table_id: str) -> tuple[int, dict[str, Any], int]:
    """The first legal move of the person on turn: (user, action, seq)."""
    await service.autoplay.idle()
    info = await service.info(table_id)
    seat = info.to_act[0]
    user = info.seats[seat].user_id
    assert user is not None
    view = await service.view(table_id, user)
    return user, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"]


async def play_out(service: TableService, table_id: str, moves: int | None = None) -> None:
    """Let the people on turn play their first legal card until the end (or ``moves`` moves)."""
    done = 0
    while moves is None or done < moves:
        await service.autoplay.idle()
        if (await service.info(table_id)).status != "playing":
            return
        user, action, seq = await human_move(service, table_id)
        await service.act(table_id, user, action, seq)
        done += 1


async def finished_game(service: TableService, chat_id: int | None, people: tuple[tuple[int, str], ...],
                        target: int = 1) -> str:
    """A whole Coins game (first to ``target`` points) of these people and AI players, opened from ``chat_id``."""
    (host, host_name), *others = people
    info = await service.create_table("coins", host, host_name, {"target_score": target}, chat_id=chat_id)
    for user, name in others:
        await service.join(info.id, user, name)
    await service.start_game(info.id, host)
    await play_out(service, info.id)
    assert (await service.info(info.id)).status == "finished"
    return info.id


async def ai_game(service: TableService, game: str, options: dict[str, Any], players: int | None = None) -> str:
    """A whole game of AI players (the host's seat handed to the AI too, as ``cardroom simulate`` does), finished.

    The seed is fixed per game, so the deals (and so the game's length) are the same every run.
    """
    info = await service.create_table(game, ANN, "Ann", {**options, **({"players": players} if players else {})},
                                      seed=f"replay test {game}")
    table = service.live(info.id)
    assert table is not None
    table.row.seats[0].is_ai = True
    updates = service.subscribe(info.id)
    await service.start_game(info.id, ANN)
    async for update in updates:
        if update.kind in ("finished", "abandoned"):
            break
    updates.close()
    assert (await service.info(info.id)).status == "finished"
    return info.id


@asynccontextmanager
async def service_over(url: str) -> AsyncIterator[TableService]:
    """A started service over a store opened at ``url`` (no AI think delay, no supervisor), closed after."""
    store = Store(url)
    await store.open()
    service = TableService(store, ai_delay=0.0, heal_every=None)
    await service.start()
    try:
        yield service
    finally:
        await service.close()
        await store.close()


async def set_meta(service: TableService, table_id: str, key: str, value: Any) -> None:
    """Change a table's row and nothing else (a value kept with it), told to other processes as a ``meta`` notice."""
    table = await service.loaded.get(table_id)
    async with table.lock:
        table.row.meta[key] = value
        await service.store.tables.save_table(table.row, with_seats=False, notice=notice(table, UpdateKind.META))


async def get_meta(service: TableService, table_id: str, key: str) -> Any:
    """A value kept with a table, as this process has it, or None."""
    return (await service.loaded.get(table_id)).row.meta.get(key)
