"""Invitations from any chat: ``@bot`` in a private chat between two friends lists the games, the chosen one
opens a table that lives in that one message (edited by inline_message_id), and a friend who never started the
bot joins from it."""

from __future__ import annotations

from typing import Any

import pytest

from engine.service.live import TableInfo
from engine.service.tables import TableService
from tests.bot.conftest import ANN, BOB, CID, GROUP, Harness, make_harness
from tests.bot.friends import choose, refused
from tests.fakes.botapi import Chosen
from tests.fakes.botapi.model import shown as strip_isolates
from tgbot.app import stop_bot
from tgbot.callbacks import Verb, button_data

GAMES_EN = ["Coins", "Sergeant Major (3-5-8)", "Kings in the Corner"]
GAMES_RU = ["Монеты", "Сержант-майор (3-5-8)", "Короли в углах"]


@pytest.fixture
async def bot(service: TableService) -> Any:
    harness = await make_harness(service)
    harness.fake.set_inline_mode(True, feedback=True)
    harness.fake.user_starts_bot(ANN, "Ann")
    harness.fake.add_user(BOB, "Bob")  # Ann's friend: he never started the bot
    await harness.send(harness.fake.message(ANN, ANN, "/start"))
    yield harness
    await stop_bot(harness.application)
    await harness.fake.close()


async def ask(bot: Harness, user_id: int, text: str = "", *, chat: int | None = BOB) -> dict[str, Any]:
    """``user_id`` types ``@bot text`` in their chat with ``chat``; the bot's answer."""
    query = await bot.send(bot.fake.inline_query(user_id, text, chat=chat))
    answer = bot.fake.inline_answer(query)
    assert answer is not None, "every inline query is answered"
    return {"query": query, **answer}


async def invite(bot: Harness, result_id: str, *, user_id: int = ANN) -> Chosen:
    """``user_id`` chooses one result in their chat with Bob; Telegram's updates about it reach the bot."""
    answer = await ask(bot, user_id)
    chosen = bot.fake.choose_inline_result(answer["query"], result_id)
    for update in chosen.updates:
        await bot.send(update)
    assert chosen.inline_message_id is not None
    return chosen


async def the_table(bot: Harness, host: int) -> str:
    [info] = [t for t in await bot.service.tables_of(host) if t.chat_id is None]
    return info.id


async def play_out(bot: Harness, table_id: str) -> TableInfo:
    """The two friends play to the end (each move straight through the service), then all is shown."""
    service = bot.service
    while (info := await service.info(table_id)).status == "playing":
        [seat] = info.to_act
        user_id = info.seats[seat].user_id
        assert user_id is not None, "two friends, no AI player"
        view = await service.view(table_id, user_id)
        await service.act(table_id, user_id, choose(view["state"]["legal"]), view["seq"])
    await bot.settle()
    return info


async def test_inline_query_lists_the_three_games_in_the_askers_language(bot: Harness) -> None:
    bot.fake.add_user(CID, "Сид", language_code="ru")
    bot.fake.user_starts_bot(CID)

    english, russian = await ask(bot, ANN), await ask(bot, CID)

    assert [r["title"] for r in english["results"]] == GAMES_EN
    assert [r["title"] for r in russian["results"]] == GAMES_RU
    assert [r["id"] for r in english["results"]] == ["g:coins", "g:sergeant_major", "g:kings_corner"]
    assert russian["results"][0]["description"].startswith("Три игрока")
    assert "Ann invites you to play." in strip_isolates(english["results"][2]["input_message_content"]["message_text"])
    assert (english["is_personal"], english["cache_time"]) == (True, 5)
    for result in english["results"]:
        assert [b["text"] for b in result["reply_markup"]["inline_keyboard"][0]] == ["Join", "Open table"]
    assert [b["text"] for b in russian["results"][0]["reply_markup"]["inline_keyboard"][0]] == [
        "Присоединиться", "Открыть стол"]
    invitation = strip_isolates(russian["results"][0]["input_message_content"]["message_text"])
    assert "Сид приглашает тебя сыграть." in invitation


async def test_inline_query_follows_the_language_chosen_with_the_bot(bot: Harness) -> None:
    await bot.send(bot.fake.message(ANN, ANN, "/language"))
    await bot.service.people.choose_language(ANN, "Ann", "ru")
    bot.application.bot_data.languages.pop(ANN, None)

    answer = await ask(bot, ANN, "kings")

    assert [r["title"] for r in answer["results"]] == ["Короли в углах"]


