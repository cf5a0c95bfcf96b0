"""Play now: one verb opens a table for one person against AI players, already dealt, or opens nothing at all."""

from __future__ import annotations

from typing import Any

import pytest

from engine import games
from engine.core.errors import BadOptions, Refusal, RefusalCode
from engine.service.tables import TableService
from engine.store.database import Store
from tests.service.conftest import StoreFactory
from tests.service.helpers import ANN, BOB


async def test_play_now_deals_at_once_with_ai_players_in_every_other_seat(service: TableService) -> None:
    every = service.subscribe()
    info = await service.play_now("kings_corner", ANN, "Ann", {"players": 3, "scoring": "penalty"})
    # kings_corner/RULES.md §1.2: two to four players; the caller sits first, the AI players after
    assert info.status == "playing" and info.size == 3 and info.host_user_id == ANN
    assert [(s.user_id, s.is_ai) for s in info.seats] == [(ANN, False), (None, True), (None, True)]
    assert info.options["scoring"] == "penalty"
    assert (await every.get()).kind == "started"  # published once, as a game: never seen as a lobby
    assert [t.id for t in await service.tables_of(ANN)] == [info.id]


async def test_play_now_survives_a_restart_as_the_game_it_dealt(
    store_factory: StoreFactory, service: TableService
) -> None:
    info = await service.play_now("coins", ANN, "Ann", {"target_score": 15})
    before = service.snapshot(info.id)
    assert before is not None
    again = TableService(await store_factory(), ai_delay=0.0, heal_every=None, run_timers=False)
    reloaded = await again.info(info.id)
    assert reloaded.status == "playing" and [s.is_ai for s in reloaded.seats] == [False, True, True]
    after = again.snapshot(info.id)
    assert after is not None and after.view(0)["state"]["hand"] == before.view(0)["state"]["hand"]
    await again.store.close()


async def test_play_now_whose_deal_fails_leaves_no_table(
    service: TableService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_deal(*_args: Any) -> Any:
        raise BadOptions(RefusalCode.BAD_OPTIONS)

    monkeypatch.setattr(type(games.get("coins")), "new_game", no_deal)
    with pytest.raises(Refusal) as refused:
        await service.play_now("coins", ANN, "Ann")
    assert refused.value.code == "bad_options"
    assert await service.tables_of(ANN) == [] and service.tables() == []
    assert await store.tables.table_ids_of_user(ANN, ("lobby", "playing", "finished", "abandoned"), 10, None) == []


async def test_play_now_the_store_refuses_leaves_no_table_in_memory(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def out_of_reach(*_args: Any) -> None:
        raise ConnectionError("the database is out of reach")

    monkeypatch.setattr(service.store.tables, "create_table", out_of_reach)
    with pytest.raises(ConnectionError):
        await service.play_now("coins", ANN, "Ann")
    assert service.tables() == []
    monkeypatch.undo()
    assert await service.tables_of(ANN) == []


async def test_play_now_is_refused_at_the_cap_on_open_tables(service: TableService) -> None:
    service.max_open_tables = 1
    first = await service.create_table("coins", ANN, "Ann")
    with pytest.raises(Refusal) as refused:
        await service.play_now("coins", ANN, "Ann")
    assert refused.value.code == "too_many_tables"
    assert [t.id for t in await service.tables_of(ANN)] == [first.id]
    assert (await service.play_now("coins", BOB, "Bob")).status == "playing"  # someone else's cap is their own
