"""Web fixtures: the app on aiohttp's test client, in local mode or with a test bot token, and sign-in helpers."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from engine.config import Settings
from engine.service.tables import TableService
from webapp.app import TEMPLATES_DIR, make_app
from webapp.auth import sign_init_data

TEST_TOKEN = "123456:TEST-token-for-the-web-tests"
PLACEHOLDER = Path(__file__).parent / "placeholder"
Client = TestClient[Any, Any]
ClientFactory = Callable[..., Awaitable[Client]]


def templates_dir() -> Path:
    """The real page template once it exists, else a minimal stand-in with the same context."""
    return TEMPLATES_DIR if (TEMPLATES_DIR / "app.html").is_file() else PLACEHOLDER


def signed(user_id: int, first_name: str = "Ann", *, token: str = TEST_TOKEN, age: int = 0, **user: Any) -> str:
    """initData for a user, signed with ``token`` ``age`` seconds ago."""
    return sign_init_data(token, {"id": user_id, "first_name": first_name, **user}, int(time.time()) - age)


def tma(init_data: str) -> dict[str, str]:
    """The Authorization header for initData."""
    return {"Authorization": f"tma {init_data}"}


@pytest.fixture
def bot_settings(settings: Settings) -> Settings:
    """Settings with a (test) bot token: Telegram mode, local sign-in off."""
    return replace(settings, bot_token=TEST_TOKEN, bot_username="cardroom_test_bot", initdata_max_age=3600)


@pytest.fixture
def make_client(aiohttp_client: Any, service: TableService) -> ClientFactory:
    """Start the app for some settings on the test client (the bot itself is never started)."""

    async def make(settings: Settings, **kwargs: Any) -> Client:
        kwargs.setdefault("templates_dir", templates_dir())
        client: Client = await aiohttp_client(make_app(settings, service=service, bot=False, **kwargs))
        return client

    return make


@pytest.fixture
def make_own_client(aiohttp_client: Any) -> ClientFactory:
    """Start the app as ``python -m webapp`` does, its table service and store built from the settings (no bot)."""

    async def make(settings: Settings, **kwargs: Any) -> Client:
        kwargs.setdefault("templates_dir", templates_dir())
        client: Client = await aiohttp_client(make_app(settings, bot=False, **kwargs))
        return client

    return make


@pytest.fixture
async def client(make_client: ClientFactory, settings: Settings) -> Client:
    """The app in local mode."""
    return await make_client(settings)


@pytest.fixture
async def bot_client(make_client: ClientFactory, bot_settings: Settings) -> Client:
    """The app with a bot token."""
    return await make_client(bot_settings)


async def local_signin(client: Client, name: str) -> tuple[str, int]:
    """Sign in locally; the initData and the new user's id."""
    resp = await client.post("/api/local/signin", json={"name": name})
    assert resp.status == 200, await resp.text()
    body = await resp.json()
    return body["init_data"], body["user"]["id"]
