"""A whole Coins game from /new in a group: two people and one AI, every message the fake Telegram received."""

from __future__ import annotations

from engine.service.live import TableInfo
from tests.bot.conftest import ANN, BOB, BOT_USERNAME, GROUP, SHORT_NAME, Harness

LOBBY_BUTTONS = ["Join", "Leave", "Add AI", "Options", "Start", "Open table"]


async def play_human_turns(bot: Harness, table_id: str) -> tuple[TableInfo, dict[int, int]]:
    """Play the people's moves through the service (the first legal card) until the game is over.

    Before each move, check what the bot shows: Bob (who started the bot) has one live turn
    message; Ann (who never did) is named with a mention in the group's status message.
    """
    moves = {ANN: 0, BOB: 0}
    while True:
        await bot.settle()
        info = await bot.service.info(table_id)
        if info.status != "playing":
            return info, moves
        status = bot.fake.last_message(GROUP)
        bob_turns = [m for m in bot.fake.messages(BOB) if "Your turn in Coins" in m.shown]
        movers = [s for s in info.seats if s.seat in info.to_act and s.user_id is not None]
        assert movers, "with no AI delay, only people can be waiting"
        mover = movers[0].user_id
        assert mover is not None
        if mover == BOB:
            live = [m for m in bob_turns if not m.deleted]
            assert len(live) == 1
            assert live[0].button("Open table")["url"] == f"https://t.me/{BOT_USERNAME}/{SHORT_NAME}?startapp={table_id}"
            assert "Card night" in live[0].shown
            assert "Your turn, Ann" not in status.shown
        else:
            assert all(m.deleted for m in bob_turns)
            assert "Your turn, Ann." in status.shown
            assert f'<a href="tg://user?id={ANN}">Ann</a>' in status.text
        view = await bot.service.view(table_id, mover)
        await bot.service.act(table_id, mover, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
        moves[mover] += 1


async def test_coins_game_from_new_to_summary_in_a_group(bot: Harness) -> None:
    fake = bot.fake
    fake.add_user(ANN, "Ann")
    fake.add_user(BOB, "Bob")

    await bot.send(fake.message(GROUP, ANN, "/new coins target=3"))
    [lobby] = fake.messages(GROUP)
    table_id = await bot.table_id()
    assert [b["text"] for b in lobby.buttons] == LOBBY_BUTTONS
    assert lobby.button("Join")["callback_data"] == f"j:{table_id}"
    assert lobby.button("Open table")["url"] == f"https://t.me/{BOT_USERNAME}/{SHORT_NAME}?startapp={table_id}"
    assert "Coins" in lobby.shown and "Target score: 3" in lobby.shown
    assert "1. Ann (host)" in lobby.shown and "2. free seat" in lobby.shown

    # Bob joins from the group without ever having started the bot: he is sent to its Start button.
    join = await bot.send(fake.press(BOB, lobby, "Join"))
    deep_link = f"https://t.me/{BOT_USERNAME}?start=t_{table_id}"
    answer = fake.answer_to(join)
    assert answer is not None and answer["url"] == deep_link
    assert "2. Bob — tap here, then Start, to get turn messages" in lobby.shown
    assert f'<a href="{deep_link}">' in lobby.text

    await bot.send(fake.message(BOB, BOB, f"/start t_{table_id}"))
    [hello] = fake.messages(BOB)
    assert "You have a seat at Coins" in hello.shown
    assert hello.button("Open table")["url"] == f"https://t.me/{BOT_USERNAME}/{SHORT_NAME}?startapp={table_id}"
    assert "2. Bob\n" in lobby.shown  # the steer link is gone for Bob, still there for Ann
    assert "1. Ann (host) — tap here" in lobby.shown

    await bot.send(fake.press(ANN, lobby, "Add AI"))
    assert "3. 🤖 Ada (AI)" in lobby.shown
    start = await bot.send(fake.press(ANN, lobby, "Start"))
    answer = fake.answer_to(start)
    assert answer is not None
    assert answer["text"] == "Dealt! Open the table to play."
    assert [b["text"] for b in lobby.buttons] == ["Open table"]
    assert "playing" in lobby.shown

    info, moves = await play_human_turns(bot, table_id)

    assert info.status == "finished" and info.result is not None
    assert max(info.result["scores"]) >= 3
    messages = fake.messages(GROUP)
    assert len(messages) == 2, "a lobby/status message and the summary: never a message per move"
    status, summary = messages
    assert status.message_id == lobby.message_id and status.deleted
    assert not summary.deleted
    winner = info.seats[info.result["winners"][0]].name
    assert f"{winner} wins!" in summary.shown
    for seat in info.seats:
        assert f"{seat.name}: {info.result['scores'][seat.seat]}" in summary.shown
    assert info.seed is not None and info.seed in summary.shown
    assert summary.button("Rematch")["callback_data"] == f"r:{table_id}"

    bob_turns = [m for m in fake.messages(BOB) if "Your turn in Coins" in m.shown]
    # One message per turn, except when Bob's turn came straight back (he won a trick and leads).
    assert 1 <= len(bob_turns) <= moves[BOB] and all(m.deleted for m in bob_turns)
    assert fake.messages(ANN) == []  # never started the bot: nothing private was even tried to succeed
    assert fake.count_429 == 0

    await bot.send(fake.message(BOB, BOB, "/stats"))
    won = 1 if info.seat_of(BOB) in info.result["winners"] else 0
    assert f"Coins: played 1, won {won}" in fake.last_message(BOB).shown

    menus = sorted((c.params["scope"]["type"], c.params.get("language_code") or "")
                   for c in fake.calls_to("setMyCommands"))
    assert menus == sorted((scope, language) for scope in ("all_group_chats", "all_private_chats")
                           for language in ("", "ko", "lv", "ru"))  # one menu per scope and language
