"""Every bad input gets a clear answer and changes nothing: no table, seat, option or message moves."""

from __future__ import annotations

from typing import Any

from tests.bot.conftest import ANN, BOB, CID, DAN, GROUP, Harness
from tests.fakes.botapi import FakeMessage


async def new_lobby(bot: Harness, *joiners: int) -> tuple[FakeMessage, str]:
    """A Coins lobby opened by Ann in the group, with ``joiners`` seated."""
    for user, name in ((ANN, "Ann"), (BOB, "Bob"), (CID, "Cid"), (DAN, "Dan")):
        bot.fake.add_user(user, name)
    await bot.send(bot.fake.message(GROUP, ANN, "/new"))
    lobby = bot.fake.last_message(GROUP)
    for user in joiners:
        await bot.send(bot.fake.press(user, lobby, "Join"))
    return lobby, await bot.table_id()


async def snapshot(bot: Harness, table_id: str, lobby: FakeMessage) -> tuple[Any, ...]:
    """What must not change: the table, and the group's messages with their edits."""
    info = (await bot.service.info(table_id)).as_dict()
    return info, lobby.text, len(lobby.edits), len(bot.fake.messages(GROUP))


def answer_text(bot: Harness, update: dict[str, Any]) -> str:
    answer = bot.fake.answer_to(update)
    assert answer is not None, "every press is answered"
    return str(answer.get("text"))


async def test_new_refuses_an_unknown_game(bot: Harness) -> None:
    await bot.send(bot.fake.message(GROUP, ANN, "/new poker"))
    reply = bot.fake.last_message(GROUP)
    assert "There is no game called 'poker'" in reply.plain
    assert "coins (Coins)" in reply.plain
    assert await bot.service.store.tables.unfinished_tables() == []


async def test_new_refuses_bad_options(bot: Harness) -> None:
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins target=500"))
    assert "target must be a whole number from 1 to 99" in bot.fake.last_message(GROUP).plain
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins target"))
    assert "I did not understand 'target'; options look like target=15." in bot.fake.last_message(GROUP).plain
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins colour=red"))
    assert "Unknown setting 'colour'" in bot.fake.last_message(GROUP).plain
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins ai=strong"))  # every setting it takes is named
    assert ("Unknown setting 'ai'; the settings are: target, first_dealer, players, timer, ai_level."
            in bot.fake.last_message(GROUP).plain)
    assert await bot.service.store.tables.unfinished_tables() == []


async def test_join_is_refused_when_the_table_is_full(bot: Harness) -> None:
    lobby, table_id = await new_lobby(bot, BOB, CID)
    before = await snapshot(bot, table_id, lobby)
    press = await bot.send(bot.fake.press(DAN, lobby, "Join"))
    assert answer_text(bot, press) == "This table is full."
    assert await snapshot(bot, table_id, lobby) == before


async def test_join_is_refused_when_already_seated(bot: Harness) -> None:
    lobby, table_id = await new_lobby(bot, BOB)
    before = await snapshot(bot, table_id, lobby)
    press = await bot.send(bot.fake.press(BOB, lobby, "Join"))
    assert answer_text(bot, press) == "You already have a seat at this table."
    assert await snapshot(bot, table_id, lobby) == before


async def test_join_is_refused_when_the_game_has_started(bot: Harness) -> None:
    lobby, table_id = await new_lobby(bot, BOB)
    join_data = lobby.button("Join")["callback_data"]
    await bot.send(bot.fake.press(ANN, lobby, "Start"))
    before = await snapshot(bot, table_id, lobby)
    stale = await bot.send(bot.fake.callback_query(DAN, lobby, join_data))  # a Join pressed on an old screen
    assert answer_text(bot, stale) == "The game has already started."
    assert await snapshot(bot, table_id, lobby) == before
    await bot.send(bot.fake.message(GROUP, DAN, "/join"))
    assert bot.fake.last_message(GROUP).plain == "There is no open table here; start one with /new."


async def test_start_add_ai_and_options_are_refused_for_anyone_but_the_host(bot: Harness) -> None:
    lobby, table_id = await new_lobby(bot, BOB)
    before = await snapshot(bot, table_id, lobby)
    start = await bot.send(bot.fake.press(BOB, lobby, "Start"))
    assert answer_text(bot, start) == "Only the host can do that."
    add_ai = await bot.send(bot.fake.press(BOB, lobby, "Add AI"))
    assert answer_text(bot, add_ai) == "Only the host can do that."
    options = await bot.send(bot.fake.press(BOB, lobby, "Options"))
    assert answer_text(bot, options) == "Only the host can change the options."
    forged = await bot.send(bot.fake.callback_query(BOB, lobby, f"v:{table_id}:0:1"))
    assert answer_text(bot, forged) == "Only the host can change the options."
    assert await snapshot(bot, table_id, lobby) == before


