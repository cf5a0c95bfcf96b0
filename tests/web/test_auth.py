"""initData validation and the HTTP refusals that depend on who is asking."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

import pytest

from tests.web.conftest import TEST_TOKEN, Client, signed, tma
from webapp.auth import AuthError, Verifier, local_token, sign_init_data

NOW = 1_750_000_000


def test_sign_init_data_matches_telegram_recipe_by_hand() -> None:
    user = {"id": 42, "first_name": "Ann"}
    init_data = sign_init_data(TEST_TOKEN, user, NOW, query_id="AAH")
    fields = dict(parse_qsl(init_data))
    check = f"auth_date={NOW}\nquery_id=AAH\nuser={json.dumps(user, separators=(',', ':'))}"
    key = hmac.new(b"WebAppData", TEST_TOKEN.encode(), hashlib.sha256).digest()
    assert fields["hash"] == hmac.new(key, check.encode(), hashlib.sha256).hexdigest()


def test_verify_accepts_valid_init_data_and_reads_the_user() -> None:
    init_data = sign_init_data(TEST_TOKEN, {"id": 42, "first_name": "Ann", "language_code": "es"}, NOW)
    user = Verifier(TEST_TOKEN, 3600).verify(init_data, now=NOW + 10)
    assert (user.id, user.name, user.language_code) == (42, "Ann", "es")


def _refusal(init_data: str, *, token: str = TEST_TOKEN, now: int = NOW + 10) -> str:
    with pytest.raises(AuthError) as caught:
        Verifier(token, 3600).verify(init_data, now=now)
    return caught.value.kind


def test_verify_refuses_a_tampered_user_field() -> None:
    fields = dict(parse_qsl(sign_init_data(TEST_TOKEN, {"id": 42, "first_name": "Ann"}, NOW)))
    fields["user"] = fields["user"].replace("42", "43")
    assert _refusal(urlencode(fields)) == "bad_hash"


def test_verify_refuses_a_tampered_auth_date() -> None:
    fields = dict(parse_qsl(sign_init_data(TEST_TOKEN, {"id": 42, "first_name": "Ann"}, NOW - 7200)))
    fields["auth_date"] = str(NOW)
    assert _refusal(urlencode(fields)) == "bad_hash"


def test_verify_refuses_data_signed_with_another_token() -> None:
    assert _refusal(sign_init_data("999:other-bot", {"id": 42, "first_name": "Ann"}, NOW)) == "bad_hash"


def test_verify_refuses_data_without_hash() -> None:
    fields = dict(parse_qsl(sign_init_data(TEST_TOKEN, {"id": 42, "first_name": "Ann"}, NOW)))
    del fields["hash"]
    assert _refusal(urlencode(fields)) == "missing_hash"


def test_verify_refuses_auth_date_older_than_the_max_age() -> None:
    init_data = sign_init_data(TEST_TOKEN, {"id": 42, "first_name": "Ann"}, NOW)
    assert _refusal(init_data, now=NOW + 3601) == "stale"


def test_verify_accepts_auth_date_just_inside_the_max_age() -> None:
    init_data = sign_init_data(TEST_TOKEN, {"id": 42, "first_name": "Ann"}, NOW)
    assert Verifier(TEST_TOKEN, 3600).verify(init_data, now=NOW + 3600).id == 42


def test_verify_refuses_a_repeated_field() -> None:
    init_data = sign_init_data(TEST_TOKEN, {"id": 42, "first_name": "Ann"}, NOW)
    assert _refusal(init_data + "&user=" + "%7B%22id%22%3A1%7D") == "malformed"


def test_verify_refuses_signed_data_without_a_user() -> None:
    key = hmac.new(b"WebAppData", TEST_TOKEN.encode(), hashlib.sha256).digest()
    digest = hmac.new(key, f"auth_date={NOW}".encode(), hashlib.sha256).hexdigest()
    assert _refusal(urlencode({"auth_date": NOW, "hash": digest})) == "malformed"


async def test_api_me_answers_valid_init_data(bot_client: Client) -> None:
    resp = await bot_client.get("/api/me", headers=tma(signed(42, "Ann", username="ann")))
    assert resp.status == 200
    body = await resp.json()
    assert body["user"] == {"id": 42, "first_name": "Ann", "username": "ann"}
    assert body["tables"] == []


@pytest.mark.parametrize("make_header", [
    lambda: {},
    lambda: {"Authorization": "Bearer x"},
    lambda: tma(signed(42, token="999:other-bot")),
    lambda: tma(signed(42, age=3601)),
    lambda: tma(signed(42).replace("Ann", "Bob")),
    lambda: tma("&".join(p for p in signed(42).split("&") if not p.startswith("hash="))),
], ids=["missing", "other_scheme", "wrong_token", "stale", "tampered", "no_hash"])
async def test_api_me_refuses_bad_init_data_with_401(
    bot_client: Client, make_header: Callable[[], dict[str, str]]
) -> None:
    resp = await bot_client.get("/api/me", headers=make_header())
    assert resp.status == 401
    assert (await resp.json())["code"] == "unauthorized"


async def test_local_signin_is_refused_with_a_bot_token(bot_client: Client) -> None:
    resp = await bot_client.post("/api/local/signin", json={"name": "Mallory"})
    assert resp.status == 403
    assert (await resp.json())["code"] == "local_signin_disabled"


async def test_local_signin_gives_init_data_the_api_accepts(client: Client) -> None:
    resp = await client.post("/api/local/signin", json={"name": "  Ann   Lee "})
    body = await resp.json()
    assert body["user"]["first_name"] == "Ann Lee"
    me = await (await client.get("/api/me", headers=tma(body["init_data"]))).json()
    assert me["user"]["id"] == body["user"]["id"]


async def test_local_signin_refuses_an_empty_name(client: Client) -> None:
    resp = await client.post("/api/local/signin", json={"name": "  "})
    assert resp.status == 400


async def test_local_mode_refuses_init_data_signed_with_a_guessed_token(client: Client) -> None:
    resp = await client.get("/api/me", headers=tma(signed(42)))
    assert resp.status == 401


async def test_table_ops_refuse_another_users_seat_with_403(bot_client: Client) -> None:
    host, other = tma(signed(1, "Host")), tma(signed(2, "Eve"))
    table = await (await bot_client.post("/api/tables", json={"game": "coins"}, headers=host)).json()
    leave = await bot_client.post(f"/api/tables/{table['id']}/leave", headers=other)
    assert (leave.status, (await leave.json())["code"]) == (403, "not_seated")
    start = await bot_client.post(f"/api/tables/{table['id']}/start", headers=other)
    assert (start.status, (await start.json())["code"]) == (403, "not_host")


async def test_table_view_of_another_user_is_the_spectator_view(bot_client: Client) -> None:
    host, other = tma(signed(1, "Host")), tma(signed(2, "Eve"))
    table = await (await bot_client.post("/api/tables", json={"game": "coins"}, headers=host)).json()
    assert (await bot_client.post(f"/api/tables/{table['id']}/start", headers=host)).status == 200
    mine = await (await bot_client.get(f"/api/tables/{table['id']}", headers=host)).json()
    theirs = await (await bot_client.get(f"/api/tables/{table['id']}", headers=other)).json()
    assert mine["you"] == 0 and len(mine["state"]["hand"]) == 16
    assert theirs["you"] is None
    assert "hand" not in theirs["state"] and "legal" not in theirs["state"]


async def test_unknown_table_is_404(bot_client: Client) -> None:
    resp = await bot_client.get("/api/tables/nosuchtable", headers=tma(signed(1)))
    assert (resp.status, (await resp.json())["code"]) == (404, "table_not_found")


async def test_oversized_body_is_413(bot_client: Client) -> None:
    resp = await bot_client.post("/api/tables", data=b"{" + b" " * 40_000 + b"}",
                                 headers={**tma(signed(1)), "Content-Type": "application/json"})
    assert (resp.status, (await resp.json())["code"]) == (413, "too_large")


async def test_create_table_refuses_bad_options_with_400(bot_client: Client) -> None:
    resp = await bot_client.post("/api/tables", json={"game": "coins", "options": {"target_score": "lots"}},
                                 headers=tma(signed(1)))
    assert (resp.status, (await resp.json())["code"]) == (400, "bad_options")


def test_signed_helper_dates_the_data_now() -> None:
    fields = dict(parse_qsl(signed(7)))
    assert abs(int(fields["auth_date"]) - time.time()) < 5


def test_processes_starting_together_on_one_data_dir_share_one_local_key(tmp_path: Path) -> None:
    """A deployment of several processes signs with one key: the first to write it wins and the others read it."""
    def start(gate: threading.Barrier, data_dir: Path, keys: list[str]) -> None:
        gate.wait()
        keys.append(local_token(data_dir))

    for round_no in range(20):
        data_dir = tmp_path / f"round-{round_no}"
        gate = threading.Barrier(12)
        keys: list[str] = []
        starters = [threading.Thread(target=start, args=(gate, data_dir, keys)) for _ in range(12)]
        for starter in starters:
            starter.start()
        for starter in starters:
            starter.join()
        assert len(keys) == 12 and len(set(keys)) == 1, round_no
        assert (data_dir / "local-signin.key").read_text() == keys[0]
        assert [p.name for p in data_dir.iterdir()] == ["local-signin.key"]  # no half-made key left behind
