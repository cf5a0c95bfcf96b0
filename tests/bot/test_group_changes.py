"""A group that changes under its tables: /leave at two tables at once, and a basic group upgraded to a supergroup
while a table is still a lobby, told by the service message or first by Telegram refusing a write."""

from __future__ import annotations

from typing import Any

from tests.bot.conftest import ANN, BOB, CID, GROUP, Harness
from tests.bot.friends import Friends, choose, open_table, refused
from tests.fakes.botapi import FakeMessage

BASIC = -4201
MOVED = int(f"-100{abs(BASIC)}")  # the id the fake gives the supergroup
UPGRADED = "Bad Request: group chat was upgraded to a supergroup chat"


async def people(bot: Harness, *user_ids: int) -> None:
    for user_id, name in zip(user_ids, ("Ann", "Bob", "Cid"), strict=False):
        bot.fake.add_user(user_id, name)
        await bot.send(bot.fake.message(user_id, user_id, "/start"))


async def lobby_in(bot: Harness, chat_id: int, host: int, game: str = "coins") -> tuple[FakeMessage, str]:
    await bot.send(bot.fake.message(chat_id, host, f"/new {game}"))
    lobby = bot.fake.last_message(chat_id)
    return lobby, lobby.button("Join")["callback_data"].split(":")[1]


def posted(bot: Harness, chat_id: int) -> list[FakeMessage]:
    """The bot's messages in a chat that are still there (not Telegram's service messages)."""
    return [m for m in bot.fake.messages(chat_id) if not m.deleted and m.service is None]


def answers(bot: Harness) -> list[Any]:
    return [c.params.get("text") for c in bot.fake.calls_to("answerCallbackQuery")]


async def test_leave_at_two_tables_asks_which_and_leaves_only_the_one_picked(bot: Harness) -> None:
    await people(bot, ANN, BOB)
    coins_lobby, coins_id = await lobby_in(bot, GROUP, ANN, "coins")
    kings_lobby, kings_id = await lobby_in(bot, GROUP, ANN, "kings")
    for lobby in (coins_lobby, kings_lobby):
        await bot.send(bot.fake.press(BOB, lobby, "Join"))

    await bot.send(bot.fake.message(GROUP, BOB, "/leave"))
    question = bot.fake.last_message(GROUP)
    assert "Which table?" in question.shown
    assert [b["text"] for b in question.buttons] == ["Kings in the Corner", "Coins"]  # names alone differ
    assert (await bot.service.info(coins_id)).seat_of(BOB) == 1  # asking changed nothing
    assert (await bot.service.info(kings_id)).seat_of(BOB) == 1

    await bot.send(bot.fake.press(BOB, question, "Kings in the Corner"))
    assert answers(bot)[-1] == "You left the table."
    assert (await bot.service.info(kings_id)).seat_of(BOB) is None
    assert (await bot.service.info(coins_id)).seat_of(BOB) == 1
    assert "Bob" not in kings_lobby.shown and "Bob" in coins_lobby.shown

    await bot.send(bot.fake.press(BOB, question, "Kings in the Corner"))  # pressed again
    assert answers(bot)[-1] == "You do not have a seat at this table."
    assert (await bot.service.info(coins_id)).seat_of(BOB) == 1

    await bot.send(bot.fake.message(GROUP, BOB, "/leave"))  # one table left: no question
    assert (await bot.service.info(coins_id)).seat_of(BOB) is None
    assert "You left the table." in bot.fake.last_message(GROUP).shown
    assert refused(bot) == []


