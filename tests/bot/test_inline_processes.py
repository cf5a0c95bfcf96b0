"""A table invited to from any chat, on two processes sharing one PostgreSQL database: whichever process got
Telegram's chosen result, the process that drives the table edits its one message, and a press on the invitation
reaching another process finds the same table.

The process that gets the chosen result here shows nothing itself (its notifier is stopped, as when it ends just
after opening the table): the other process learns the table with the first press that reaches it, and from the
store where the table lives.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.bot.conftest import ANN, BOB, Harness
from tests.bot.friends import choose
from tests.bot.test_processes import Cluster
from tests.bot.test_processes import processes as processes
from tests.fakes.botapi import Chosen
from tgbot.callbacks import Verb, button_data

pytestmark = pytest.mark.postgres


async def invitation(cluster: Cluster, to: Harness, game: str) -> tuple[Chosen, dict[str, object]]:
    """Ann types ``@bot`` in her chat with Bob and sends the invitation to ``game``; Bob's press of its Join, made
    before the bot has touched the message (the invitation's own button), is returned unsent."""
    fake = to.fake
    query = fake.inline_query(ANN, "", chat=BOB)
    await cluster.deliver(query, to=to)
    chosen = fake.choose_inline_result(query, f"g:{game}")
    assert chosen.inline_message_id is not None
    return chosen, fake.press_inline(BOB, chosen.inline_message_id, "Join")


async def test_the_process_driving_an_invited_table_edits_its_message_though_another_got_the_chosen_result(
    processes: list[Harness],
) -> None:
    cluster, (receiving, driving) = Cluster(processes), processes
    fake = receiving.fake
    fake.set_inline_mode(True, feedback=True)
    fake.user_starts_bot(ANN, "Ann")
    fake.add_user(BOB, "Bob")  # he never started the bot
    await receiving.application.bot_data.notifier.stop()  # the other process drives every table

    chosen, early_join = await invitation(cluster, receiving, "kings_corner")
    for update in chosen.updates:
        await cluster.deliver(update, to=receiving)
    inline_id = chosen.inline_message_id
    assert inline_id is not None

    [info] = [t for t in await driving.service.tables_of(ANN) if t.chat_id is None]
    message = fake.inline_message(inline_id)
    assert message.edits == [], "the receiving process shows nothing"

    await cluster.deliver(early_join, to=driving)  # the invitation's own Join, on the process that did not open it
    assert [t.id for t in await driving.service.tables_of(BOB) if t.chat_id is None] == [info.id]
    lobby = message.shown
    assert "new table" in lobby and "Ann (host)" in lobby and "Bob" in lobby, "edited by the driving process"
    assert message.button("Join")["callback_data"] == button_data(Verb.JOIN, info.id)

    await cluster.deliver(fake.press_inline(ANN, inline_id, "Start"), to=receiving)
    assert "playing" in message.shown and [b["text"] for b in message.buttons] == ["Open table"]
    for bot in (processes * 200):
        now = await bot.service.info(info.id)
        if now.status != "playing":
            break
        [seat] = now.to_act
        user_id = now.seats[seat].user_id
        assert user_id is not None, "two friends, no AI player"
        view = await bot.service.view(info.id, user_id)
        await bot.service.act(info.id, user_id, choose(view["state"]["legal"]), view["seq"])
        await cluster.settle()

    assert (await driving.service.info(info.id)).status == "finished"
    assert "game over" in message.shown and [b["text"] for b in message.buttons] == ["Rematch"]
    edits = [c for c in fake.calls if c.method.startswith("edit")]
    assert edits and all(c.params.get("inline_message_id") == inline_id for c in edits)
    assert await receiving.service.chats.table_in_inline(inline_id) == info.id


async def test_two_processes_opening_a_table_in_one_invitation_at_once_keep_one(processes: list[Harness]) -> None:
    cluster, (first, second) = Cluster(processes), processes
    fake = first.fake
    fake.set_inline_mode(True, feedback=True)
    fake.user_starts_bot(ANN, "Ann")
    fake.add_user(BOB, "Bob")
    chosen, early_join = await invitation(cluster, first, "coins")
    inline_id = chosen.inline_message_id
    assert inline_id is not None

    for update in chosen.updates:  # the chosen result on one process, Bob's first Join on the other, at once
        await cluster.deliver(update, to=first, settle=False)
    await cluster.deliver(early_join, to=second, settle=False)
    await asyncio.sleep(0)
    await cluster.settle()

    tables = {t.id: t for bot in processes for user in (ANN, BOB) for t in await bot.service.tables_of(user)
              if t.chat_id is None}
    [lives] = [t for t in tables.values() if t.status == "lobby"]
    assert all(t.status == "abandoned" for t in tables.values() if t.id != lives.id)
    assert lives.seat_of(BOB) is not None
    message = fake.inline_message(inline_id)
    assert message.button("Join")["callback_data"] == button_data(Verb.JOIN, lives.id)
    assert "Bob" in message.shown
