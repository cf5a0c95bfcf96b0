"""Sign-in and socket refusals speak the one refusal vocabulary: the same wire codes, in the reader's language."""

from __future__ import annotations

from dataclasses import replace

from aiohttp import WSMsgType

from engine.config import Settings
from engine.core.errors import FAMILY, MESSAGES, Refusal, RefusalCode
from tests.web.conftest import Client, ClientFactory, local_signin, signed, tma
from tests.web.sockets import Peer, connect
from webapp.auth import AuthError
from webapp.protocol import FrameError, parse_client_frame
from webapp.ws import MAX_CLOSE_REASON, close_reason

RUSSIAN = {"cardroom_lang": "ru"}


async def test_expired_sign_in_data_is_refused_unauthorized_in_the_pages_language(bot_client: Client) -> None:
    resp = await bot_client.get("/api/me", headers=tma(signed(7, "Ann", age=7200)), cookies=RUSSIAN)
    body = await resp.json()
    assert (resp.status, body["code"], body["reason"]) == (401, "unauthorized", "stale")
    assert body["message"] == "Срок действия данных для входа истёк; открой приложение заново."


async def test_a_request_without_sign_in_is_refused_in_english_when_the_page_chose_no_language(
    client: Client,
) -> None:
    resp = await client.get("/api/me")
    body = await resp.json()
    assert (resp.status, body["code"], body["reason"]) == (401, "unauthorized", "missing")
    assert body["message"] == "Sign in first: send Authorization: tma <initData>."


async def test_local_sign_in_refused_with_a_bot_token_is_403_in_the_pages_language(bot_client: Client) -> None:
    resp = await bot_client.post("/api/local/signin", json={"name": "Mallory"}, cookies={"cardroom_lang": "lv"})
    body = await resp.json()
    assert (resp.status, body["code"]) == (403, "local_signin_disabled")
    assert body["message"] == "Vietējā pieteikšanās ir izslēgta: atver lietotni no Telegram."


async def test_a_socket_whose_first_frame_is_no_hello_is_refused_in_the_pages_language(client: Client) -> None:
    ann, _ = await local_signin(client, "Ann")
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json()
    client.session.cookie_jar.update_cookies(RUSSIAN)
    peer = Peer(await client.ws_connect(f"/ws/{table['id']}"))
    await peer.send({"type": "ping", "t": 1})
    error = await peer.receive()
    assert (error["type"], error["code"]) == ("error", "unauthorized")
    assert error["message"] == "Первым кадром должен быть hello с твоими данными для входа."
    assert (await peer.ws.receive(timeout=5)).type in (WSMsgType.CLOSE, WSMsgType.CLOSED)


async def test_a_malformed_frame_is_refused_in_the_readers_language(client: Client) -> None:
    ann, _ = await local_signin(client, "Ann")
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json()
    client.session.cookie_jar.update_cookies({"cardroom_lang": "ko"})
    peer, _welcome = await connect(client, table["id"], ann)
    await peer.send({"type": "lobby", "ref": "r1", "op": "fly"})
    error = await peer.receive()
    assert (error["type"], error["code"]) == ("error", "malformed_frame")
    assert error["message"] == '"op"는 join, leave, add_ai, start, options, cancel 중 하나여야 해요.'
    await peer.ws.send_str("{" * 40 + "}" * 40)
    deep = await peer.receive()
    assert deep["code"] == "malformed_frame" and "16" in deep["message"] and "JSON" in deep["message"]


async def test_a_crowded_table_is_refused_in_the_readers_language(
    make_client: ClientFactory, settings: Settings
) -> None:
    client = await make_client(replace(settings, max_sockets_per_table=1))
    ann, _ = await local_signin(client, "Ann")
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(ann))).json()
    _first, _welcome = await connect(client, table["id"], ann)
    client.session.cookie_jar.update_cookies(RUSSIAN)
    crowd = Peer(await client.ws_connect(f"/ws/{table['id']}"))
    await crowd.send({"type": "hello", "init_data": ann, "last_seq": None})
    error = await crowd.receive()
    assert error["code"] == "table_crowded"
    assert error["message"] == "Этот стол сейчас открыт у слишком многих; попробуй позже."


def test_frame_and_sign_in_refusals_are_refusals_with_the_wire_codes_they_always_had() -> None:
    try:
        parse_client_frame('{"type": "act", "ref": "r", "action": {"type": "play"}}')
    except FrameError as refusal:
        assert isinstance(refusal, Refusal)
        assert (refusal.code, refusal.reason) == ("malformed_frame", RefusalCode.ACT_WITHOUT_SEQ)
    else:
        raise AssertionError("a move without seq was taken")
    expired = AuthError(RefusalCode.SIGN_IN_EXPIRED)
    assert (expired.code, expired.kind) == ("unauthorized", "stale")
    assert expired.as_dict() == {"code": "unauthorized", "reason": "stale",
                                 "message": "The sign-in data has expired; reopen the app."}
    sockets = ("flood", "too_large", "table_crowded", "too_many_sockets", "too_many_pending", "malformed_frame",
               "unauthorized")
    assert all(RefusalCode(code) in MESSAGES for code in sockets)
    assert {FAMILY[RefusalCode.FLOOD_DISCONNECTED], FAMILY[RefusalCode.TOO_MANY_PENDING_HERE]} == {
        RefusalCode.FLOOD, RefusalCode.TOO_MANY_PENDING}


def test_a_close_reason_keeps_its_code_and_fits_a_close_frame_in_every_language() -> None:
    refusal = Refusal(RefusalCode.TOO_MANY_PENDING_HERE)
    for lang in ("en", "ru", "ko", "lv"):
        reason = close_reason(refusal, lang)
        assert len(reason) <= MAX_CLOSE_REASON and reason.startswith(b"too_many_pending: ")
        reason.decode("utf-8")  # cut between characters, never inside one
    assert close_reason(refusal, "ko") != close_reason(refusal, "en")


async def test_an_http_error_of_the_api_is_a_refusal_in_the_pages_language(client: Client) -> None:
    ann, _ = await local_signin(client, "Ann")
    lost = await client.get("/api/nowhere", cookies=RUSSIAN)
    assert (lost.status, (await lost.json())["code"]) == (404, "not_found")
    assert (await lost.json())["message"] == "По этому адресу ничего нет."
    big = await client.post("/api/tables", data=b" " * (17 * 1024),
                            headers={**tma(ann), "Content-Type": "application/json"}, cookies={"cardroom_lang": "lv"})
    body = await big.json()
    assert (big.status, body["code"], body["message"]) == (413, "too_large", "Šis pieprasījums ir pārāk liels.")
