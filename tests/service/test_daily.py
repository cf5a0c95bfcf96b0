"""The deal of the day through the table service: the same cards for everyone, one play each, sealed until the close."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine import games
from engine.core.errors import Refusal
from engine.core.rng import seed_hash
from engine.service.daily_rules import FORFEIT, daily_seed, day_of
from engine.service.kinds import shown_seed
from engine.service.tables import TableService
from engine.store.database import Store
from tests.clock import ManualClock
from tests.service.daily_clock import today, today_noon
from tests.service.helpers import ANN, BOB, CAT, finished_game, play_out

NOON = today_noon()
GROUP = -100_200
DAY = today().isoformat()


@pytest.fixture
async def daily_service(store: Store) -> AsyncIterator[TableService]:
    """A service whose clock the test moves, with the deals' secret given."""
    service = TableService(store, ai_delay=0.0, heal_every=None, run_timers=False, clock=ManualClock(NOON),
                           daily_secret="test secret")
    await service.start()
    yield service
    await service.close()


async def finish_daily(service: TableService, table_id: str) -> None:
    """Play the person's first legal card until the day's scored moment stops the table."""
    await play_out(service, table_id)
    await service.daily.wait_settled()


async def test_daily_coins_deals_the_same_cards_once_and_keeps_the_seed_until_the_close(
    daily_service: TableService,
) -> None:
    service, clock = daily_service, daily_service.clock
    assert isinstance(clock, ManualClock)
    ann = await service.daily.start("coins", ANN, "Ann")
    bob = await service.daily.start("coins", BOB, "Bob")
    assert ann.id != bob.id
    ann_hand = (await service.view(ann.id, ANN))["state"]["hand"]
    assert (await service.view(bob.id, BOB))["state"]["hand"] == ann_hand  # the same cards in the same seat
    assert (await service.daily.start("coins", ANN, "Ann")).id == ann.id  # starting again resumes it
    with pytest.raises(Refusal) as early:
        await service.daily.standings("coins", ANN)
    assert early.value.code == "daily_not_finished"

    await finish_daily(service, ann.id)
    over = await service.info(ann.id)
    assert over.status == "abandoned" and over.seed is None  # stopped after the first hand, its seed sealed
    with pytest.raises(Refusal) as again:
        await service.daily.start("coins", ANN, "Ann")
    assert again.value.code == "daily_done"
    mine = await service.daily.standings("coins", ANN)
    assert mine["seed"] is None and [r["user_id"] for r in mine["standings"]] == [ANN]
    assert mine["percent"] == 100 and mine["line"] == f"Cardroom · Coins · {DAY} · 100% · 🔥1"
    with pytest.raises(Refusal):
        await service.daily.standings("coins", BOB)  # Bob has not finished: no peeking

    clock.now = NOON + 12 * 3600  # the day closes
    closed = await service.daily.standings("coins", BOB, DAY)
    assert seed_hash(closed["seed"]) == closed["seed_hash"]
    dealt = games.get("coins").new_game(games.get("coins").parse_options({}), 3, closed["seed"])
    assert games.get("coins").view(dealt, 0)["hand"] == ann_hand  # the revealed seed re-deals the same cards
    assert closed["seed"] == daily_seed(b"test secret", "coins", day_of(NOON))
    assert shown_seed(closed["seed"], {"sealed_until": NOON + 12 * 3600}, now=NOON + 12 * 3600) == closed["seed"]
    assert shown_seed(closed["seed"], {"sealed_until": NOON + 12 * 3600}, now=NOON) is None


async def test_daily_start_refuses_a_game_without_a_deal_of_the_day(daily_service: TableService) -> None:
    with pytest.raises(Refusal) as refused:
        await daily_service.daily.start("poker", ANN, "Ann")
    assert refused.value.code == "unknown_game"
    with pytest.raises(Refusal) as bad:
        await daily_service.daily.standings("coins", ANN, "2026-13-01")
    assert bad.value.code == "bad_request" and bad.value.reason == "bad_date"


async def test_daily_secret_is_made_once_and_kept_in_the_store(store: Store) -> None:
    first = TableService(store, ai_delay=0.0, heal_every=None, run_timers=False)
    second = TableService(store, ai_delay=0.0, heal_every=None, run_timers=False)
    made = await first.daily.secret()
    assert len(made) == 64 and await second.daily.secret() == made


