"""Moves through the table service: durability, races, refusals (against SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

import pytest

from engine import games
from engine.core.errors import Refusal
from engine.core.rules import replay
from engine.service.tables import TableService
from tests.service.conftest import StoreFactory
from tests.service.helpers import ANN, BOB, CAT, human_move, play_out, started_coins


async def test_restart_mid_game_resumes_exactly_where_it_was(store_factory: StoreFactory) -> None:
    first = TableService(await store_factory())
    await first.start()
    table_id = await started_coins(first)
    await play_out(first, table_id, moves=20)
    before = {user: await first.view(table_id, user) for user in (ANN, BOB, CAT, None)}
    await first.close()
    await first.store.close()

    second = TableService(await store_factory())
    await second.start()
    after = {user: await second.view(table_id, user) for user in (ANN, BOB, CAT, None)}
    assert after == before
    assert after[ANN]["seq"] == 20
    # the resumed table goes on: the next move is accepted against the same seq
    user, action, seq = await human_move(second, table_id)
    result = await second.act(table_id, user, action, seq)
    assert result.seq == 21
    await second.close()


async def test_fifty_concurrent_copies_of_one_move_apply_exactly_once(service: TableService) -> None:
    table_id = await started_coins(service)
    user, action, seq = await human_move(service, table_id)
    logged_before = len(await service.store.tables.load_actions(table_id))
    results = await asyncio.gather(
        *(service.act(table_id, user, action, seq) for _ in range(50)), return_exceptions=True
    )
    accepted = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(accepted) == 1 and len(refused) == 49
    assert {r.code for r in refused} == {"stale"}
    log = await service.store.tables.load_actions(table_id)
    assert len(log) == logged_before + 1 and log[-1].action == action


async def test_stale_seq_is_refused_and_changes_nothing(service: TableService) -> None:
    table_id = await started_coins(service)
    user, action, seq = await human_move(service, table_id)
    view = await service.view(table_id, user)
    with pytest.raises(Refusal) as refused:
        await service.act(table_id, user, action, seq - 1 if seq else seq + 5)
    assert refused.value.code == "stale"
    assert await service.view(table_id, user) == view


@pytest.mark.parametrize(
    ("make_action", "code"),
    [
        (lambda view, other: {"type": "play", "card": "Q-cups"}, "unknown_card"),
        (lambda view, other: {"type": "play", "card": other}, "card_not_in_hand"),
        (lambda view, other: {"type": "bid", "card": view["hand"][0]}, "unknown_action"),
        (lambda view, other: {"card": view["hand"][0]}, "malformed_action"),
        (lambda view, other: ["play", view["hand"][0]], "malformed_action"),
        (lambda view, other: {"type": "play", "card": view["hand"][0], "junk": "x" * 5000}, "malformed_action"),
    ],
)
async def test_bad_actions_get_specific_codes_and_change_nothing(
    service: TableService, make_action: Any, code: str
) -> None:
    table_id = await started_coins(service)
    user, _, seq = await human_move(service, table_id)
    view = await service.view(table_id, user)
    others = [u for u in (ANN, BOB, CAT) if u != user]
    other_card = (await service.view(table_id, others[0]))["state"]["hand"][0]
    with pytest.raises(Refusal) as refused:
        await service.act(table_id, user, make_action(view["state"], other_card), seq)
    assert refused.value.code == code and refused.value.message
    assert await service.view(table_id, user) == view
    assert len(await service.store.tables.load_actions(table_id)) == seq


async def test_not_your_turn_and_not_seated_are_refused(service: TableService) -> None:
    table_id = await started_coins(service)
    user, _, seq = await human_move(service, table_id)
    idle = next(u for u in (ANN, BOB, CAT) if u != user)
    idle_view = await service.view(table_id, idle)
    with pytest.raises(Refusal) as refused:
        await service.act(table_id, idle, {"type": "play", "card": idle_view["state"]["hand"][0]}, seq)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(Refusal) as refused:
        await service.act(table_id, 999, {"type": "play", "card": "A-cups"}, seq)
    assert refused.value.code == "not_seated"
    with pytest.raises(Refusal) as refused:
        await service.act("no-such-table", user, {"type": "play", "card": "A-cups"}, seq)
    assert refused.value.code == "table_not_found"


async def test_finished_game_reveals_a_seed_matching_its_hash_and_replays(service: TableService) -> None:
    table_id = await started_coins(service, humans=2)
    started = await service.info(table_id)
    assert started.seed is None and len(started.seed_hash) == 64
    await play_out(service, table_id)
    info = await service.info(table_id)
    assert info.status == "finished" and info.result is not None
    assert info.seed is not None and hashlib.sha256(info.seed.encode()).hexdigest() == started.seed_hash
    game = games.get("coins")
    log = await service.store.tables.load_actions(table_id)
    final = replay(game, info.options, 3, info.seed, [(a.seat, a.action) for a in log])
    outcome = game.outcome(final)
    assert outcome is not None and outcome.as_dict() == info.result
    assert any(a.auto for a in log) and not all(a.auto for a in log)  # the AI seat moved through the log too
    with pytest.raises(Refusal) as refused:
        await service.act(table_id, ANN, {"type": "play", "card": "A-cups"}, info.seq)
    assert refused.value.code == "game_over"
    assert (await service.store.people.stats(ANN))["coins"]["played"] == 1


async def test_updates_reach_subscribers_in_order_without_gaps_or_foreign_hands(service: TableService) -> None:
    sub = service.subscribe()
    table_id = await started_coins(service)
    await play_out(service, table_id, moves=12)
    seqs = []
    while not sub.queue.empty():
        update = await sub.get()
        if update.kind in ("moved", "finished"):
            seqs.append(update.seq)
            for event in update.events:
                seen = event.for_seat(0)
                if seen.get("type") == "dealt":
                    assert seen["seat"] == 0 or "cards" not in seen
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= 12
    sub.close()


async def test_strong_ai_seats_move_through_the_worker_process(service: TableService) -> None:
    info = await service.create_table("coins", ANN, "Ann", {"ai_level": "strong"})
    await service.join(info.id, BOB, "Bob")
    await service.start_game(info.id, ANN)
    await play_out(service, info.id, moves=6)
    await service.autoplay.idle()
    log = await service.store.tables.load_actions(info.id)
    ai_moves = [a for a in log if a.auto]
    assert ai_moves and all(a.seat == 2 for a in ai_moves)
    table = service.live(info.id)
    assert table is not None and table.seat_row(2).ai_level == "strong"
    assert service.autoplay._pool is not None  # the search ran out of process