async def test_friends_play_kings_in_the_corner_in_their_private_chat(bot: Harness) -> None:
    fake, service = bot.fake, bot.service
    chosen = await invite(bot, "g:kings_corner")
    inline_id = chosen.inline_message_id
    assert inline_id is not None

    table_id = await the_table(bot, ANN)
    info = await service.info(table_id)
    assert (info.game, info.host_user_id, info.status, info.chat_id) == ("kings_corner", ANN, "lobby", None)
    message = fake.inline_message(inline_id)  # one message, edited in place: its texts so far are its edits
    lobby = message.shown
    assert "new table" in lobby and "Ann (host)" in lobby
    assert message.button("Join")["callback_data"] == button_data(Verb.JOIN, table_id)
    assert message.button("Open table")["url"] == f"https://t.me/cardroom_test_bot/play?startapp={table_id}"

    await bot.send(fake.press_inline(BOB, inline_id, "Join"))  # Bob never started the bot
    info = await service.info(table_id)
    assert info.seat_of(BOB) is not None
    [joined] = [c for c in fake.calls_to("answerCallbackQuery") if c.params.get("url")]
    assert joined.params["url"] == f"https://t.me/cardroom_test_bot?start=t_{table_id}"
    assert "Bob" in message.shown

    await bot.send(fake.press_inline(ANN, inline_id, "Start"))
    status = message.shown
    assert (await service.info(table_id)).status == "playing"
    assert "playing" in status and "new table" not in status
    assert [b["text"] for b in message.buttons] == ["Open table"]
    info = await play_out(bot, table_id)

    assert info.status == "finished"
    assert "game over" in message.shown and "Ann" in message.shown and "Bob" in message.shown
    assert [b["text"] for b in message.buttons] == ["Rematch"]
    shown = [strip_isolates(e.plain) for e in message.edits]
    assert "Ann invites you to play" in shown[0]
    assert shown.index(lobby) < shown.index(status)
    assert not message.deleted
    edits = [c for c in fake.calls if c.method.startswith("edit")]
    assert edits and all(c.params.get("inline_message_id") == inline_id and "chat_id" not in c.params for c in edits)
    sent = [c for c in fake.calls if c.method in ("sendMessage", "deleteMessage")]
    assert all(int(c.params["chat_id"]) == ANN for c in sent), "only Ann's own turn messages, in her chat with the bot"
    assert fake.messages(GROUP) == [] and fake.messages(BOB) == []
    assert refused(bot) == []


async def test_first_join_opens_the_table_when_telegram_sends_no_chosen_result(bot: Harness) -> None:
    fake, service = bot.fake, bot.service
    fake.set_inline_mode(True, feedback=False)
    chosen = await invite(bot, "g:coins")
    inline_id = chosen.inline_message_id
    assert inline_id is not None and chosen.updates == []
    assert await service.tables_of(ANN) == [] and fake.inline_message(inline_id).edits == []

    await bot.send(fake.press_inline(ANN, inline_id, "Join"))
    await bot.send(fake.press_inline(BOB, inline_id, "Join"))

    table_id = await the_table(bot, ANN)
    info = await service.info(table_id)
    assert (info.game, info.host_user_id) == ("coins", ANN)
    assert [s.user_id for s in info.seats] == [ANN, BOB, None]
    assert "Ann (host)" in fake.inline_message(inline_id).shown and "Bob" in fake.inline_message(inline_id).shown
    await bot.send(fake.press_inline(ANN, inline_id, "Add AI"))
    assert (await service.info(table_id)).seats[2].is_ai


async def test_a_second_invitation_of_one_person_opens_a_second_table(bot: Harness) -> None:
    first, second = await invite(bot, "g:coins"), await invite(bot, "g:coins")

    tables = [t for t in await bot.service.tables_of(ANN) if t.chat_id is None]

    assert len(tables) == 2 and first.inline_message_id != second.inline_message_id
    for chosen in (first, second):
        assert chosen.inline_message_id is not None
        assert "new table" in bot.fake.inline_message(chosen.inline_message_id).shown


async def test_own_open_table_is_offered_and_moves_into_the_invitation(bot: Harness) -> None:
    info = await bot.service.create_table("coins", ANN, "Ann")  # opened in the Mini App: no message yet

    answer = await ask(bot, ANN)
    [mine] = [r for r in answer["results"] if r["id"] == f"t:{info.id}"]
    assert mine["title"] == "Your table: Coins" and mine["description"].startswith("1 of 3 seats taken.")
    chosen = bot.fake.choose_inline_result(answer["query"], mine["id"])
    for update in chosen.updates:
        await bot.send(update)

    assert chosen.inline_message_id is not None
    message = bot.fake.inline_message(chosen.inline_message_id)
    assert message.button("Join")["callback_data"] == button_data(Verb.JOIN, info.id)
    await bot.send(bot.fake.press_inline(BOB, chosen.inline_message_id, "Join"))
    assert (await bot.service.info(info.id)).seat_of(BOB) == 1


