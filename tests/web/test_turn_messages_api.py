"""GET and PUT /api/me/turn_messages: the settings sheet's switch reads and changes the person's own choice, the
one the bot's /settings changes and its notifier reads."""

from __future__ import annotations

from engine.service.tables import TableService
from tests.web.conftest import Client, signed, tma

ANN, BOB = 31, 32
PATH = "/api/me/turn_messages"


async def test_turn_messages_are_on_until_switched_off_and_stay_as_chosen(bot_client: Client,
                                                                          service: TableService) -> None:
    ann = tma(signed(ANN, "Ann"))
    first = await bot_client.get(PATH, headers=ann)
    assert first.status == 200 and await first.json() == {"on": True}  # never seen before: on

    off = await bot_client.put(PATH, headers=ann, json={"on": False})
    assert off.status == 200 and await off.json() == {"on": False}
    assert (await (await bot_client.get(PATH, headers=ann)).json()) == {"on": False}
    person = await service.people.person(ANN)
    assert person is not None and person.notify is False and person.name == "Ann"
    bob = await bot_client.get(PATH, headers=tma(signed(BOB, "Bob")))
    assert await bob.json() == {"on": True}, "each person's own switch"

    on = await bot_client.put(PATH, headers=ann, json={"on": True})
    assert await on.json() == {"on": True} and await service.people.wants_turn_messages(ANN)


async def test_the_switch_needs_a_sign_in_and_a_yes_or_no(bot_client: Client, service: TableService) -> None:
    assert (await bot_client.get(PATH)).status == 401
    unsigned = await bot_client.put(PATH, json={"on": False})
    assert unsigned.status == 401
    for body in ({"on": "no"}, {"on": 0}, {}):
        refused = await bot_client.put(PATH, headers=tma(signed(ANN)), json=body)
        assert refused.status == 400 and (await refused.json())["code"] == "bad_request"
    assert await service.people.person(ANN) is None, "nothing was written"
