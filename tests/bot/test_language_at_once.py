"""A language chosen takes effect at once: a person's choice in the Mini App reaches the bot's next answer, and a
group's /language reaches the next message of a table already open there."""

from __future__ import annotations

from typing import Any

from engine.i18n import gettext_for
from tests.bot.conftest import ANN, BOB, GROUP, Harness
from tests.web.conftest import signed, templates_dir, tma
from webapp.app import make_app


async def test_the_bot_answers_in_the_language_chosen_in_the_page_at_once(bot: Harness, aiohttp_client: Any) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="en")
    bot.fake.world.start(ANN)
    await bot.send(bot.fake.message(ANN, ANN, "/stats"))  # the bot reads her choice: none yet
    assert "No finished games yet." in bot.fake.last_message(ANN).plain
    page = await aiohttp_client(make_app(bot.settings, service=bot.service, bot=False, templates_dir=templates_dir()))
    ann = tma(signed(ANN, "Ann", token=bot.settings.bot_token or "", language_code="en"))
    chosen = await page.post("/api/me/language", json={"language": "lv"}, headers=ann)
    assert chosen.status == 200, await chosen.text()
    await bot.send(bot.fake.message(ANN, ANN, "/stats"))  # the very next message, well within the minute
    lv = gettext_for("lv")("No finished games yet.")
    assert lv != "No finished games yet." and lv in bot.fake.last_message(ANN).plain
    await page.post("/api/me/language", json={"language": "ko"}, headers=ann)
    await bot.send(bot.fake.message(ANN, ANN, "/stats"))
    assert gettext_for("ko")("No finished games yet.") in bot.fake.last_message(ANN).plain


async def test_a_groups_new_language_reaches_the_next_message_of_its_open_table(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="en")
    bot.fake.add_user(BOB, "Bob", language_code="en")
    bot.fake.world.owners[GROUP] = ANN
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins"))  # an English group's table
    lobby = bot.fake.last_message(GROUP)
    assert [b["text"] for b in lobby.buttons][:2] == ["Join", "Leave"]
    await bot.send(bot.fake.message(GROUP, ANN, "/language"))
    await bot.send(bot.fake.press(ANN, bot.fake.last_message(GROUP), "Русский"))
    ru = gettext_for("ru")
    assert [b["text"] for b in lobby.buttons][:2] == [ru("Join"), ru("Leave")] != ["Join", "Leave"]
    assert lobby.plain.startswith(f"🃏 {ru('Coins')} — ")
    await bot.send(bot.fake.press(BOB, lobby, ru("Join")))  # the table's next message: Russian too
    await bot.send(bot.fake.press(ANN, lobby, ru("Start")))
    table_id = await bot.table_id()
    info = await bot.service.info(table_id)
    assert info.status == "playing"
    posted = [m for m in bot.fake.messages(GROUP) if not m.deleted and table_id in str(m.reply_markup)]
    assert posted and all("Coins" not in m.plain for m in posted)
