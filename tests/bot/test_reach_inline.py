"""Reaching a friend who never started the bot at a table that lives in an inline message: no group to mention
in, so the table's message names whoever is away on their turn, and only them."""

from __future__ import annotations

from tests.bot.conftest import ANN, BOB, Harness
from tests.bot.friends import choose
from tests.bot.test_inline_invitations import bot as bot


async def test_reach_an_inline_tables_message_names_only_whoever_is_away_on_their_turn(bot: Harness) -> None:
    fake, service = bot.fake, bot.service
    bot.application.bot_data.notifier.grace = 0.2
    query = await bot.send(fake.inline_query(ANN, "", chat=BOB))  # Ann invites Bob from their private chat
    chosen = fake.choose_inline_result(query, "g:kings_corner")  # a game of two
    assert chosen.inline_message_id is not None
    message = fake.inline_message(chosen.inline_message_id)
    for update in chosen.updates:
        await bot.send(update)
    [info] = [t for t in await service.tables_of(ANN) if t.chat_id is None]
    await bot.send(fake.press_inline(BOB, chosen.inline_message_id, "Join"))
    service.presence.report(info.id, ANN, "ann's phone", True)  # Ann plays at the table; Bob never opens it
    await bot.send(fake.press_inline(ANN, chosen.inline_message_id, "Start"))
    named_bob = cleared = 0
    for _ in range(60):
        await bot.settle()
        now = await service.info(info.id)
        if now.status != "playing":
            break
        movers = [s.user_id for s in now.seats if s.seat in now.to_act]
        if BOB in movers:
            assert "Your turn, Bob." in message.shown, "he is away on his turn: the table's message names him"
            assert f'<a href="tg://user?id={BOB}">' in message.text
            assert "Tap here, then Start so I can message you when it is your turn." in message.shown
            assert "https://t.me/cardroom_test_bot?start=" in message.text, "how to get turn messages"
            named_bob += 1
        else:
            assert "Your turn" not in message.shown and "▶️ Bob" not in message.shown, "his turn is over"
            cleared += 1
        [mover] = movers
        assert mover is not None
        view = await service.view(info.id, mover)
        await service.act(info.id, mover, choose(view["state"]["legal"]), view["seq"])
    assert named_bob >= 2 and cleared >= 2
    assert fake.messages(BOB) == [], "never started: nothing private, and no group to mention him in"
