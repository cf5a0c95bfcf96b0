"""GET and POST /api/me/write_access: the page learns whether the bot may message the person who opened it (never
anyone else), and reports Telegram's yes to its request, which marks that person reachable for the bot's turn
messages; a call without a sign-in or with a body that is not Telegram's yes changes nothing."""

from __future__ import annotations

from engine.service.tables import TableService
from tests.web.conftest import Client, signed, tma

ANN, BOB = 51, 52
PATH = "/api/me/write_access"


async def test_write_access_flag_is_the_callers_own(bot_client: Client, service: TableService) -> None:
    await service.people.remember(BOB, "Bob")
    await service.people.set_can_message(BOB, True)  # Bob started the bot; Ann never did
    ann = await bot_client.get(PATH, headers=tma(signed(ANN, "Ann")))
    assert ann.status == 200 and await ann.json() == {"can_message": False}
    bob = await bot_client.get(PATH, headers=tma(signed(BOB, "Bob")))
    assert await bob.json() == {"can_message": True}
    assert await (await bot_client.get(PATH, headers=tma(signed(ANN, "Ann")))).json() == {"can_message": False}


async def test_write_access_counts_launch_data_that_says_the_bot_may_write(bot_client: Client,
                                                                           service: TableService) -> None:
    seen = await bot_client.get(PATH, headers=tma(signed(ANN, "Ann", allows_write_to_pm=True)))
    assert await seen.json() == {"can_message": True}
    assert await service.people.can_message(ANN)


async def test_write_access_allowed_marks_the_caller_reachable(bot_client: Client, service: TableService) -> None:
    ann = tma(signed(ANN, "Ann"))
    allowed = await bot_client.post(PATH, headers=ann, json={"status": "allowed"})
    assert allowed.status == 200 and await allowed.json() == {"can_message": True}
    person = await service.people.person(ANN)
    assert person is not None and person.can_message and person.name == "Ann"
    assert await (await bot_client.get(PATH, headers=ann)).json() == {"can_message": True}
    assert not await service.people.can_message(BOB), "only the caller"
    again = await bot_client.post(PATH, headers=ann, json={"status": "allowed"})
    assert again.status == 200 and await again.json() == {"can_message": True}


async def test_write_access_refuses_a_call_without_sign_in_and_changes_nothing(bot_client: Client,
                                                                               service: TableService) -> None:
    unsigned = await bot_client.post(PATH, json={"status": "allowed"})
    assert unsigned.status == 401
    assert (await unsigned.json())["code"] == "unauthorized" and (await unsigned.json())["message"]
    forged = await bot_client.post(PATH, headers=tma(signed(ANN, "Ann", token="999:not-this-bot")),
                                   json={"status": "allowed"})
    assert forged.status == 401 and (await forged.json())["message"]
    assert (await bot_client.get(PATH)).status == 401
    assert await service.people.person(ANN) is None, "nothing was written"


async def test_write_access_refuses_anything_but_telegrams_yes_and_changes_nothing(bot_client: Client,
                                                                                   service: TableService) -> None:
    ann = tma(signed(ANN, "Ann"))
    for body in ({"status": "cancelled"}, {"status": True}, {"status": "ALLOWED"}, {}, {"allowed": True}):
        refused = await bot_client.post(PATH, headers=ann, json=body)
        assert refused.status == 400, body
        error = await refused.json()
        assert error["code"] == "bad_request" and error["message"] == "That request was not understood."
    not_json = await bot_client.post(PATH, headers={**ann, "Content-Type": "application/json"}, data=b"[1, 2]")
    assert not_json.status == 400
    assert await service.people.person(ANN) is None, "nothing was written"
    assert await (await bot_client.get(PATH, headers=ann)).json() == {"can_message": False}
