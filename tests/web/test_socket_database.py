"""A database that fails on a socket's path is answered in words (``unavailable``), never by a bare drop."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import asyncpg
import pytest
from aiohttp import WSMsgType
from sqlalchemy import exc

from engine.config import Settings
from engine.core.errors import Refusal, RefusalCode
from engine.i18n import refusal_text
from engine.service.tables import TableService
from tests.web.conftest import Client, ClientFactory
from tests.web.sockets import Peer, connect
from webapp.keys import VERIFIER

ANN = 7
SWITCH = "cannot switch to state 15; another operation (2) is in progress"
FAILURES: dict[str, Callable[[], BaseException]] = {
    "asyncpg_state": lambda: asyncpg.InternalClientError(SWITCH),
    "wrapped_asyncpg_state": lambda: exc.InternalError("SELECT", {}, asyncpg.InternalClientError(SWITCH)),
    "connection_reset": lambda: ConnectionResetError(104, "Connection reset by peer"),
    "sqlite_io": lambda: exc.OperationalError("SELECT", {}, sqlite3.OperationalError("disk I/O error")),
}


def _failing(make: Callable[[], BaseException]) -> Callable[..., Any]:
    async def fail(*_args: Any, **_kwargs: Any) -> Any:
        raise make()
    return fail


async def _unloaded_table(service: TableService) -> str:
    """A lobby hosted by Ann that is only in the store: opening it loads it."""
    table_id = (await service.create_table("coins", ANN, "Ann")).id
    kept, service.max_loaded = service.max_loaded, 0
    await service.heal()
    service.max_loaded = kept
    assert service.tables() == []
    return table_id


async def _hello(client: Client, table_id: str, lang: str) -> Peer:
    peer = Peer(await client.ws_connect(f"/ws/{table_id}", headers={"Cookie": f"cardroom_lang={lang}"}))
    await peer.send({"type": "hello", "init_data": _ann(client), "last_seq": None})
    return peer


def _ann(client: Client) -> str:
    return str(client.app[VERIFIER].sign({"id": ANN, "first_name": "Ann"}))


async def _closed(peer: Peer) -> int | None:
    msg = await peer.ws.receive(timeout=3)
    assert msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING), msg
    return peer.ws.close_code


@pytest.mark.parametrize("failure", FAILURES, ids=list(FAILURES))
async def test_a_table_the_database_fails_to_load_is_answered_unavailable_in_words(
    make_client: ClientFactory, settings: Settings, service: TableService, monkeypatch: pytest.MonkeyPatch,
    failure: str,
) -> None:
    client = await make_client(settings)
    table_id = await _unloaded_table(service)
    monkeypatch.setattr(service.store.tables, "load_table", _failing(FAILURES[failure]))
    peer = await _hello(client, table_id, "ru")
    error = await peer.receive()
    unavailable = Refusal(RefusalCode.UNAVAILABLE)
    assert error == {"type": "error", "code": "unavailable", "message": refusal_text(unavailable, "ru")}
    assert error["message"] != refusal_text(unavailable, "en")
    assert await _closed(peer) == 1013  # try again later
    monkeypatch.undo()
    again, welcome = await connect(client, table_id, _ann(client))  # a moment later it works
    assert welcome["you"] == 0
    await again.close()


async def test_a_bug_while_loading_a_table_is_answered_in_words_not_dropped(
    make_client: ClientFactory, settings: Settings, service: TableService, monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = await make_client(settings)
    table_id = await _unloaded_table(service)
    monkeypatch.setattr(service.store.tables, "load_table", _failing(lambda: RuntimeError("a bug")))
    peer = await _hello(client, table_id, "en")
    error = await peer.receive()
    assert (error["type"], error["code"]) == ("error", "server_error")
    assert await _closed(peer) == 1011


async def test_a_lobby_intent_the_database_fails_is_refused_unavailable_and_the_socket_stays(
    make_client: ClientFactory, settings: Settings, service: TableService, monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = await make_client(settings)
    table_id = (await service.create_table("coins", ANN, "Ann")).id
    peer, _ = await connect(client, table_id, _ann(client))
    monkeypatch.setattr(service.store.tables, "save_table", _failing(FAILURES["wrapped_asyncpg_state"]))
    await peer.send({"type": "lobby", "ref": "r1", "op": "add_ai", "changes": {}})
    refused = await peer.until(lambda f: f["type"] == "refused")
    assert (refused["ref"], refused["code"]) == ("r1", "unavailable")
    await peer.send({"type": "ping", "t": 1})
    assert await peer.until(lambda f: f["type"] == "pong") == {"type": "pong", "t": 1}
    await peer.close()
