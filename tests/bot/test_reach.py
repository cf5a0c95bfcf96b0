"""Reaching every person at a table: a moment to open it after the deal, turn messages after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.bot.conftest import ANN, BOB, CID, GROUP, SCALE, Harness, make_harness
from tests.fakes.botapi import Call, FakeBotApi, FakeMessage
from tgbot.app import stop_bot
from tgbot.table_message import GROUP_INTERVAL

GRACE = 0.5


def turn_sends(bot: Harness, user_id: int = BOB) -> list[Call]:
    return [c for c in bot.fake.calls_to("sendMessage")
            if int(c.params["chat_id"]) == user_id and "Your turn in Coins" in str(c.params.get("text"))]


async def bobs_lobby(bot: Harness) -> str:
    """Bob's Coins lobby with two AI players in the group, ready to start; he has not opened the table."""
    fake = bot.fake
    bot.application.bot_data.notifier.grace = GRACE
    fake.add_user(BOB, "Bob")
    await bot.send(fake.message(BOB, BOB, "/start"))
    await bot.send(fake.message(GROUP, BOB, "/new coins target=99"))
    lobby = fake.messages(GROUP)[0]
    await bot.send(fake.press(BOB, lobby, "Add AI"))
    await bot.send(fake.press(BOB, lobby, "Add AI"))
    return await bot.table_id()


async def test_reach_start_sends_no_turn_message_to_a_host_who_opens_the_table_within_the_grace(
    bot: Harness,
) -> None:
    table_id = await bobs_lobby(bot)
    await bot.fake.send_update(bot.fake.press(BOB, bot.fake.messages(GROUP)[0], "Start"))
    await bot.fake.wait_until(lambda: bot.service.snapshot(table_id) is not None
                              and bot.service.snapshot(table_id).info.status == "playing")  # type: ignore[union-attr]
    bot.service.presence.report(table_id, BOB, "phone", True)  # the table opens on his phone a moment later
    await bot.settle()
    info = await bot.service.info(table_id)
    assert info.to_act == (info.seat_of(BOB),), "the AI players moved: it is Bob's turn"
    assert turn_sends(bot) == [], "he opened the table within the grace: no buzz for a turn he is taking"


async def test_reach_start_sends_the_turn_message_after_the_grace_to_a_host_who_does_not_open_the_table(
    bot: Harness,
) -> None:
    table_id = await bobs_lobby(bot)
    pressed = time.monotonic()
    await bot.send(bot.fake.press(BOB, bot.fake.messages(GROUP)[0], "Start"))
    info = await bot.service.info(table_id)
    assert info.to_act == (info.seat_of(BOB),)
    [sent] = turn_sends(bot)
    assert GRACE <= sent.time - pressed < GRACE + 3.0, "after the moment to open the table, not before"


@pytest.fixture
async def stored(tmp_path: Path) -> AsyncIterator[Store]:
    store = Store(database_url(None, tmp_path))
    await store.open()
    yield store
    await store.close()


async def test_reach_a_restart_sends_the_turn_message_of_someone_who_had_been_at_the_table(stored: Store) -> None:
    service = TableService(stored, ai_delay=0, heal_every=None)
    await service.start()
    bot = await make_harness(service)
    fake: FakeBotApi = bot.fake
    try:
        table_id = await bobs_lobby(bot)
        bot.service.presence.report(table_id, BOB, "phone", True)  # at the table when it starts
        await bot.send(fake.press(BOB, fake.messages(GROUP)[0], "Start"))
        info = await service.info(table_id)
        assert info.to_act == (info.seat_of(BOB),) and turn_sends(bot) == []
        # the process dies with Bob's turn pending (what it knew of who is at the table dies with it)
        await stop_bot(bot.application)
        await service.close()

        restarted = time.monotonic()
        service = TableService(stored, ai_delay=0, heal_every=None)
        await service.start()
        again = await make_harness(service, fake=fake)
        again.processed |= bot.processed
        try:
            await again.settle()
            [sent] = turn_sends(again)
            assert sent.time - restarted < 10.0, "within seconds of the restart, not when someone next moves"
            assert sent.time - restarted >= again.application.bot_data.notifier.grace, "after the usual grace"
            [message] = [m for m in fake.messages(BOB) if "Your turn in Coins" in m.plain]
            assert not message.deleted
        finally:
            await stop_bot(again.application)
    finally:
        await fake.close()
        await service.close()


AFTER = 0.8  # the harness's wait before a mention (the product's is MENTION_AFTER)


