"""Two processes on one PostgreSQL database: a person at the table on one gets no turn message from the other.

The process that drives a table sends its turn messages; the person's page may hold its
socket on the other process. Each process tells the other who comes to and leaves its
tables, so the driving process knows the person is at the table, sends nothing while they
are, and sends the turn message once they have been away for the grace.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from tests.bot.conftest import ANN, BOB, GROUP, Harness
from tests.bot.test_processes import Cluster, processes
from tgbot.notifier import AWAY_GRACE

pytestmark = pytest.mark.postgres
__all__ = ["processes"]


async def until(check: Callable[[], bool], within: float = 5.0) -> None:
    """Wait (up to ``within`` seconds) until ``check`` holds: the notices cross between the processes."""
    for _ in range(int(within / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never held")


def live_turn_messages(bot: Harness, user: int) -> list[str]:
    return [m.plain for m in bot.fake.messages(user) if "Your turn" in m.plain and not m.deleted]


async def test_a_person_at_the_table_on_one_process_gets_no_turn_message_from_the_other(
    processes: list[Harness],
) -> None:
    cluster = Cluster(processes)
    fake = processes[0].fake
    fake.add_user(ANN, "Ann")
    fake.add_user(BOB, "Bob")
    for user in (ANN, BOB):
        await cluster.deliver(fake.message(user, user, "/start"))
    await cluster.deliver(fake.message(GROUP, ANN, "/new coins target=1"))
    [lobby] = fake.messages(GROUP)
    table_id = await processes[0].table_id()
    await cluster.deliver(fake.press(BOB, lobby, "Join"))
    [driver] = [bot for bot in processes if bot.service.drives(table_id)]
    [other] = [bot for bot in processes if bot is not driver]
    for user in (ANN, BOB):  # both at the table, on the process that does not drive it
        other.service.presence.report(table_id, user, f"phone {user}", True)
    await until(lambda: all(driver.service.presence.is_present(table_id, user) for user in (ANN, BOB)))
    await cluster.deliver(fake.press(ANN, lobby, "Start"))

    info = await driver.service.info(table_id)
    (mover,) = (s.user_id for s in info.seats if s.seat in info.to_act)
    assert mover is not None
    await cluster.settle()
    await asyncio.sleep(0.3)  # the driving process had every chance to send it
    await cluster.settle()
    assert live_turn_messages(driver, mover) == [], "at the table on the other process: no turn message"

    other.service.presence.report(table_id, mover, f"phone {mover}", False)  # leaves, on the other process
    await until(lambda: not driver.service.presence.is_present(table_id, mover))
    await until(lambda: len(live_turn_messages(driver, mover)) == 1, within=AWAY_GRACE + 5)

    other.service.presence.report(table_id, mover, f"phone {mover}", True)  # back: the message is removed
    await until(lambda: live_turn_messages(driver, mover) == [])


async def test_a_process_that_says_hello_learns_who_is_at_the_tables_of_the_others(processes: list[Harness]) -> None:
    first, second = (bot.service for bot in processes)
    first.presence.report("t1", ANN, "phone", True)
    await until(lambda: second.presence.is_present("t1", ANN))
    second.presence.forget_remote()  # as after a lost connection: what the others said is forgotten
    assert not second.presence.is_present("t1", ANN)
    await second.peers._conn.execute("SELECT pg_notify('cardroom_presence', $1)",  # type: ignore[attr-defined]
                                     f"{second.peers.origin}|hello")
    await until(lambda: second.presence.is_present("t1", ANN))
    await first.peers.close()  # the first says bye on its way out
    await until(lambda: not second.presence.is_present("t1", ANN))