async def test_forged_or_stale_button_data_is_answered_and_changes_nothing(bot: Harness) -> None:
    lobby, table_id = await new_lobby(bot, BOB)
    await bot.send(bot.fake.message(GROUP, CID, "/new"))
    other = bot.fake.last_message(GROUP)
    other_id = await bot.table_id()
    assert other_id != table_id
    before = await snapshot(bot, table_id, lobby)
    cases = {
        "zz": "That button is not one of mine, or it is out of date.",
        "j:": "That button is not one of mine, or it is out of date.",
        f"q:{table_id}": "That button is not one of mine, or it is out of date.",
        f"j:{table_id}:1": "That button is not one of mine, or it is out of date.",
        "j:NoSuchTable": "There is no such table.",
        f"s:{other_id}": "That button does not belong to this table's message.",  # another table's data
        f"v:{table_id}:99:0": "That option is no longer offered.",
        f"v:{table_id}:0:99": "That option is no longer offered.",
    }
    for data, expected in cases.items():
        press = await bot.send(bot.fake.callback_query(ANN, lobby, data))
        assert answer_text(bot, press) == expected, data
    assert await snapshot(bot, table_id, lobby) == before
    assert (await bot.service.info(other_id)).status == "lobby"
    assert len(other.edits) == 0


async def test_commands_in_the_wrong_kind_of_chat_get_a_pointer(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann")
    await bot.send(bot.fake.message(GROUP, ANN, "/settings"))
    assert bot.fake.last_message(GROUP).plain == (
        "Your settings are private: send /settings to me in a private chat.")
    await bot.send(bot.fake.message(GROUP, ANN, "/start"))
    assert bot.fake.last_message(GROUP).plain == "Send /start to me in a private chat; in a group, use /new."
    await bot.send(bot.fake.message(ANN, ANN, "/join"))
    assert bot.fake.last_message(ANN).plain == "Use /join in the group where the table is."
    await bot.send(bot.fake.message(GROUP, ANN, "/cancel"))
    assert bot.fake.last_message(GROUP).plain == "There is no table to cancel here."
    assert await bot.service.store.tables.unfinished_tables() == []


async def test_cancel_is_refused_for_a_player_who_is_neither_host_nor_admin(bot: Harness) -> None:
    lobby, table_id = await new_lobby(bot, BOB)
    before = await snapshot(bot, table_id, lobby)
    await bot.send(bot.fake.message(GROUP, BOB, "/cancel"))
    assert bot.fake.last_message(GROUP).plain == "Only the host or a group admin can cancel a table."
    info, text, edits, _count = await snapshot(bot, table_id, lobby)
    assert (info, text, edits) == before[:3]

    bot.fake.set_admin(GROUP, BOB)
    await bot.send(bot.fake.message(GROUP, BOB, "/cancel"))
    assert (await bot.service.info(table_id)).status == "abandoned"
    assert "this table was cancelled" in lobby.plain and lobby.buttons == []


async def test_a_cancel_button_naming_another_chats_table_is_refused_whatever_rights_the_presser_has_here(
    bot: Harness,
) -> None:
    theirs, table_id = await new_lobby(bot)  # Ann's lobby in the group, where Bob is no admin
    other = GROUP - 7
    bot.fake.set_admin(other, BOB)
    await bot.send(bot.fake.message(other, BOB, "/new coins"))
    await bot.send(bot.fake.message(other, BOB, "/new coins"))
    await bot.send(bot.fake.message(other, BOB, "/cancel"))  # Bob, admin here, is asked which of his two
    picker = bot.fake.last_message(other)
    data = picker.buttons[0]["callback_data"]
    mine = next(t.id for t in await bot.service.tables_in_chat(other) if t.id in data)
    before = await snapshot(bot, table_id, theirs)
    forged = bot.fake.callback_query(BOB, picker, data.replace(mine, table_id))  # the group's table, not this chat's
    await bot.send(forged)
    assert answer_text(bot, forged) == "There is no table to cancel here."
    assert await snapshot(bot, table_id, theirs) == before
