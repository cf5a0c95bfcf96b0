"""Telegram's signed launch data says whether the bot may write to a person (``allows_write_to_pm``): the page's
first call tells the server, so the turn messages of someone who allowed it in any Mini App reach them even if they
never started the bot."""

from __future__ import annotations

from engine.service.tables import TableService
from tests.web.conftest import Client, signed, tma

ANN, BOB = 41, 42


async def test_the_page_tells_the_server_the_bot_may_write_to_a_person_who_allowed_it(
    bot_client: Client, service: TableService
) -> None:
    assert await service.people.person(ANN) is None
    seen = await bot_client.get("/api/me", headers=tma(signed(ANN, "Ann", allows_write_to_pm=True)))
    assert seen.status == 200
    ann = await service.people.person(ANN)
    assert ann is not None and ann.can_message and ann.name == "Ann"

    await bot_client.get("/api/me", headers=tma(signed(BOB, "Bob")))  # Telegram does not say so: nothing learnt
    await bot_client.get("/api/me", headers=tma(signed(BOB, "Bob", allows_write_to_pm="yes")))  # not a true
    bob = await service.people.person(BOB)
    assert bob is None or not bob.can_message


async def test_launch_data_without_the_flag_never_takes_back_what_the_bot_knows(
    bot_client: Client, service: TableService
) -> None:
    await service.people.remember(ANN, "Ann")
    await service.people.set_can_message(ANN, True)  # she started the bot
    await bot_client.get("/api/me", headers=tma(signed(ANN, "Ann", allows_write_to_pm=False)))
    ann = await service.people.person(ANN)
    assert ann is not None and ann.can_message
    assert await service.people.allowed_messages(ANN, "Ann") is False  # already known: nothing written