@pytest.mark.parametrize("text", ["chess", "x" * 256, "  <b>&amp;  "])
async def test_inline_query_nobody_can_match_gets_every_game_and_says_so(bot: Harness, text: str) -> None:
    answer = await ask(bot, ANN, text)

    assert [r["title"] for r in answer["results"]] == GAMES_EN
    assert answer["button"]["text"].startswith("No game called “")
    assert answer["button"]["text"].endswith("”. Here are all of them.")
    assert len(answer["button"]["text"]) < 64 and answer["button"]["start_parameter"] == "help"
    assert refused(bot) == []


async def test_forged_presses_on_an_inline_message_change_nothing(bot: Harness) -> None:
    fake, service = bot.fake, bot.service
    table_chosen, other = await invite(bot, "g:kings_corner"), await invite(bot, "g:coins")
    assert table_chosen.inline_message_id is not None and other.inline_message_id is not None
    tables = {t.game: t.id for t in await service.tables_of(ANN)}
    kings = tables["kings_corner"]
    before = (await service.info(kings), fake.inline_message(table_chosen.inline_message_id).shown)
    instance = fake.inline._instances[other.inline_message_id]

    for data in (button_data(Verb.START, kings), button_data(Verb.ADD_AI, kings), button_data(Verb.LEAVE, kings),
                 "i:chess", "s:" + "x" * 40, "hello"):
        await bot.send(fake.builder.inline_callback_query(ANN, other.inline_message_id, instance, data))

    after = (await service.info(kings), fake.inline_message(table_chosen.inline_message_id).shown)
    assert after == before and after[0].status == "lobby" and after[0].seat_of(ANN) == 0
    assert len(await service.tables_of(ANN)) == 2
    answers = [c.params.get("text") for c in fake.calls_to("answerCallbackQuery")]
    assert answers.count("That button does not belong to this table's message.") == 3
    assert all(answers) and refused(bot) == []


async def test_rematch_opens_in_the_same_inline_message_and_waits_for_friends(bot: Harness) -> None:
    fake, service = bot.fake, bot.service
    chosen = await invite(bot, "g:kings_corner")
    inline_id = chosen.inline_message_id
    assert inline_id is not None
    table_id = await the_table(bot, ANN)
    await bot.send(fake.press_inline(BOB, inline_id, "Join"))
    await bot.send(fake.press_inline(ANN, inline_id, "Start"))
    await play_out(bot, table_id)

    await bot.send(fake.press_inline(BOB, inline_id, "Rematch"))

    [fresh] = [t for t in await service.tables_of(BOB) if t.id != table_id]
    assert (fresh.rematch_of, fresh.host_user_id, fresh.status) == (table_id, BOB, "lobby")
    message = fake.inline_message(inline_id)
    assert "new table" in message.shown and "Invited: Ann" in message.shown
    assert message.button("Join")["callback_data"] == button_data(Verb.JOIN, fresh.id)
    await bot.send(fake.press_inline(ANN, inline_id, "Join"))
    assert (await service.info(fresh.id)).seat_of(ANN) is not None
    assert fake.messages(BOB) == [] and refused(bot) == []


async def test_a_join_racing_the_chosen_result_opens_one_table(bot: Harness) -> None:
    fake, service = bot.fake, bot.service
    answer = await ask(bot, ANN)
    chosen = fake.choose_inline_result(answer["query"], "g:kings_corner")
    assert chosen.inline_message_id is not None
    press = fake.press_inline(BOB, chosen.inline_message_id, "Join")  # the invitation's own Join, before any edit

    for update in (press, *chosen.updates):
        await fake.send_update(update)
    await bot.settle()

    [info] = [t for t in await service.tables_of(BOB) if t.chat_id is None]
    assert info.game == "kings_corner" and {s.user_id for s in info.seats} == {ANN, BOB}
    assert len([t for t in await service.tables_of(ANN) if t.chat_id is None]) == 1
    assert fake.inline_message(chosen.inline_message_id).button("Join")["callback_data"] == button_data(
        Verb.JOIN, info.id)


async def test_without_feedback_the_hosts_first_join_moves_their_open_table_into_the_invitation(
    bot: Harness,
) -> None:
    fake, service = bot.fake, bot.service
    fake.set_inline_mode(True, feedback=False)
    info = await service.create_table("sergeant_major", ANN, "Ann")
    chosen = await invite(bot, f"t:{info.id}")
    assert chosen.inline_message_id is not None

    await bot.send(fake.press_inline(BOB, chosen.inline_message_id, "Join"))  # a guest's press only seats him
    assert (await service.info(info.id)).seat_of(BOB) == 1
    assert fake.inline_message(chosen.inline_message_id).edits == []
    await bot.send(fake.press_inline(ANN, chosen.inline_message_id, "Join"))  # the host's settles the table there

    message = fake.inline_message(chosen.inline_message_id)
    assert "new table" in message.shown and "Bob" in message.shown
    assert message.button("Start")["callback_data"] == button_data(Verb.START, info.id)
