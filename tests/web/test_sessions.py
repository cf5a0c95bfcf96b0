"""Sessions: initData starts one, and a live session takes initData past its age on the socket and over HTTP, for 30
days from the Telegram sign-in it rests on (using it does not make it last longer); signing out everywhere ends
every one of them."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from aiohttp import WSMsgType

from engine.config import Settings
from engine.core.errors import RefusalCode
from engine.i18n import refusal_text
from tests.web.conftest import TEST_TOKEN, Client, ClientFactory, signed, tma
from tests.web.sockets import Peer, connect
from webapp.auth import AuthError, Verifier, WebUser, sign_init_data
from webapp.keys import SESSION_COOKIE, SESSION_HEADER, VERIFIER
from webapp.table_socket import CLOSE_UNAUTHORIZED

MAX_AGE = 20  # seconds initData is good for here, as when the limit is set low to see sessions at work
NOW = 1_750_000_000
STALE = 3600  # initData this old is long past MAX_AGE


def at(user_id: int, signed_at: float) -> WebUser:
    """A user as a Telegram sign-in at ``signed_at`` vouched for them."""
    return WebUser(user_id, "Ann", signed_at=int(signed_at))


@pytest.fixture
def short_settings(bot_settings: Settings) -> Settings:
    """Telegram mode with initData good for 20 seconds."""
    return replace(bot_settings, initdata_max_age=MAX_AGE)


async def _table(client: Client, user_id: int = 1) -> str:
    table = await (await client.post("/api/tables", json={"game": "coins"}, headers=tma(signed(user_id)))).json()
    client.session.cookie_jar.clear()  # each test says which session it brings
    return str(table["id"])


async def _first_session(client: Client, table_id: str, user_id: int = 1) -> str:
    """The session a fresh sign-in's first welcome hands out."""
    peer, welcome = await connect(client, table_id, signed(user_id))
    await peer.close()
    assert isinstance(welcome["session"], str)
    return str(welcome["session"])


async def _refused(client: Client, table_id: str, hello: dict[str, object], lang: str = "en") -> dict[str, object]:
    """The error frame a hello is refused with; the socket is then closed with 4401."""
    peer = Peer(await client.ws_connect(f"/ws/{table_id}", headers={"Cookie": f"cardroom_lang={lang}"}))
    await peer.send({"type": "hello", "last_seq": None, **hello})
    error = await peer.receive()
    assert error["type"] == "error", error
    closing = await peer.ws.receive(timeout=3)
    assert closing.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING)
    assert peer.ws.close_code == CLOSE_UNAUTHORIZED
    return error


def test_a_live_session_takes_initdata_past_its_age_and_only_for_its_user() -> None:
    verifier = Verifier(TEST_TOKEN, MAX_AGE)
    stale = sign_init_data(TEST_TOKEN, {"id": 42, "first_name": "Ann"}, NOW)
    session = verifier.session_for(at(42, NOW))
    assert verifier.verify(stale, now=NOW + STALE, session=session).id == 42
    changed = session[:-1] + ("0" if session[-1] != "0" else "1")
    for forged in (Verifier("999:other-bot", MAX_AGE).session_for(at(42, NOW)), verifier.session_for(at(43, NOW)),
                   changed, session.replace("42.", "43.", 1), "x", "." * 200):
        with pytest.raises(AuthError) as caught:
            verifier.verify(stale, now=NOW + STALE, session=forged)
        assert caught.value.kind == "bad_hash", forged
    with pytest.raises(AuthError) as expired:
        verifier.verify(stale, now=NOW + verifier.session_max_age + 1, session=session)
    assert expired.value.kind == "stale"


def test_a_session_does_not_stand_in_for_initdata_that_is_forged() -> None:
    verifier = Verifier(TEST_TOKEN, MAX_AGE)
    forged = sign_init_data("999:other-bot", {"id": 42, "first_name": "Ann"}, NOW)
    with pytest.raises(AuthError) as caught:
        verifier.verify(forged, now=NOW + STALE, session=verifier.session_for(at(42, NOW)))
    assert caught.value.kind == "bad_hash"


