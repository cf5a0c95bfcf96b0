"""POST /api/tables/{id}/invite: the Mini App's Invite button gets an invitation prepared by the bot, or a clear no."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from engine.config import Settings
from engine.service.tables import TableService
from tests.fakes.botapi import FakeBotApi
from tests.web.conftest import Client, ClientFactory, signed, templates_dir, tma
from webapp.app import make_app
from webapp.keys import BOT

os.environ.setdefault("PTB_TIMEDELTA", "1")

ANN, BOB = 11, 12


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi(bot_username="cardroom_inv_bot", inline=True, inline_feedback=True) as started:
        started.user_starts_bot(ANN, "Ann")
        started.add_user(BOB, "Bob")
        yield started


@pytest.fixture
async def bot_web(fake: FakeBotApi, settings: Settings, service: TableService, aiohttp_client: Any) -> Client:
    """The web app with its bot running against the fake Telegram (the username comes from getMe).

    The app is started last so it stops first: its bot is done with the service and the fake before they close.
    """
    with_bot = replace(settings, bot_token=fake.token, bot_api_base_url=fake.base_url, miniapp_short_name="play",
                       webapp_url="http://cards.test", initdata_max_age=3600)
    app = make_app(with_bot, service=service, templates_dir=templates_dir())
    client: Client = await aiohttp_client(app)
    await app[BOT].bot_data.runner.started.wait()  # type: ignore[attr-defined]
    return client


async def test_invite_is_refused_without_sign_in(bot_client: Client, service: TableService) -> None:
    info = await service.create_table("coins", ANN, "Ann")

    response = await bot_client.post(f"/api/tables/{info.id}/invite")

    assert response.status == 401
    assert (await response.json())["code"] == "unauthorized"


async def test_invite_without_a_bot_is_refused_in_the_readers_language(bot_client: Client,
                                                                       service: TableService) -> None:
    info = await service.create_table("coins", ANN, "Ann")

    english = await bot_client.post(f"/api/tables/{info.id}/invite", headers=tma(signed(ANN)))
    russian = await bot_client.post(f"/api/tables/{info.id}/invite",
                                    headers=tma(signed(ANN, language_code="ru")))

    assert english.status == russian.status == 503
    said, translated = await english.json(), await russian.json()
    assert said == {"code": "no_bot", "message": "Invitations need the bot, and it is not running here."}
    assert translated["code"] == "no_bot" and translated["message"] != said["message"]
    assert any("а" <= letter <= "я" for letter in translated["message"])


async def test_invite_in_local_mode_is_refused(make_client: ClientFactory, settings: Settings,
                                               service: TableService) -> None:
    client = await make_client(settings)
    signin = await client.post("/api/local/signin", json={"name": "Ann"})
    body = await signin.json()
    info = await service.create_table("coins", body["user"]["id"], "Ann")

    response = await client.post(f"/api/tables/{info.id}/invite", headers=tma(body["init_data"]))

    assert response.status == 503 and (await response.json())["code"] == "no_bot"


async def test_invite_prepares_the_tables_invitation_and_sharing_it_makes_that_message_the_table(
    bot_web: Client, service: TableService, fake: FakeBotApi
) -> None:
    info = await service.create_table("kings_corner", ANN, "Ann")

    response = await bot_web.post(f"/api/tables/{info.id}/invite", headers=tma(signed(ANN, token=fake.token)))

    assert response.status == 200, await response.text()
    body = await response.json()
    assert body["link"] == f"https://t.me/cardroom_inv_bot/play?startapp={info.id}"
    prepared = fake.prepared_messages[body["id"]]
    assert (prepared.user_id, prepared.allowed) == (ANN, frozenset({"user", "bot", "group"}))
    assert body["expires"] == prepared.expiration_date
    [save] = fake.calls_to("savePreparedInlineMessage")
    assert save.params["result"]["id"] == f"t:{info.id}"

    chosen = fake.share_prepared_message(body["id"], ANN, chat=BOB)  # the page's shareMessage, sent to Bob
    for update in chosen.updates:
        await fake.send_update(update)
    assert chosen.inline_message_id is not None
    inline_id = chosen.inline_message_id
    await fake.wait_until(lambda: "new table" in fake.inline_message(inline_id).plain)
    await fake.send_update(fake.press_inline(BOB, inline_id, "Join"))
    await fake.wait_until(lambda: "Bob" in fake.inline_message(inline_id).plain)
    assert (await service.info(info.id)).seat_of(BOB) == 1
    assert fake.calls_to("sendMessage") == []


async def test_invite_is_only_for_someone_seated_at_a_table_still_in_its_lobby(bot_web: Client, service: TableService,
                                                               fake: FakeBotApi) -> None:
    info = await service.create_table("coins", ANN, "Ann")

    response = await bot_web.post(f"/api/tables/{info.id}/invite", headers=tma(signed(BOB, "Bob", token=fake.token)))
    missing = await bot_web.post("/api/tables/nope/invite", headers=tma(signed(ANN, token=fake.token)))

    await service.add_ai(info.id, ANN)
    await service.start_game(info.id, ANN)
    started = await bot_web.post(f"/api/tables/{info.id}/invite", headers=tma(signed(ANN, token=fake.token)))

    assert response.status == 403 and (await response.json())["code"] == "not_seated"
    assert missing.status == 404
    assert started.status == 409 and (await started.json())["code"] == "already_started"
    assert fake.prepared_messages == {}


async def test_invite_when_telegram_refuses_still_gives_the_link(bot_web: Client, service: TableService,
                                                                 fake: FakeBotApi) -> None:
    info = await service.create_table("coins", ANN, "Ann")
    fake.inject_fault("savePreparedInlineMessage", "server_error", times=None)

    response = await bot_web.post(f"/api/tables/{info.id}/invite", headers=tma(signed(ANN, token=fake.token)))

    assert response.status == 503
    body = await response.json()
    assert body["code"] == "invite_failed"
    assert body["link"] == f"https://t.me/cardroom_inv_bot/play?startapp={info.id}"