async def test_a_lobby_follows_its_group_to_the_supergroup_where_join_and_cancel_find_it(bot: Harness) -> None:
    await people(bot, ANN, BOB)
    bot.fake.add_group(BASIC, "Kitchen table", chat_type="group")
    old_lobby, table_id = await lobby_in(bot, BASIC, ANN)

    for update in bot.fake.migrate_group(BASIC):
        await bot.send(update)
    assert (await bot.service.info(table_id)).chat_id == MOVED
    [lobby] = posted(bot, MOVED)  # posted again where the group lives now
    assert lobby.button("Join")["callback_data"] == f"j:{table_id}"

    await bot.send(bot.fake.message(MOVED, BOB, "/join"))
    assert (await bot.service.info(table_id)).seat_of(BOB) == 1
    assert "2. Bob" in lobby.shown and "Bob" not in old_lobby.shown  # the old group's copy is left as it was

    await bot.send(bot.fake.message(MOVED, ANN, "/cancel"))
    assert (await bot.service.info(table_id)).status == "abandoned"
    assert "cancelled" in lobby.shown
    assert refused(bot) == []


async def test_telegram_refusing_a_write_to_the_old_group_moves_the_table_before_the_service_message(
    bot: Harness,
) -> None:
    await people(bot, ANN, BOB, CID)
    bot.fake.add_group(BASIC, "Kitchen table", chat_type="group")
    _old_lobby, table_id = await lobby_in(bot, BASIC, ANN)
    told_later = bot.fake.migrate_group(BASIC)  # upgraded; the bot has not heard of it yet

    await bot.service.join(table_id, BOB, "Bob")  # from the Mini App: the lobby's edit in the old group is refused
    await bot.settle()
    assert [(method, status) for method, status, _ in refused(bot)] == [("editMessageText", 400)]
    assert refused(bot)[0][2] == UPGRADED
    assert (await bot.service.info(table_id)).chat_id == MOVED
    [lobby] = posted(bot, MOVED)
    assert "2. Bob" in lobby.shown

    for update in told_later:  # the service messages arrive after all: nothing moves twice, nothing is posted again
        await bot.send(update)
    assert [m.message_id for m in posted(bot, MOVED)] == [lobby.message_id]
    await bot.send(bot.fake.message(MOVED, CID, "/join"))
    assert (await bot.service.info(table_id)).seat_of(CID) == 2 and "3. Cid" in lobby.shown
    assert len(refused(bot)) == 1


async def test_a_game_that_ends_as_its_group_is_upgraded_says_game_over_in_the_supergroup(bot: Harness) -> None:
    """The last move comes after the upgrade but before the bot hears of it: the summary is refused in the old
    group, and must still reach the supergroup (where the group now lives), once."""
    friends = Friends((ANN, BOB, CID, 4204))
    bot.fake.add_group(BASIC, "Kitchen table", chat_type="group")
    table_id = await open_table(bot, friends, BASIC)
    service = bot.service
    told_later: list[Any] = []
    while (info := await service.info(table_id)).status == "playing":
        await bot.settle()
        [seat] = info.to_act
        user_id = info.seats[seat].user_id
        assert user_id is not None
        view = await service.view(table_id, user_id)
        action = choose(view["state"]["legal"])
        snapshot = service.snapshot(table_id)
        assert snapshot is not None
        ends, _events = snapshot.game.apply(snapshot.state, seat, action)
        if snapshot.game.outcome(ends) is not None:
            told_later = bot.fake.migrate_group(BASIC)  # upgraded just now; the bot has not heard of it yet
        await service.act(table_id, user_id, action, view["seq"])
    await bot.settle()

    assert told_later, "the group was upgraded before the last move"
    assert UPGRADED in [said for _method, _status, said in refused(bot)]
    [summary] = [m for m in posted(bot, MOVED) if table_id in str(m.reply_markup)]
    assert "game over" in summary.shown
    [left] = [m for m in bot.fake.messages(BASIC) if table_id in str(m.reply_markup)]
    assert "playing" in left.shown  # the status stays behind in the old group, which the bot can no longer change
    for update in told_later:  # the service messages arrive after all: nothing is posted again
        await bot.send(update)
    await bot.settle()
    assert [m.message_id for m in posted(bot, MOVED) if table_id in str(m.reply_markup)] == [summary.message_id]
