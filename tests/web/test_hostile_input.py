"""Hostile frames and bodies: each gets a specific error, never a dropped socket or a 500."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from urllib.parse import urlencode

import pytest

from engine.config import Settings
from tests.web.conftest import TEST_TOKEN, Client, ClientFactory, local_signin, tma
from tests.web.sockets import Peer, connect
from webapp.auth import data_check_string, secret_key
from webapp.protocol import JsonError, dump, error_frame, load_json, nesting_depth

DEEP = "[" * 1000 + "]" * 1000
DEEP_ACT = '{"type": "act", "ref": "r", "seq": 0, "action": {"type": "play", "x": ' + DEEP + "}}"


def test_nesting_depth_ignores_brackets_inside_strings() -> None:
    assert nesting_depth('{"a": "[[[[{{", "b": [1, {"c": "\\"]"}]}') == 3
    assert nesting_depth(DEEP) > 16


@pytest.mark.parametrize("text", [DEEP, "[" * 17 + "]" * 17, '{"a": "\\ud800"}', '{"\\udfff": 1}', b"\xff{}",
                                  '{"a": "\ud800"}'])
def test_load_json_refuses_deep_nesting_and_invalid_unicode(text: str | bytes) -> None:
    with pytest.raises(JsonError):
        load_json(text)


@pytest.mark.parametrize("text", [
    "[" * 16 + "]" * 16, '{"a": "[[[[[[[[[[[[[[[[[[[[[["}', '{"a": "\\u00e9\\ud83d\\ude00"}',
])
def test_load_json_takes_what_is_only_near_the_limits(text: str) -> None:
    assert load_json(text) is not None


async def _table(client: Client) -> tuple[str, str]:
    ann, _ = await local_signin(client, "Ann")
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json()
    return table["id"], ann


@pytest.mark.parametrize("text", [
    DEEP, DEEP_ACT,
    '{"type": "act", "ref": "\\ud800", "seq": 0, "action": {"type": "play"}}',
    '{"type": "ping", "t": "\\ud800"}',
    '{"type": "lobby", "ref": "x", "op": "options", "changes": {"\\udc00": 1}}',
], ids=["deep", "deep_action", "surrogate_ref", "surrogate_t", "surrogate_key"])
async def test_hostile_frame_gets_an_error_and_the_socket_stays(client: Client, text: str) -> None:
    tid, ann = await _table(client)
    peer, _ = await connect(client, tid, ann)
    await peer.ws.send_str(text)
    error = await peer.receive()
    assert (error["type"], error["code"]) == ("error", "malformed_frame")
    await peer.send({"type": "ping", "t": 1})
    assert await peer.receive() == {"type": "pong", "t": 1}
    await peer.close()


@pytest.mark.parametrize("text", [DEEP, '{"type": "hello", "init_data": "\\ud800", "last_seq": null}'])
async def test_hostile_hello_gets_an_error_then_a_close(client: Client, text: str) -> None:
    tid, _ = await _table(client)
    peer = Peer(await client.ws_connect(f"/ws/{tid}"))
    await peer.ws.send_str(text)
    error = await peer.receive()
    assert error["type"] == "error" and error["code"] in ("malformed_frame", "unauthorized")
    assert (await peer.ws.receive(timeout=3)).type.name.startswith("CLOS")


@pytest.mark.parametrize("options", [{"timer": []}, {"timer": {}}, {"players": "²"}, {"ai_level": ["easy"]},
                                     {"target_score": 1e400}], ids=["list", "object", "superscript", "list_level",
                                                                    "infinite"])
async def test_create_table_with_options_of_the_wrong_kind_is_400(client: Client, options: dict[str, object]) -> None:
    ann, _ = await local_signin(client, "Ann")
    body = json.dumps({"game": "coins", "options": options}).replace("Infinity", "1e400")
    resp = await client.post("/api/tables", data=body, headers={**tma(ann), "Content-Type": "application/json"})
    assert (resp.status, (await resp.json())["code"]) == (400, "bad_options")


async def test_lobby_options_of_the_wrong_kind_are_refused(client: Client) -> None:
    tid, ann = await _table(client)
    resp = await client.post(f"/api/tables/{tid}/options", json={"changes": {"timer": []}}, headers=tma(ann))
    assert (resp.status, (await resp.json())["code"]) == (400, "bad_options")


@pytest.mark.parametrize("path", ["/api/tables", "/api/local/signin", "/api/tables/{tid}/options"])
async def test_deeply_nested_body_is_400(client: Client, path: str) -> None:
    tid, ann = await _table(client)
    resp = await client.post(path.format(tid=tid), data='{"a": ' + DEEP + "}",
                             headers={**tma(ann), "Content-Type": "application/json"})
    assert (resp.status, (await resp.json())["code"]) == (400, "bad_json")


async def test_local_signin_with_a_lone_surrogate_is_400(client: Client) -> None:
    resp = await client.post("/api/local/signin", data='{"name": "\\ud800"}',
                             headers={"Content-Type": "application/json"})
    assert (resp.status, (await resp.json())["code"]) == (400, "bad_json")
    resp = await client.post("/api/local/signin", json={"name": 7})
    assert (resp.status, (await resp.json())["code"]) == (400, "bad_name")


def _signed_with_fields(**fields: str) -> str:
    digest = hmac.new(secret_key(TEST_TOKEN), data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


@pytest.mark.parametrize("auth_date", ["²", "١٢٣", "9" * 40])
async def test_signed_init_data_with_a_nonsense_auth_date_is_400(bot_client: Client, auth_date: str) -> None:
    init_data = _signed_with_fields(auth_date=auth_date, user='{"id":1,"first_name":"Ann"}')
    resp = await bot_client.get("/api/me", headers=tma(init_data))
    body = await resp.json()
    assert (resp.status, body["code"], body["reason"]) == (400, "bad_init_data", "malformed")


async def test_signed_init_data_with_a_lone_surrogate_in_the_name_is_400(bot_client: Client) -> None:
    init_data = _signed_with_fields(auth_date=str(int(time.time())), user='{"id":1,"first_name":"\\ud800"}')
    resp = await bot_client.get("/api/me", headers=tma(init_data))
    assert (resp.status, (await resp.json())["code"]) == (400, "bad_init_data")


async def test_body_that_never_arrives_times_out_with_408(make_client: ClientFactory, settings: Settings) -> None:
    client = await make_client(replace(settings, body_timeout=0.3))
    ann, _ = await local_signin(client, "Ann")
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    auth = tma(ann)["Authorization"]
    writer.write(f"POST /api/tables HTTP/1.1\r\nHost: x\r\nAuthorization: {auth}\r\n"
                 "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"game\":".encode())
    await writer.drain()
    async with asyncio.timeout(3):
        status = await reader.readline()
    assert status.split()[1] == b"408"
    writer.close()


async def test_oversized_chunked_body_is_413(client: Client) -> None:
    ann, _ = await local_signin(client, "Ann")

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(40):
            yield b" " * 1024

    resp = await client.post("/api/tables", data=chunks(), headers={**tma(ann), "Content-Type": "application/json"})
    assert (resp.status, (await resp.json())["code"]) == (413, "too_large")


def test_dump_writes_valid_utf8_even_for_a_lone_surrogate() -> None:
    text = dump(error_frame("x", "Ann \ud800"))  # say, a name stored before names were checked
    assert json.loads(text.encode("utf-8"))["message"] == "Ann \ud800"


@pytest.mark.parametrize("path", ["/api/me?limit={n}", "/api/replay/abc?from={n}", "/api/leaderboard?chat=-{n}",
                                  "/api/daily/coins/standings?group=-{n}"])
async def test_a_number_of_thousands_of_digits_is_refused_as_a_bad_number_not_a_failure(client: Client,
                                                                                        path: str) -> None:
    init_data, _ = await local_signin(client, "Ann")
    resp = await client.get(path.format(n="9" * 5000), headers=tma(init_data))  # past int()'s 4,300 digits
    assert resp.status == 400, await resp.text()
    assert (await resp.json())["code"] in ("bad_page_limit", "bad_number", "bad_request")


async def test_a_header_too_big_is_answered_400_and_logged_as_one_warning_not_an_error(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="aiohttp.server"):
        resp = await client.get("/healthz", headers={"X-Big": "a" * 10_000})  # over aiohttp's 8,190 bytes
    assert resp.status == 400
    said = [r for r in caplog.records if r.name == "aiohttp.server"]
    assert [(r.levelname, r.exc_info) for r in said] == [("WARNING", None)], said
    assert "8190 bytes" in said[0].getMessage() and "400" in said[0].getMessage()
