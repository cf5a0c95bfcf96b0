"""Two processes on one PostgreSQL database: when the one that drives a table is gone, the other takes the table over
and sends the turn message of someone whose page was on the process that went."""

from __future__ import annotations

import time

import pytest

from engine.service.tables import TableService
from tests.bot.conftest import ANN, BOB, GROUP, Harness
from tests.bot.test_presence_processes import live_turn_messages, until
from tests.bot.test_processes import Cluster, processes
from tgbot.app import stop_bot

pytestmark = pytest.mark.postgres
__all__ = ["processes"]


async def test_reach_a_process_that_takes_a_table_over_sends_the_turn_message_due(processes: list[Harness]) -> None:
    cluster = Cluster(processes)
    fake = processes[0].fake
    for user, name in ((ANN, "Ann"), (BOB, "Bob")):
        fake.add_user(user, name)
        await cluster.deliver(fake.message(user, user, "/start"))
    await cluster.deliver(fake.message(GROUP, ANN, "/new coins target=5"))
    [lobby] = fake.messages(GROUP)
    table_id = await processes[0].table_id()
    await cluster.deliver(fake.press(BOB, lobby, "Join"))
    await cluster.deliver(fake.press(ANN, lobby, "Add AI"))
    [driver] = [bot for bot in processes if bot.service.drives(table_id)]
    [other] = [bot for bot in processes if bot is not driver]
    for user in (ANN, BOB):  # both at the table, their pages on the process that drives it
        driver.service.presence.report(table_id, user, f"phone {user}", True)
    await until(lambda: all(other.service.presence.is_present(table_id, user) for user in (ANN, BOB)))
    await cluster.deliver(fake.press(ANN, lobby, "Start"), to=driver)
    info = await driver.service.info(table_id)
    (mover,) = (s.user_id for s in info.seats if s.seat in info.to_act)
    assert mover is not None and live_turn_messages(driver, mover) == []

    gone = time.monotonic()  # the driving process ends, its sockets with it
    await stop_bot(driver.application)
    service: TableService = driver.service
    await service.close()
    processes.remove(driver)  # the fixture stops what is left
    await until(lambda: len(live_turn_messages(other, mover)) == 1, within=10)
    [sent] = [c for c in fake.calls_to("sendMessage") if int(c.params["chat_id"]) == mover and c.ok
              and "Your turn" in str(c.params["text"])]
    assert sent.time - gone < 10, "the process left takes the table over within seconds"
    assert other.service.drives(table_id)