def mentions_of(bot: Harness, user_id: int) -> list[FakeMessage]:
    return [m for m in bot.fake.messages(GROUP) if f'<a href="tg://user?id={user_id}">' in m.text
            and "it is your turn in Coins" in m.shown]


async def act(bot: Harness, table_id: str, user_id: int) -> None:
    view = await bot.service.view(table_id, user_id)
    await bot.service.act(table_id, user_id, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])


async def test_reach_the_friend_who_never_started_the_bot_is_mentioned_in_the_group_while_away_on_their_turn(
    bot: Harness,
) -> None:
    fake, service = bot.fake, bot.service
    notifier = bot.application.bot_data.notifier
    notifier.grace, notifier.mentions.after = 0.2, AFTER
    for user_id, name in ((ANN, "Ann"), (BOB, "Bob"), (CID, "Cid <&> \u202eLīga")):
        fake.add_user(user_id, name)
    for user_id in (ANN, BOB):
        await bot.send(fake.message(user_id, user_id, "/start"))  # Cid never starts the bot
    await bot.send(fake.message(GROUP, ANN, "/new coins target=99"))
    table_id = await bot.table_id()
    lobby = fake.messages(GROUP)[0]
    for user_id in (BOB, CID):
        await bot.send(fake.press(user_id, lobby, "Join"))
    for user_id in (ANN, BOB):
        service.presence.report(table_id, user_id, f"phone {user_id}", True)  # the two play at the table
    began = time.monotonic()
    await bot.send(fake.press(ANN, lobby, "Start"))
    waits: list[float] = []
    deletes: list[float] = []
    quick = 0
    for _ in range(60):
        info = await service.info(table_id)
        [seat] = info.to_act
        mover = info.seats[seat].user_id
        assert mover is not None
        if mover != CID:
            await act(bot, table_id, mover)
            began = time.monotonic()
            await bot.settle()
            assert [m for m in mentions_of(bot, CID) if not m.deleted] == [], "not his turn: no mention"
            continue
        if len(waits) == 3:  # now and then he moves at once: nobody is named in front of everyone
            named = len(mentions_of(bot, CID))
            await act(bot, table_id, CID)
            await bot.settle()
            info = await service.info(table_id)
            if CID in [s.user_id for s in info.seats if s.seat in info.to_act]:
                continue  # he took the trick and leads the next: a turn straight back, taken at once too
            quick += 1
            await asyncio.sleep(AFTER + 0.2)
            await bot.settle()
            assert len(mentions_of(bot, CID)) == named, "a turn taken at once names nobody"
            if quick == 2:
                break
            began = time.monotonic()
            continue
        before = len(mentions_of(bot, CID))

        def named_again(b: int = before) -> bool:
            return len(mentions_of(bot, CID)) == b + 1

        await fake.wait_until(named_again, within=10)
        mention = mentions_of(bot, CID)[-1]
        [sent] = [c for c in fake.calls_to("sendMessage") if c.ok and c.response["result"]["message_id"]
                  == mention.message_id and int(c.params["chat_id"]) == GROUP]
        waits.append(sent.time - began)
        assert "\u2068" in mention.text and "&lt;&amp;&gt;" in mention.text, "the name escaped and isolated"
        await act(bot, table_id, CID)
        moved = time.monotonic()
        await fake.wait_until(lambda: mention.deleted, within=5)  # noqa: B023 - awaited here, in this iteration
        [gone] = [c for c in fake.calls_to("deleteMessage") if c.params.get("message_id") == mention.message_id]
        deletes.append(gone.time - moved)
        began = time.monotonic()
        await bot.settle()
    assert len(waits) == 3 and quick == 2, "three turns he left waiting, two he took at once"
    assert all(AFTER <= w < AFTER + 3.0 for w in waits), waits
    assert all(d < 3.0 for d in deletes), deletes
    assert len(mentions_of(bot, CID)) == 3
    assert all(m.deleted for m in mentions_of(bot, CID))
    assert fake.messages(CID) == [] and fake.count_429 == 0
    assert [c for c in fake.calls if c.status == 403] == []
    posts = [c.time for c in fake.calls if c.ok and c.method in ("sendMessage", "editMessageText")
             and int(c.params.get("chat_id", 0)) == GROUP]
    minute = 60 * SCALE  # the harness shrinks every flood-control period alike
    busiest = max(sum(1 for t in posts if start <= t < start + minute) for start in posts)
    assert busiest < 20, "inside the group's budget"


