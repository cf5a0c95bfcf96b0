"""Options, private games with real web_app buttons, /settings, /stats, /rules, /help and Rematch."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram import Update

from engine.service.tables import TableService
from tests.bot.conftest import ANN, BOB, GROUP, Harness, make_harness
from tgbot.app import stop_bot


@pytest.fixture
async def public_bot(service: TableService) -> AsyncIterator[Harness]:
    """The bot with a public https page: a webhook is set and updates arrive on the update queue."""
    harness = await make_harness(service, webapp_url="https://cards.example")
    yield harness
    await stop_bot(harness.application)
    await harness.fake.close()


async def push(bot: Harness, update: dict[str, Any]) -> None:
    """What the web process's webhook route does with a delivered update, then wait until all is quiet."""
    application = bot.application
    update = {"update_id": 10_000 + len(bot.processed), **update}
    bot.pushed.add(int(update["update_id"]))
    await application.update_queue.put(Update.de_json(update, application.bot))
    await bot.settle()


async def test_options_keyboard_changes_settings_for_the_host(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann")
    await bot.send(bot.fake.message(GROUP, ANN, "/new"))
    lobby, table_id = bot.fake.last_message(GROUP), await bot.table_id()
    await bot.send(bot.fake.press(ANN, lobby, "Options"))
    labels = [b["text"] for b in lobby.buttons]
    assert labels == ["Target score: 10", "First dealer: Random", "Turn timer: None", "AI players: Easy", "Done"]
    await bot.send(bot.fake.press(ANN, lobby, "Turn timer: None"))
    assert (await bot.service.info(table_id)).timer == "live"
    assert "Turn timer: 60 seconds a move" in [b["text"] for b in lobby.buttons]
    await bot.send(bot.fake.press(ANN, lobby, "Target score: 10"))
    assert (await bot.service.info(table_id)).options["target_score"] == 15
    assert "Target score: 15" in lobby.plain
    await bot.send(bot.fake.press(ANN, lobby, "Done"))
    assert [b["text"] for b in lobby.buttons] == ["Join", "Leave", "Add AI", "Options", "Start", "Open table"]


async def test_options_keyboard_offers_every_ai_level_and_the_ai_added_plays_at_it(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann")
    await bot.send(bot.fake.message(GROUP, ANN, "/new sergeant"))
    lobby, table_id = bot.fake.last_message(GROUP), await bot.table_id()
    await bot.send(bot.fake.press(ANN, lobby, "Options"))
    await bot.send(bot.fake.press(ANN, lobby, "AI players: Easy"))
    assert (await bot.service.info(table_id)).ai_level == "strong"
    assert "AI players: Strong" in [b["text"] for b in lobby.buttons]
    await bot.send(bot.fake.press(ANN, lobby, "Done"))
    assert "AI players: Strong" in lobby.plain  # the group sees the level the empty seats will play at
    await bot.send(bot.fake.press(ANN, lobby, "Add AI"))
    row = await bot.service.store.tables.load_table(table_id)
    assert row is not None and [s.ai_level for s in row.seats if s.is_ai] == ["strong"]
    await bot.send(bot.fake.press(ANN, lobby, "Options"))
    await bot.send(bot.fake.press(ANN, lobby, "AI players: Strong"))  # two levels: the next press goes round
    assert (await bot.service.info(table_id)).ai_level == "easy"


async def test_new_in_a_private_chat_starts_a_game_against_ai_with_a_web_app_button(public_bot: Harness) -> None:
    bot = public_bot
    assert bot.fake.webhook["url"] == "https://cards.example/telegram/webhook"
    assert bot.fake.webhook["secret_token"] == "s3cret" == bot.application.bot_data.webhook_secret
    await push(bot, bot.fake.message(ANN, ANN, "/new"))
    [table] = await bot.service.tables_of(ANN)
    assert table.status == "playing" and [s.is_ai for s in table.seats] == [False, True, True]
    message = bot.fake.last_message(ANN)
    assert message.button("Open table")["web_app"] == {"url": f"https://cards.example/?table={table.id}"}
    assert "Coins" in message.plain


async def test_group_lobby_links_to_the_mini_app_not_a_web_app_button(public_bot: Harness) -> None:
    bot = public_bot
    await push(bot, bot.fake.message(GROUP, ANN, "/new kings players=4"))
    lobby, table_id = bot.fake.last_message(GROUP), await bot.table_id()
    assert (await bot.service.info(table_id)).size == 4
    assert lobby.button("Open table") == {
        "text": "Open table", "url": f"https://t.me/cardroom_test_bot/play?startapp={table_id}"}
    assert "Kings in the Corner" in lobby.plain


async def test_settings_turns_messages_off_and_on(bot: Harness) -> None:
    await bot.send(bot.fake.message(ANN, ANN, "/settings"))
    panel = bot.fake.last_message(ANN)
    assert "I message you when it is your turn." in panel.plain
    await bot.send(bot.fake.press(ANN, panel, "Turn messages: on"))
    assert (await bot.service.store.people.user_settings(ANN) or {})["notify"] is False
    assert "I do not message you" in panel.plain
    await bot.send(bot.fake.press(ANN, panel, "Turn messages: off"))
    assert (await bot.service.store.people.user_settings(ANN) or {})["notify"] is True


async def test_stats_rules_and_help_answer_in_a_few_lines(bot: Harness) -> None:
    await bot.send(bot.fake.message(BOB, BOB, "/stats"))
    assert "No finished games yet." in bot.fake.last_message(BOB).plain
    await bot.send(bot.fake.message(BOB, BOB, "/rules"))
    rules = bot.fake.last_message(BOB).plain
    assert "Coins by Mark Steere" in rules
    assert "Cups beat Coins, Coins beat Swords, Swords beat Clubs, Clubs beat Cups" in rules
    await bot.send(bot.fake.message(BOB, BOB, "/rules sergeant_major"))
    assert "8 tricks" in bot.fake.last_message(BOB).plain
    await bot.send(bot.fake.message(GROUP, BOB, "/rules kings"))
    assert "alternating colours" in bot.fake.last_message(GROUP).plain
    await bot.send(bot.fake.message(GROUP, BOB, "/rules chess"))
    assert "There is no game called 'chess'" in bot.fake.last_message(GROUP).plain
    await bot.send(bot.fake.message(GROUP, BOB, "/help"))  # Bob wrote to the bot: the help goes to him privately
    assert "/new [game]" in bot.fake.last_message(BOB).plain
    assert "/new [game]" not in bot.fake.last_message(GROUP).plain


async def test_rematch_opens_a_new_lobby_with_the_same_settings(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann")
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins target=1"))
    lobby, table_id = bot.fake.last_message(GROUP), await bot.table_id()
    await bot.send(bot.fake.press(ANN, lobby, "Start"))
    await bot.send(bot.fake.message(GROUP, ANN, "/leave"))  # an AI plays Ann's seat to the end
    await bot.settle()
    assert (await bot.service.info(table_id)).status == "finished"
    summary = next(m for m in bot.fake.messages(GROUP) if "game over" in m.plain)  # "You left" may come after it
    await bot.send(bot.fake.press(BOB, summary, "Rematch"))
    fresh_id = await bot.table_id()
    fresh = await bot.service.info(fresh_id)
    assert fresh_id != table_id and fresh.status == "lobby" and fresh.host_user_id == BOB
    assert fresh.options["target_score"] == 1
    assert "Target score: 1" in bot.fake.last_message(GROUP).plain
