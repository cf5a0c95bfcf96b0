"""GET /readyz: ready only when the database answers at the newest schema and the bot runs or is off."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from engine.config import Settings
from engine.service.tables import TableService
from tests.fakes.botapi import FakeBotApi
from tests.fakes.tcp_proxy import TcpProxy
from tests.postgres import database as database
from tests.web.conftest import Client, ClientFactory
from tgbot.app import BotRunner
from webapp.app import make_app
from webapp.keys import BOT


async def test_readyz_is_200_when_the_database_answers_and_the_bot_is_off(client: Client) -> None:
    resp = await client.get("/readyz")
    assert (resp.status, await resp.json()) == (200, {"ready": True})
    assert (await client.get("/healthz")).status == 200


async def test_readyz_is_503_once_the_process_is_shutting_down(client: Client) -> None:
    await client.app.shutdown()  # what SIGTERM starts: a proxy stops sending new requests here
    resp = await client.get("/readyz")
    assert (resp.status, await resp.json()) == (503, {"ready": False, "problems": {"process": "shutting down"}})


async def test_readyz_is_503_naming_the_database_when_it_cannot_be_opened(
    client: Client, service: TableService, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    gone = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'no such dir' / 'cardroom.db'}")
    monkeypatch.setattr(service.store.writer, "engine", gone)
    resp = await client.get("/readyz")
    body = await resp.json()
    assert resp.status == 503 and body["ready"] is False
    assert set(body["problems"]) == {"database"} and "OperationalError" in body["problems"]["database"]
    assert (await client.get("/healthz")).status == 200, "alive all the same"
    monkeypatch.undo()
    await gone.dispose()
    assert (await client.get("/readyz")).status == 200


async def test_readyz_is_503_while_migrations_are_behind(client: Client, service: TableService) -> None:
    engine = service.store.writer.engine
    async with engine.begin() as conn:
        head = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
        await conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    resp = await client.get("/readyz")
    problems = (await resp.json())["problems"]
    assert resp.status == 503 and "migrations not done" in problems["database"] and head in problems["database"]
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE alembic_version SET version_num = :head"), {"head": head})
    assert (await client.get("/readyz")).status == 200


async def test_readyz_waits_for_the_bot_to_start(
    service: TableService, aiohttp_client: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", "1")
    monkeypatch.setattr(BotRunner, "FIRST_DELAY", 0.2)
    async with FakeBotApi(bot_username="cardroom_test_bot") as fake:
        fake.inject_fault("getMe", "server_error", status=502)
        settings = Settings(bot_token=fake.token, bot_api_base_url=fake.base_url, webapp_url="https://cards.example",
                            webhook_secret="s3cret", data_dir=tmp_path)
        client: Client = await aiohttp_client(make_app(settings, service=service))
        resp = await client.get("/readyz")
        body = await resp.json()
        assert resp.status == 503 and set(body["problems"]) == {"bot"}
        assert body["problems"]["bot"].startswith(("the bot is starting", "the bot is retrying"))
        await client.app[BOT].bot_data.runner.started.wait()
        assert (await client.get("/readyz")).status == 200
        samples = (await (await client.get("/metrics")).text()).splitlines()
        # the Bot API calls the bot made at its start, by method and result, as the fake answered them
        assert 'cardroom_bot_api_calls_total{method="getMe",result="error"} 1.0' in samples
        assert 'cardroom_bot_api_calls_total{method="getMe",result="ok"} 1.0' in samples
        webhooks = sum(1 for call in fake.calls_to("setWebhook") if call.ok)
        assert f'cardroom_bot_api_calls_total{{method="setWebhook",result="ok"}} {webhooks:.1f}' in samples


@pytest.mark.postgres
async def test_readyz_is_503_while_postgresql_is_out_of_reach_and_200_once_it_is_back(
    database: str, make_own_client: ClientFactory, settings: Settings,
) -> None:
    async with TcpProxy.before(database) as proxy:
        client = await make_own_client(replace(settings, database_url=proxy.url_through(database)))
        assert (await client.get("/readyz")).status == 200
        await proxy.cut()  # every connection dropped, new ones refused: a database server restarting
        resp = await client.get("/readyz")
        problems = (await resp.json())["problems"]
        assert resp.status == 503 and set(problems) == {"database"} and "127.0.0.1" not in problems["database"]
        await proxy.restore()
        async with asyncio.timeout(10):  # the pool's next connection works again
            while (await client.get("/readyz")).status != 200:  # noqa: ASYNC110 (polling the endpoint under test)
                await asyncio.sleep(0.05)
        await client.close()
