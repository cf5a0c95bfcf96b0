"""Friends at one table, case by case: turns that come straight back, blocking, leaving on your turn, lost answers,
being removed from the group, several tables in one group, rematches and tables nobody touches."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.bot.conftest import ANN, BOB, CID, DAN, GROUP, Harness, make_harness
from tests.fakes.botapi import FakeMessage
from tgbot.app import stop_bot
from tgbot.render import render

PEOPLE = {ANN: "Ann", BOB: "Bob", CID: "Cid", DAN: "Dan"}
SEED = "5eed" * 16


def live_turns(bot: Harness, user_id: int) -> list[FakeMessage]:
    return [m for m in bot.fake.messages(user_id) if "Your turn" in m.shown and not m.deleted]


async def people(bot: Harness, *starters: int) -> None:
    for user_id, name in PEOPLE.items():
        bot.fake.add_user(user_id, name)
    for user_id in starters:
        await bot.send(bot.fake.message(user_id, user_id, "/start"))


async def coins_table(bot: Harness, host: int, *joiners: int, target: int = 5, ai: int = 0) -> tuple[FakeMessage, str]:
    await bot.send(bot.fake.message(GROUP, host, f"/new coins target={target}"))
    lobby = bot.fake.last_message(GROUP)
    table_id = lobby.button("Join")["callback_data"].split(":")[1]
    for user_id in joiners:
        await bot.send(bot.fake.press(user_id, lobby, "Join"))
    for _ in range(ai):
        await bot.send(bot.fake.press(host, lobby, "Add AI"))
    await bot.send(bot.fake.press(host, lobby, "Start"))
    return lobby, table_id


async def move(bot: Harness, table_id: str) -> int:
    """The person to act plays their first legal card; returns who moved."""
    info = await bot.service.info(table_id)
    [seat] = info.to_act
    user_id = info.seats[seat].user_id
    assert user_id is not None
    view = await bot.service.view(table_id, user_id)
    await bot.service.act(table_id, user_id, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
    await bot.settle()
    return user_id


async def test_each_turn_gets_its_own_message_even_when_it_comes_straight_back(
    bot: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("engine.service.lobby.new_seed", lambda: SEED)  # the same deals, so the same turns, every run
    await people(bot, ANN, BOB, CID)
    _lobby, table_id = await coins_table(bot, ANN, BOB, CID)
    moves = {ANN: 0, BOB: 0, CID: 0}
    previous: dict[int, int] = {}  # each person's last turn message
    last_mover: int | None = None
    straight_back = 0
    while (info := await bot.service.info(table_id)).status == "playing":
        [seat] = info.to_act
        mover = info.seats[seat].user_id
        assert mover is not None
        [live] = live_turns(bot, mover)
        assert previous.get(mover) != live.message_id, "a new turn is a new message"
        if mover == last_mover:  # they won the trick with its last card and lead the next: a turn straight back
            straight_back += 1
            [old] = [m for m in bot.fake.messages(mover) if m.message_id == previous[mover]]
            assert old.deleted and live.message_id > old.message_id
        previous[mover] = live.message_id
        scores = (await bot.service.view(table_id, mover))["state"]["scores"]
        shown = " · ".join(f"{s.name} {scores[s.seat]}" for s in info.seats)
        assert f"Scores: {shown}" in live.shown, "the turn message shows the scores of this turn"
        assert all(live_turns(bot, other) == [] for other in moves if other != mover)
        last_mover = await move(bot, table_id)
        moves[last_mover] += 1
    assert straight_back >= 1, "the seed deals at least one turn that comes straight back"
    for user_id, count in moves.items():
        messages = [m for m in bot.fake.messages(user_id) if "Your turn" in m.shown]
        assert len(messages) == count and all(m.deleted for m in messages)


async def test_a_person_who_blocked_the_bot_and_starts_it_again_gets_turn_messages_again(bot: Harness) -> None:
    await people(bot, BOB)
    _lobby, table_id = await coins_table(bot, BOB, ai=2)
    [turn] = live_turns(bot, BOB)
    bot.fake.world.block(BOB)  # blocked without the bot hearing of it: the next message to Bob is refused
    await move(bot, table_id)
    while BOB not in [s.user_id for s in (await bot.service.info(table_id)).seats if s.seat in
                      (await bot.service.info(table_id)).to_act]:
        await bot.settle()
    assert not (await bot.service.store.people.user_settings(BOB) or {})["can_message"]
    assert "Your turn, Bob." in bot.fake.last_message(GROUP).shown
    refused = len([c for c in bot.fake.calls if c.status == 403])

    await bot.send(bot.fake.message(BOB, BOB, "/start"))  # unblocking: Telegram shows the Start button again

    [again] = live_turns(bot, BOB)
    assert again.message_id != turn.message_id
    assert "Your turn, Bob." not in bot.fake.last_message(GROUP).shown
    assert len([c for c in bot.fake.calls if c.status == 403]) == refused

    await bot.send(bot.fake.user_blocks_bot(BOB))  # this time Telegram says so
    assert not (await bot.service.store.people.user_settings(BOB) or {})["can_message"]
    await bot.send(bot.fake.user_unblocks_bot(BOB))
    assert (await bot.service.store.people.user_settings(BOB) or {})["can_message"]


async def test_leaving_on_your_turn_removes_your_turn_message(bot: Harness) -> None:
    await people(bot, BOB)
    _lobby, table_id = await coins_table(bot, BOB, ai=2)
    assert len(live_turns(bot, BOB)) == 1
    await bot.send(bot.fake.message(GROUP, BOB, "/leave"))
    assert live_turns(bot, BOB) == []
    assert (await bot.service.info(table_id)).status == "finished" or not live_turns(bot, BOB)


async def test_a_lobby_whose_answer_was_lost_is_posted_once(bot: Harness) -> None:
    await people(bot, ANN, BOB)
    bot.fake.inject_fault("sendMessage", "timeout_after_effect")
    await bot.send(bot.fake.message(GROUP, ANN, "/new"))
    [lobby] = bot.fake.messages(GROUP)
    await bot.send(bot.fake.press(BOB, lobby, "Join"))
    await bot.send(bot.fake.message(GROUP, CID, "/join"))
    lobbies = [m for m in bot.fake.messages(GROUP) if "new table" in m.shown]
    assert lobbies == [lobby], "one lobby, edited in place"
    assert "2. Bob" in lobby.shown and "3. Cid" in lobby.shown


async def test_a_group_that_removed_the_bot_hears_nothing_more_until_it_is_added_back(bot: Harness) -> None:
    await people(bot, ANN, BOB)
    lobby, table_id = await coins_table(bot, ANN, BOB, ai=1)
    await bot.send(bot.fake.kick_bot(GROUP))
    writes = len(bot.fake.calls)
    for _ in range(3):
        info = await bot.service.info(table_id)
        if info.status != "playing":
            break
        await move(bot, table_id)
    group_calls = [c for c in bot.fake.calls[writes:] if c.params.get("chat_id") == GROUP]
    assert group_calls == [] and not [c for c in bot.fake.calls if c.status == 403]
    await bot.send(bot.fake.bot_added(GROUP, ANN))
    assert bot.fake.last_message(GROUP).message_id != lobby.message_id or "playing" in lobby.shown


async def test_cancel_and_leave_ask_which_table_when_there_are_several(bot: Harness) -> None:
    await people(bot, ANN, BOB)
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins"))
    first = bot.fake.last_message(GROUP)
    await bot.send(bot.fake.message(GROUP, ANN, "/new kings"))
    second = bot.fake.last_message(GROUP)
    first_id, second_id = (m.button("Join")["callback_data"].split(":")[1] for m in (first, second))

    await bot.send(bot.fake.message(GROUP, ANN, "/cancel"))
    question = bot.fake.last_message(GROUP)
    assert "Which table?" in question.shown
    assert [b["text"] for b in question.buttons] == ["Kings in the Corner", "Coins"]  # names alone differ
    await bot.send(bot.fake.press(ANN, question, "Coins"))
    assert (await bot.service.info(first_id)).status == "abandoned"
    assert (await bot.service.info(second_id)).status == "lobby"

    await bot.send(bot.fake.message(GROUP, ANN, "/new coins"))
    third = bot.fake.last_message(GROUP)
    third_id = third.button("Join")["callback_data"].split(":")[1]
    await bot.send(bot.fake.message(GROUP, ANN, "/cancel", reply_to=second))  # the table the command answers
    assert (await bot.service.info(second_id)).status == "abandoned"
    assert (await bot.service.info(third_id)).status == "lobby"

    await bot.send(bot.fake.press(BOB, third, "Join"))
    await bot.send(bot.fake.message(GROUP, BOB, "/leave"))
    assert (await bot.service.info(third_id)).seat_of(BOB) is None


async def test_long_arguments_double_taps_and_plurals(bot: Harness) -> None:
    await people(bot, ANN)
    await bot.send(bot.fake.message(GROUP, ANN, "/new " + "x" * 4000))
    assert len(bot.fake.last_message(GROUP).shown) < 1000
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins " + "target=" + "9" * 4000))
    assert len(bot.fake.last_message(GROUP).shown) < 1000

    await bot.send(bot.fake.message(ANN, ANN, "/settings"))
    panel = bot.fake.last_message(ANN)
    off = panel.button("Turn messages: on")["callback_data"]
    await bot.send(bot.fake.press(ANN, panel, "Turn messages: on"))
    await bot.send(bot.fake.callback_query(ANN, panel, off))  # the second tap of a double tap
    assert not [c for c in bot.fake.calls if c.status not in (0, 200, 409)]
    assert not (await bot.service.store.people.user_settings(ANN) or {})["notify"]

    state = {"scores": [0, 0, 0], "target_score": 1}
    info = await bot.service.create_table("coins", ANN, "Ann", {"target_score": 1}, chat_id=GROUP)
    text = render("status.html", None, table=info, people={}, state=state)
    assert "First to 1 point wins." in text
    assert "First to 2 points wins." in render("status.html", None, table=info, people={},
                                               state={**state, "target_score": 2})
    assert "Побеждает первый, кто наберёт 1 очко." in render("status.html", "ru", table=info, people={}, state=state)


async def finish(bot: Harness, table_id: str, host: int) -> FakeMessage:
    await bot.send(bot.fake.message(GROUP, host, "/leave"))  # an AI plays the seat to the end
    await bot.settle()
    assert (await bot.service.info(table_id)).status == "finished"
    return [m for m in bot.fake.messages(GROUP) if "You left" not in m.plain][-1]  # the reply waits behind the table's


async def test_rematch_is_one_table_with_every_player_invited(bot: Harness) -> None:
    await people(bot, ANN, BOB)
    _lobby, table_id = await coins_table(bot, ANN, BOB, target=1, ai=1)
    while (await bot.service.info(table_id)).status == "playing":
        await move(bot, table_id)
    summary = bot.fake.last_message(GROUP)
    assert "game over" in summary.shown

    for _ in range(3):
        await bot.send(bot.fake.press(ANN, summary, "Rematch"))
    lobbies = [m for m in bot.fake.messages(GROUP) if "new table" in m.shown and not m.deleted]
    [rematch] = lobbies  # the first table's lobby became its status, deleted at the end
    fresh_id = await bot.service.store.chats.rematch_of(table_id)
    assert fresh_id is not None and rematch.button("Join")["callback_data"] == f"j:{fresh_id}"
    assert "Invited: " in rematch.shown and "Bob" in rematch.shown
    assert f'<a href="tg://user?id={BOB}">Bob</a>' in rematch.text

    await bot.send(bot.fake.press(BOB, summary, "Rematch"))  # accepting: Bob takes his seat
    fresh = await bot.service.info(fresh_id)
    assert fresh.seat_of(ANN) == 0 and fresh.seat_of(BOB) == 1
    assert "Invited" not in rematch.shown
    assert len([m for m in bot.fake.messages(GROUP) if "new table" in m.shown and not m.deleted]) == 1


async def test_a_rematch_opened_in_the_mini_app_is_posted_in_the_topic_with_every_player_invited(
    bot: Harness,
) -> None:
    await people(bot, ANN, BOB)
    forum = -1004401
    bot.fake.add_group(forum, "Card club", is_forum=True)
    thread = bot.fake.create_forum_topic(forum, "Coins")
    bot.fake.close_general_forum_topic(forum)  # anything posted in General would be refused
    await bot.send(bot.fake.message(forum, ANN, "/new coins target=1", message_thread_id=thread))
    lobby = bot.fake.last_message(forum)
    table_id = lobby.button("Join")["callback_data"].split(":")[1]
    await bot.send(bot.fake.press(BOB, lobby, "Join"))
    for button in ("Add AI", "Start"):
        await bot.send(bot.fake.press(ANN, lobby, button))
    while (await bot.service.info(table_id)).status == "playing":
        await move(bot, table_id)

    fresh, opened = await bot.service.join_rematch(table_id, BOB, "Bob")  # Bob's Play again in the Mini App
    await bot.settle()

    assert opened
    rematch = bot.fake.last_message(forum)
    assert rematch.button("Join")["callback_data"] == f"j:{fresh.id}" and rematch.thread_id == thread
    assert "Invited: " in rematch.shown and f'<a href="tg://user?id={ANN}">Ann</a>' in rematch.text
    assert not [c for c in bot.fake.calls if c.status not in (0, 200) and c.method != "getUpdates"]


async def test_rematch_stays_one_table_after_a_restart(tmp_path: Path) -> None:
    store = Store(database_url(None, tmp_path))
    await store.open()
    service = TableService(store, ai_delay=0)
    await service.start()
    bot = await make_harness(service)
    await people(bot, ANN)
    _lobby, table_id = await coins_table(bot, ANN, target=1, ai=2)
    summary = await finish(bot, table_id, ANN)
    await bot.send(bot.fake.press(ANN, summary, "Rematch"))
    await stop_bot(bot.application)
    await service.close()

    before = len(bot.fake.messages(GROUP))

    service = TableService(store, ai_delay=0)
    await service.start()
    again = await make_harness(service, fake=bot.fake)
    again.processed |= bot.processed
    try:
        for _ in range(2):
            await again.send(bot.fake.press(ANN, summary, "Rematch"))
        assert len(bot.fake.messages(GROUP)) == before  # the same rematch: the records knew it, nothing new
        assert len(await service.tables_in_chat(GROUP, "lobby")) == 1
    finally:
        await stop_bot(again.application)
        await bot.fake.close()
        await service.close()
        await store.close()


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def clocked(tmp_path: Path) -> AsyncIterator[tuple[Harness, Clock]]:
    clock = Clock()
    store = Store(database_url(None, tmp_path))
    await store.open()
    service = TableService(store, ai_delay=0, clock=clock, run_timers=False)
    await service.start()
    harness = await make_harness(service)
    yield harness, clock
    await stop_bot(harness.application)
    await harness.fake.close()
    await service.close()
    await store.close()


async def test_lobbies_and_untimed_games_nobody_touches_expire_and_say_so(clocked: tuple[Harness, Clock]) -> None:
    bot, clock = clocked
    await people(bot, ANN, BOB)
    await bot.send(bot.fake.message(GROUP, ANN, "/new"))
    lobby = bot.fake.last_message(GROUP)
    _playing_lobby, game_id = await coins_table(bot, BOB, ai=2)
    settings = bot.settings

    clock.now += 23 * 3600
    assert await bot.service.expire_idle(lobby_after=settings.lobby_expiry_hours * 3600,
                                         game_after=settings.game_expiry_days * 86400) == []
    clock.now += 2 * 3600
    [expired] = await bot.service.expire_idle(lobby_after=settings.lobby_expiry_hours * 3600,
                                              game_after=settings.game_expiry_days * 86400)
    await bot.settle()
    assert expired.status == "abandoned"
    assert "expired: nobody played at it for a long time" in lobby.shown and lobby.buttons == []
    assert (await bot.service.info(game_id)).status == "playing"

    clock.now += 14 * 86400
    [game] = await bot.service.expire_idle(lobby_after=settings.lobby_expiry_hours * 3600,
                                           game_after=settings.game_expiry_days * 86400)
    await bot.settle()
    assert game.id == game_id and game.status == "abandoned"
    assert live_turns(bot, BOB) == []
    assert "expired" in bot.fake.last_message(GROUP).shown