async def test_reach_the_groups_message_stops_naming_someone_once_their_turn_is_over(bot: Harness) -> None:
    fake, service = bot.fake, bot.service
    notifier = bot.application.bot_data.notifier
    notifier.grace = 0.2
    for user_id, name in ((ANN, "Ann"), (BOB, "Bob"), (CID, "Līga")):
        fake.add_user(user_id, name)
    for user_id in (ANN, BOB):
        await bot.send(fake.message(user_id, user_id, "/start"))
    await bot.send(fake.message(GROUP, ANN, "/new coins target=99"))
    table_id = await bot.table_id()
    status = fake.messages(GROUP)[0]
    for user_id in (BOB, CID):
        await bot.send(fake.press(user_id, status, "Join"))
    for user_id in (ANN, BOB):
        service.presence.report(table_id, user_id, f"phone {user_id}", True)
    await bot.send(fake.press(ANN, status, "Start"))
    named_her = cleared = 0
    for _ in range(40):
        info = await service.info(table_id)
        [seat] = info.to_act
        mover = info.seats[seat].user_id
        assert mover is not None
        if mover == CID:
            assert "Your turn, Līga." in status.shown and "▶️ Līga" in status.shown, "she is away on her turn"
            named_her += 1
        edits = len(status.edits)
        await act(bot, table_id, mover)
        moved = time.monotonic()
        await bot.settle()
        info = await service.info(table_id)
        if CID not in [s.user_id for s in info.seats if s.seat in info.to_act]:
            assert "Līga." not in status.shown and "▶️" not in status.shown, "nobody away is to play: nobody named"
            if mover == CID:
                [edit] = [c for c in fake.calls_to("editMessageText") if c.ok and
                          c.params.get("message_id") == status.message_id][-1:]
                assert edit.time - moved < GROUP_INTERVAL, "her name goes within the group budget's interval"
                cleared += 1
            else:
                assert len(status.edits) == edits, "both at the table: the group's message is left alone"
    assert named_her >= 2 and cleared >= 2
    assert fake.count_429 == 0


async def test_reach_a_whole_game_with_a_friend_who_never_started_the_bot_and_stays_away(bot: Harness) -> None:
    fake, service = bot.fake, bot.service
    notifier = bot.application.bot_data.notifier
    notifier.grace, notifier.mentions.after = 0.1, 0.4
    for user_id, name in ((ANN, "Ann"), (BOB, "Bob"), (CID, "Cid")):
        fake.add_user(user_id, name)
    for user_id in (ANN, BOB):
        await bot.send(fake.message(user_id, user_id, "/start"))
    await bot.send(fake.message(GROUP, ANN, "/new coins target=3"))
    table_id = await bot.table_id()
    lobby = fake.messages(GROUP)[0]
    for user_id in (BOB, CID):
        await bot.send(fake.press(user_id, lobby, "Join"))
    for user_id in (ANN, BOB):
        service.presence.report(table_id, user_id, f"phone {user_id}", True)
    began = time.monotonic()
    await bot.send(fake.press(ANN, lobby, "Start"))
    waits: list[float] = []
    deletes: list[float] = []
    turns = 0
    while (info := await service.info(table_id)).status == "playing":
        [seat] = info.to_act
        mover = info.seats[seat].user_id
        assert mover is not None
        if mover == CID:
            turns += 1
            count = len(mentions_of(bot, CID))
            with contextlib.suppress(TimeoutError):
                await fake.wait_until(lambda c=count: len(mentions_of(bot, CID)) > c, within=0.4 + 3)  # type: ignore[misc]
            if len(mentions_of(bot, CID)) > count:
                mention = mentions_of(bot, CID)[-1]
                [sent] = [c for c in fake.calls_to("sendMessage") if c.ok and int(c.params["chat_id"]) == GROUP
                          and c.response["result"]["message_id"] == mention.message_id]
                waits.append(sent.time - began)
        await act(bot, table_id, mover)
        moved = began = time.monotonic()
        if mover == CID and len(waits) == turns:
            await fake.wait_until(lambda: mentions_of(bot, CID)[-1].deleted, within=3)
            [gone] = [c for c in fake.calls_to("deleteMessage")
                      if c.params.get("message_id") == mentions_of(bot, CID)[-1].message_id]
            deletes.append(gone.time - moved)
        await bot.settle()
    assert turns >= 5 and len(waits) >= 0.95 * turns, (len(waits), turns)
    waits.sort()
    assert waits[int(0.95 * (len(waits) - 1))] < 0.4 + 3 and waits[0] >= 0.4, waits
    assert max(deletes) < 3, deletes
    assert all(m.deleted for m in mentions_of(bot, CID)) and fake.count_429 == 0
    assert "game over" in fake.last_message(GROUP).shown