async def test_hello_with_stale_initdata_and_a_fresh_session_is_welcomed(
    make_client: ClientFactory, short_settings: Settings
) -> None:
    client = await make_client(short_settings)
    table_id = await _table(client)
    session = await _first_session(client, table_id)
    peer = Peer(await client.ws_connect(f"/ws/{table_id}"))
    await peer.send({"type": "hello", "init_data": signed(1, age=STALE), "last_seq": 0, "session": session})
    welcome = await peer.receive()
    assert (welcome["type"], welcome["you"]) == ("welcome", 0)
    assert welcome["session"] == session  # the same one: it lasts from the Telegram sign-in, not from its last use
    await peer.close()


async def test_hello_with_stale_initdata_and_no_session_is_refused_as_stale(
    make_client: ClientFactory, short_settings: Settings
) -> None:
    client = await make_client(short_settings)
    table_id = await _table(client)
    error = await _refused(client, table_id, {"init_data": signed(1, age=STALE)})
    assert (error["code"], error["reason"]) == ("unauthorized", "stale")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_hello_with_a_tampered_foreign_or_expired_session_is_refused_in_the_readers_language(
    make_client: ClientFactory, short_settings: Settings, lang: str
) -> None:
    client = await make_client(short_settings)
    table_id = await _table(client)
    session = await _first_session(client, table_id)
    verifier = client.app[VERIFIER]
    user, signed_at, mac = session.split(".")
    cases = {
        "tampered": (f"{user}.s{int(signed_at[1:]) + 86400}.{mac}", "bad_hash"),
        "foreign": (Verifier("999:other-bot", MAX_AGE).session_for(at(1, time.time())), "bad_hash"),
        "someone_else": (verifier.session_for(at(2, time.time())), "bad_hash"),
        "expired": (verifier.session_for(at(1, time.time() - verifier.session_max_age - 60)), "stale"),
    }
    for name, (bad, kind) in cases.items():
        error = await _refused(client, table_id, {"init_data": signed(1, age=STALE), "session": bad}, lang)
        assert (error["code"], error["reason"]) == ("unauthorized", kind), name
        reason = AuthError(verifier_code(kind))
        assert error["message"] == refusal_text(reason, lang), name
    if lang == "ru":  # the words really are Russian ones
        assert error["message"] != refusal_text(AuthError(verifier_code("stale")), "en")


def verifier_code(kind: str) -> RefusalCode:
    """The refusal code a session refusal of ``kind`` carries."""
    return RefusalCode.SIGN_IN_FORGED if kind == "bad_hash" else RefusalCode.SIGN_IN_EXPIRED


async def test_the_session_cookie_from_the_api_carries_a_socket_past_initdata_age(
    make_client: ClientFactory, short_settings: Settings
) -> None:
    client = await make_client(short_settings)
    table_id = await _table(client)
    me = await client.get("/api/me", headers=tma(signed(1)))
    assert me.status == 200 and me.cookies[SESSION_COOKIE]["httponly"]
    peer, welcome = await connect(client, table_id, signed(1, age=STALE))  # the cookie goes with the upgrade
    assert welcome["you"] == 0
    await peer.close()


async def test_api_takes_stale_initdata_with_a_live_session_and_refuses_a_bad_one(
    make_client: ClientFactory, short_settings: Settings
) -> None:
    client = await make_client(short_settings)
    first = await client.get("/api/me", headers=tma(signed(7)))
    session = first.headers[SESSION_HEADER]
    client.session.cookie_jar.clear()
    stale = tma(signed(7, age=STALE))
    assert (await client.get("/api/me", headers=stale)).status == 401  # no session: initData alone is too old
    later = await client.get("/api/me", headers={**stale, SESSION_HEADER: session})
    assert later.status == 200 and (await later.json())["user"]["id"] == 7
    assert later.headers[SESSION_HEADER] == session  # the same session: using it does not make it last longer
    client.session.cookie_jar.clear()
    foreign = Verifier("999:other-bot", MAX_AGE).session_for(at(7, time.time()))
    for bad in (foreign, session[:-2] + "00", client.app[VERIFIER].session_for(at(8, time.time()))):
        refused = await client.get("/api/me", headers={**stale, SESSION_HEADER: bad, "Cookie": "cardroom_lang=ru"})
        body = await refused.json()
        assert (refused.status, body["code"], body["reason"]) == (401, "unauthorized", "bad_hash")
        assert body["message"] == refusal_text(AuthError(verifier_code("bad_hash")), "ru")