async def test_daily_ai_decides_alike_for_everyone_who_plays_alike(daily_service: TableService) -> None:
    service = daily_service
    tables = [await service.daily.start("coins", user, name) for user, name in ((ANN, "Ann"), (BOB, "Bob"))]
    for info in tables:
        assert [s.is_ai for s in info.seats] == [False, True, True]
        live = service.live(info.id)
        assert live is not None and {s.ai_level for s in live.row.seats if s.is_ai} == {"daily"}
        await finish_daily(service, info.id)
    logs = [[(a.seat, a.action) for a in await service.store.tables.load_actions(info.id)] for info in tables]
    assert len(logs[0]) >= 3 * 16 and logs[0] == logs[1]  # the whole first hand, move for move


async def test_daily_result_is_read_from_the_table_after_a_restart_heard_nothing(
    daily_service: TableService, store: Store
) -> None:
    first = TableService(store, ai_delay=0.0, heal_every=None, run_timers=False, clock=daily_service.clock,
                         daily_secret="test secret")
    await first.start()
    info = await first.daily.start("coins", ANN, "Ann")
    await first.autoplay.idle()
    await first.close()  # the process that listened to the table is gone
    again = daily_service  # the next one never heard of the table
    await play_out(again, info.id, moves=16)  # Ann's sixteen cards: the first hand is over, the table goes on
    await again.autoplay.idle()
    sheet = (again.snapshot(info.id).public_state() or {})["score_sheet"]  # type: ignore[union-attr]
    assert sheet[0]["done"] and (await again.info(info.id)).status == "playing"
    status = (await again.daily.today(ANN))["games"][0]["status"]
    assert status["state"] == "finished" and status["mark"] == sheet[0]["points"][0]
    assert (await again.info(info.id)).status == "abandoned"  # stopped once the result was read


@pytest.mark.parametrize(("game", "size"), [("coins", 3), ("sergeant_major", 3), ("kings_corner", 2)])
async def test_daily_deal_of_each_game_commits_to_the_published_hash(
    daily_service: TableService, game: str, size: int
) -> None:
    listed = {g["game"]: g for g in (await daily_service.daily.today(ANN))["games"]}
    info = await daily_service.daily.start(game, ANN, "Ann")
    assert info.size == size and info.seats[0].user_id == ANN and all(s.is_ai for s in info.seats[1:])
    assert info.seed_hash == listed[game]["seed_hash"] and info.seed is None and info.ai_level == "strong"
    assert (await daily_service.daily.today(ANN))["games"][list(listed).index(game)]["status"] == {
        "state": "playing", "table_id": info.id}


async def test_daily_table_cancelled_by_its_player_keeps_its_seed_and_counts_as_played(
    daily_service: TableService,
) -> None:
    info = await daily_service.daily.start("coins", ANN, "Ann")
    updates = daily_service.subscribe(info.id)
    await daily_service.abandon(info.id, ANN)
    gone = await updates.get()
    updates.close()
    assert gone.kind == "abandoned" and [e.data.get("seed") for e in gone.events] == [None]
    await daily_service.daily.wait_settled()
    status = (await daily_service.daily.today(ANN))["games"][0]["status"]
    assert status["state"] == "finished" and status["mark"] == -1000  # below any result played out
    with pytest.raises(Refusal):
        await daily_service.daily.start("coins", ANN, "Ann")


async def test_daily_standings_of_a_group_list_its_members_for_a_member(daily_service: TableService) -> None:
    service = daily_service
    await finished_game(service, GROUP, ((ANN, "Ann"), (BOB, "Bob")))  # Ann and Bob play in the group; Cat not
    for user, name in ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")):
        await finish_daily(service, (await service.daily.start("coins", user, name)).id)
    everyone = await service.daily.standings("coins", CAT)
    assert {r["user_id"] for r in everyone["standings"]} == {ANN, BOB, CAT}
    group = await service.daily.standings("coins", BOB, group=GROUP)
    assert group["standings"][0]["user_id"] == BOB
    assert {r["user_id"] for r in group["standings"]} == {ANN, BOB}
    shares = {r["user_id"]: r["share"] for r in everyone["standings"]}
    assert all(r["share"] == shares[r["user_id"]] for r in group["standings"])  # shares of the whole field
    with pytest.raises(Refusal) as outsider:
        await service.daily.standings("coins", CAT, group=GROUP)
    assert outsider.value.code == "not_in_group"


async def test_daily_deal_finished_after_its_day_closed_counts_as_a_forfeit(daily_service: TableService) -> None:
    service, clock = daily_service, daily_service.clock
    assert isinstance(clock, ManualClock)
    info = await service.daily.start("coins", ANN, "Ann")
    clock.now = NOON + 12 * 3600 + 5  # past midnight: the day's seed can now be read by anyone
    await finish_daily(service, info.id)
    late = await service.daily.standings("coins", ANN, DAY)
    assert [(r["user_id"], r["mark"]) for r in late["standings"]] == [(ANN, FORFEIT)]
