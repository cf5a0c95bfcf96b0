"""A friend who joined with the group's Join and never started the bot allows messages in the Mini App: the page
reports Telegram's yes, and the bot's turn message reaches him privately on his next turn."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.bot.conftest import ANN, BOB, GROUP, Harness
from tests.fakes.botapi import Call
from tests.web.conftest import signed, templates_dir, tma
from webapp.app import make_app

GRACE = 0.2


def turn_sends(bot: Harness) -> list[Call]:
    return [c for c in bot.fake.calls_to("sendMessage") if c.ok and int(c.params["chat_id"]) == BOB
            and "Your turn in Coins" in str(c.params.get("text"))]


async def until_bobs_turn(bot: Harness, table_id: str) -> None:
    """Ann (at the table) and the AI play until it is Bob's turn."""
    for _ in range(60):
        await bot.settle()
        info = await bot.service.info(table_id)
        [seat] = info.to_act
        if info.seats[seat].user_id == BOB:
            return
        assert info.seats[seat].user_id == ANN
        view = await bot.service.view(table_id, ANN)
        await bot.service.act(table_id, ANN, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
    raise AssertionError("never Bob's turn")


async def test_write_access_granted_in_the_page_brings_the_turn_message_on_the_next_turn(
    bot: Harness, aiohttp_client: Any
) -> None:
    fake, service = bot.fake, bot.service
    notifier = bot.application.bot_data.notifier
    notifier.grace, notifier.mentions.after = GRACE, 60.0  # no mention in the group within this test
    fake.add_user(ANN, "Ann")
    fake.add_user(BOB, "Bob")
    await bot.send(fake.message(ANN, ANN, "/start"))  # Bob never starts the bot
    await bot.send(fake.message(GROUP, ANN, "/new coins target=99"))
    table_id = await bot.table_id()
    lobby = fake.messages(GROUP)[0]
    await bot.send(fake.press(BOB, lobby, "Join"))
    await bot.send(fake.press(ANN, lobby, "Add AI"))
    service.presence.report(table_id, ANN, "phone", True)  # Ann plays at the table; Bob is away
    await bot.send(fake.press(ANN, lobby, "Start"))

    await until_bobs_turn(bot, table_id)
    await asyncio.sleep(GRACE + 0.3)
    await bot.settle()
    assert turn_sends(bot) == [], "the bot may not write to him yet"

    # he opens the table, Telegram asks whether the bot may write to him, he allows it: his page says so
    fake.world.start(BOB)  # Telegram now lets the bot write to him (its own service message is not needed)
    page = await aiohttp_client(make_app(bot.settings, service=service, bot=False, templates_dir=templates_dir()))
    bob = tma(signed(BOB, "Bob", token=bot.settings.bot_token or ""))
    allowed = await page.post("/api/me/write_access", json={"status": "allowed"}, headers=bob)
    assert allowed.status == 200, await allowed.text()
    view = await service.view(table_id, BOB)
    await service.act(table_id, BOB, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])

    await until_bobs_turn(bot, table_id)
    await fake.wait_until(lambda: bool(turn_sends(bot)), within=5)
    [sent] = turn_sends(bot)
    assert [m for m in fake.messages(BOB) if "Your turn in Coins" in m.plain and not m.deleted]
    assert sent.status == 200