def test_a_session_lasts_from_its_telegram_sign_in_however_often_it_is_used() -> None:
    verifier = Verifier(TEST_TOKEN, MAX_AGE)
    stale = sign_init_data(TEST_TOKEN, {"id": 42, "first_name": "Ann"}, NOW)
    session = verifier.session_for(verifier.verify(stale, now=NOW + 1))  # started by a fresh sign-in at NOW
    for day in range(1, 30):  # used every day: handed back the same, never longer
        user = verifier.verify(stale, now=NOW + day * 86400, session=session)
        assert user.signed_at == NOW and verifier.session_for(user) == session
    with pytest.raises(AuthError) as over:
        verifier.verify(stale, now=NOW + verifier.session_max_age + 1, session=session)
    assert over.value.kind == "stale"
    fresh = sign_init_data(TEST_TOKEN, {"id": 42, "first_name": "Ann"}, NOW + 40 * 86400)  # opened from Telegram
    assert verifier.verify(fresh, now=NOW + 40 * 86400).signed_at == NOW + 40 * 86400


def test_a_session_of_the_older_form_ends_when_it_always_would_have() -> None:
    verifier = Verifier(TEST_TOKEN, MAX_AGE)
    stale = sign_init_data(TEST_TOKEN, {"id": 42, "first_name": "Ann"}, NOW)
    expires = NOW + 1000
    body = f"42.{expires}"
    older = f"{body}.{verifier._session_mac(body)}"  # user id.expiry.HMAC, as handed out before
    user = verifier.verify(stale, now=expires - 1, session=older)
    assert user.signed_at == expires - verifier.session_max_age  # carried on with the same end
    with pytest.raises(AuthError):
        verifier.verify(stale, now=expires + 1, session=older)


async def test_signing_out_everywhere_ends_every_sign_in_on_every_device_and_not_later_ones(
    make_client: ClientFactory, short_settings: Settings
) -> None:
    client = await make_client(short_settings)
    table_id = await _table(client, 5)
    phone = await client.get("/api/me", headers=tma(signed(5)))
    laptop_session = phone.headers[SESSION_HEADER]  # the laptop signed in the same way, earlier today
    client.session.cookie_jar.clear()
    laptop = {**tma(signed(5, age=STALE)), SESSION_HEADER: laptop_session}
    assert (await client.get("/api/me", headers=laptop)).status == 200
    open_socket, _ = await connect(client, table_id, signed(5))  # the laptop has the table open, too

    ended = await client.delete("/api/me/sessions", headers=tma(signed(5)))
    assert ended.status == 200 and (await ended.json())["ended_at"] > 0
    assert SESSION_HEADER not in ended.headers  # no session is handed back on the way out
    assert ended.cookies[SESSION_COOKIE].value == ""  # and the cookie is taken away
    client.session.cookie_jar.clear()
    for headers in (laptop, tma(signed(5)), {**tma(signed(5)), "Cookie": "cardroom_lang=ru"}):
        refused = await client.get("/api/me", headers=headers)
        body = await refused.json()
        assert (refused.status, body["code"], body["reason"]) == (401, "unauthorized", "stale")
        lang = "ru" if "Cookie" in headers else "en"
        assert body["message"] == refusal_text(AuthError(RefusalCode.SIGN_IN_ENDED), lang)
    assert "signed out everywhere" in refusal_text(AuthError(RefusalCode.SIGN_IN_ENDED), "en")
    error = await _refused(client, table_id, {"init_data": signed(5, age=STALE), "session": laptop_session})
    assert (error["code"], error["reason"]) == ("unauthorized", "stale")  # a new socket too
    await open_socket.send({"type": "ping", "t": 1})  # the open one's next frame (a quiet page pings every few seconds)
    told = await open_socket.receive()
    assert (told["type"], told["code"], told["reason"]) == ("error", "unauthorized", "stale")
    assert told["message"] == refusal_text(AuthError(RefusalCode.SIGN_IN_ENDED), "en")
    closing = await open_socket.ws.receive(timeout=3)
    assert closing.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING)
    assert open_socket.ws.close_code == CLOSE_UNAUTHORIZED
    other = await client.get("/api/me", headers=tma(signed(6)))
    assert other.status == 200  # someone else is not signed out

    later = sign_init_data(TEST_TOKEN, {"id": 5, "first_name": "Ann"}, int(time.time()) + 2)  # opened again
    assert (await client.get("/api/me", headers=tma(later))).status == 200
