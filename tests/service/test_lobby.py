"""Lobby life cycle: seats, options, start, leave, cancel — and every refusal changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from engine.core.errors import Refusal
from engine.service.live import TableInfo
from engine.service.tables import TableService
from tests.service.conftest import StoreFactory
from tests.service.helpers import ANN, BOB, CAT, play_out, started_coins


async def test_join_fills_seats_in_order_and_start_fills_the_rest_with_ai(service: TableService) -> None:
    info = await service.create_table("coins", ANN, "Ann", {"target_score": 15})
    assert info.status == "lobby" and info.options["target_score"] == 15 and info.free_seats == 2
    info = await service.join(info.id, BOB, "Bob")
    assert [s.name for s in info.seats] == ["Ann", "Bob", ""]
    info = await service.start_game(info.id, ANN)
    assert info.status == "playing"
    assert info.seats[2].is_ai and info.seats[2].name.endswith("(AI)")


@pytest.mark.parametrize(
    ("setup", "attempt", "code"),
    [
        ("full", lambda s, t: s.join(t, 104, "Dan"), "table_full"),
        ("lobby", lambda s, t: s.join(t, ANN, "Ann"), "already_seated"),
        ("lobby", lambda s, t: s.start_game(t, BOB), "not_host"),
        ("lobby", lambda s, t: s.add_ai(t, BOB), "not_host"),
        ("lobby", lambda s, t: s.set_options(t, BOB, {"target_score": 20}), "not_host"),
        ("lobby", lambda s, t: s.set_options(t, ANN, {"target_score": 0}), "bad_options"),
        ("lobby", lambda s, t: s.set_options(t, ANN, {"players": 4}), "bad_options"),
        ("lobby", lambda s, t: s.set_options(t, ANN, {"timer": "forever"}), "bad_options"),
        ("lobby", lambda s, t: s.abandon(t, BOB), "not_host"),
        ("lobby", lambda s, t: s.leave(t, 104), "not_seated"),
        ("started", lambda s, t: s.join(t, 104, "Dan"), "already_started"),
        ("started", lambda s, t: s.start_game(t, ANN), "already_started"),
    ],
)
async def test_lobby_refusals_change_nothing(
    service: TableService, setup: str, attempt: Callable[[TableService, str], Awaitable[TableInfo]], code: str
) -> None:
    info = await service.create_table("coins", ANN, "Ann")
    await service.join(info.id, BOB, "Bob")
    if setup == "full":
        await service.join(info.id, CAT, "Cat")
    if setup == "started":
        await service.start_game(info.id, ANN)
        await service.autoplay.idle()
    before = await service.info(info.id)
    with pytest.raises(Refusal) as refused:
        await attempt(service, info.id)
    assert refused.value.code == code and refused.value.message
    assert await service.info(info.id) == before


async def test_unknown_game_and_bad_options_are_refused_at_creation(service: TableService) -> None:
    with pytest.raises(Refusal) as refused:
        await service.create_table("poker", ANN, "Ann")
    assert refused.value.code == "unknown_game"
    with pytest.raises(Refusal) as refused:
        await service.create_table("coins", ANN, "Ann", {"target_score": 500})
    assert refused.value.code == "bad_options" and "1 to 99" in refused.value.message


async def test_leaving_mid_game_hands_the_seat_to_an_ai_and_the_game_goes_on(service: TableService) -> None:
    table_id = await started_coins(service)
    info = await service.leave(table_id, CAT)
    assert info.seats[2].is_ai and info.seats[2].user_id is None and info.seats[2].name == "Cat (AI)"
    await play_out(service, table_id)
    assert (await service.info(table_id)).status == "finished"


async def test_host_leaving_the_lobby_passes_the_host_on_and_last_leaver_abandons(service: TableService) -> None:
    info = await service.create_table("coins", ANN, "Ann")
    await service.join(info.id, BOB, "Bob")
    info = await service.leave(info.id, ANN)
    assert info.host_user_id == BOB and info.status == "lobby"
    info = await service.leave(info.id, BOB)
    assert info.status == "abandoned" and info.seed is not None


async def test_cancel_by_host_reveals_the_seed_and_stops_play(service: TableService) -> None:
    table_id = await started_coins(service)
    info = await service.abandon(table_id, ANN)
    assert info.status == "abandoned" and info.seed is not None
    with pytest.raises(Refusal) as refused:
        await service.act(table_id, ANN, {"type": "play", "card": "A-cups"}, info.seq)
    assert refused.value.code == "abandoned"


async def test_host_changes_game_settings_seats_and_timer_in_the_lobby(service: TableService) -> None:
    info = await service.create_table("coins", ANN, "Ann")
    info = await service.set_options(info.id, ANN, {"target_score": "15", "timer": "relaxed", "ai_level": "strong"})
    assert info.options["target_score"] == 15 and info.timer == "relaxed"
    table = service.live(info.id)
    assert table is not None and table.options.target_score == 15
    state = (await service.view((await service.start_game(info.id, ANN)).id, ANN))["state"]
    assert state["target_score"] == 15


async def test_tables_in_chat_lists_only_that_chats_unfinished_tables_newest_first(service: TableService) -> None:
    first = await service.create_table("coins", ANN, "Ann", chat_id=-100)
    second = await service.create_table("coins", BOB, "Bob", chat_id=-100)
    await service.create_table("coins", CAT, "Cat", chat_id=-200)
    await service.abandon(first.id, ANN)
    assert [t.id for t in await service.tables_in_chat(-100)] == [second.id]
    assert await service.tables_in_chat(-100, "playing") == []


async def test_many_lobby_changes_at_once_share_commits_and_none_is_refused(service: TableService) -> None:
    lobbies = [(await service.create_table("coins", 500 + i, f"Host{i}")).id for i in range(32)]
    before = service.store.writer.commits
    joined = await asyncio.gather(*(service.join(t, 900 + i, f"Guest{i}") for i, t in enumerate(lobbies)))
    assert [info.seats[1].user_id for info in joined] == [900 + i for i in range(32)]
    assert service.store.writer.commits - before < 32  # changes waiting together went into shared transactions
    for i, table_id in enumerate(lobbies):
        stored = await service.store.tables.load_table(table_id)
        assert stored is not None and stored.seats[1].user_id == 900 + i


async def test_tables_offer_easy_and_strong_ai_and_refuse_anything_else(service: TableService) -> None:
    for level in ("easy", "strong"):
        info = await service.create_table("coins", 700, "Host", {"ai_level": level})
        await service.add_ai(info.id, 700)
        stored = await service.store.tables.load_table(info.id)
        assert stored is not None and stored.seats[1].is_ai and stored.seats[1].ai_level == level
    for level in ("godlike", "expert"):  # expert measured no stronger than strong and is no longer offered
        with pytest.raises(Refusal) as refused:
            await service.create_table("coins", 700, "Host", {"ai_level": level})
        assert refused.value.code == "bad_options" and "easy, strong" in refused.value.message
        assert repr(level) in refused.value.message


async def test_a_table_stored_at_the_withdrawn_expert_level_changes_and_rematches_as_strong(
    service: TableService,
) -> None:
    info = await service.create_table("coins", ANN, "Ann", {"ai_level": "strong"})
    live = service.live(info.id)
    assert live is not None
    live.row.meta["ai_level"] = "expert"  # as a lobby opened before the level went is stored
    changed = await service.set_options(info.id, ANN, {"timer": "live"})
    assert changed.timer == "live" and changed.ai_level == "strong"
    finished = await started_coins(service, humans=1, ai_level="strong")
    held = service.live(finished)
    assert held is not None
    held.row.meta["ai_level"] = "expert"
    await play_out(service, finished)
    rematch, _ = await service.rematch(finished, ANN, "Ann")
    assert rematch.ai_level == "strong"


async def test_a_migrated_group_takes_every_unfinished_table_along_loaded_or_not(
    store_factory: StoreFactory,
) -> None:
    old_chat, new_chat = -4301, -1004301
    first = TableService(await store_factory(), heal_every=None)
    await first.start()
    lobby = await first.create_table("coins", ANN, "Ann", chat_id=old_chat)
    # Coins, not Kings: an AI of Kings may go out on its first turn and end the game before the group moves
    playing = await first.create_table("coins", BOB, "Bob", chat_id=old_chat)
    await first.start_game(playing.id, BOB)
    over = await first.create_table("coins", CAT, "Cat", {"target_score": 1}, chat_id=old_chat)
    await first.start_game(over.id, CAT)
    await play_out(first, over.id)
    elsewhere = await first.create_table("coins", ANN, "Ann", chat_id=-4302)
    await first.close()

    second = TableService(await store_factory(), heal_every=None)  # another process: nothing loaded yet
    await second.start()
    await second.info(lobby.id)  # one table is loaded here, the other is not
    assert {t.id for t in second.tables()} == {lobby.id}
    await second.info(over.id)  # and a finished one someone looked at: it is held here too
    updates = second.subscribe(None)

    moved = await second.move_chat(old_chat, new_chat)

    assert sorted(t.id for t in moved) == sorted([lobby.id, playing.id])
    assert {t.chat_id for t in moved} == {new_chat}
    for table_id, chat in ((lobby.id, new_chat), (playing.id, new_chat), (over.id, new_chat), (elsewhere.id, -4302)):
        stored = await second.store.tables.load_table(table_id)
        assert stored is not None and stored.chat_id == chat, table_id
    # the group's record follows it too: its leaderboard goes on at the new id, not from nothing
    assert [(e["user_id"], e["games"]) for e in await second.record.leaderboard(new_chat, "coins")] == [(CAT, 1)]
    assert await second.record.leaderboard(old_chat, "coins") == []
    assert (await second.info(over.id)).chat_id == new_chat  # the copy held here moved with the stored row
    assert (await second.store.records.played_in_chat(CAT, new_chat)
            and not await second.store.records.played_in_chat(CAT, old_chat))
    assert sorted(t.id for t in await second.tables_in_chat(new_chat)) == sorted([lobby.id, playing.id])
    assert await second.tables_in_chat(old_chat) == []
    told = [updates.queue.get_nowait() for _ in range(updates.queue.qsize())]
    assert sorted((u.table_id, u.kind) for u in told) == sorted([(lobby.id, "chat_moved"), (playing.id, "chat_moved")])
    assert await second.move_chat(old_chat, new_chat) == []  # told twice (service message and refusal): moved once
    updates.close()
    await second.close()
