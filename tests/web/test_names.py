"""Names from Telegram's sign-in data and from the local sign-in reach the tables cleaned of control characters."""

from __future__ import annotations

import pytest

from engine.core.errors import Refusal
from tests.web.conftest import TEST_TOKEN, Client, signed, tma
from webapp.auth import Verifier, WebUser, new_local_user, sign_init_data

NOW = 1_750_000_000
# NUL, a right-to-left override that would reverse what follows it, a line break, a bidi isolate and a BOM
HOSTILE = "Ann\u0000\u202e Lee\nGray\u2066\ufeff"


def test_telegram_names_lose_nul_bidi_overrides_and_line_breaks() -> None:
    init_data = sign_init_data(TEST_TOKEN, {"id": 42, "first_name": HOSTILE, "last_name": "\u202eX"}, NOW)
    user = Verifier(TEST_TOKEN, 3600).verify(init_data, now=NOW + 1)
    assert user.name == "Ann Lee Gray X"
    assert user.first_name == "Ann Lee Gray"


def test_a_name_with_nothing_readable_falls_back_to_the_username_then_to_a_player_number() -> None:
    assert WebUser(7, "\u0000\u202e", "\n", "ann_l").name == "ann_l"
    assert WebUser(7, "\u202e\u2066").name == "Player 7"


def test_local_sign_in_names_are_cleaned_and_nothing_readable_is_refused() -> None:
    assert new_local_user(HOSTILE)["first_name"] == "Ann Lee Gray"
    with pytest.raises(Refusal) as caught:
        new_local_user("\u0000\u202e\u200b")
    assert caught.value.code == "bad_name"


async def test_a_hostile_name_is_seated_cleaned(bot_client: Client) -> None:
    resp = await bot_client.post("/api/tables", json={"game": "coins"}, headers=tma(signed(5, HOSTILE)))
    assert resp.status == 200, await resp.text()
    seat = (await resp.json())["seats"][0]
    assert seat["name"] == "Ann Lee Gray"


async def test_local_sign_in_over_http_returns_the_cleaned_name(client: Client) -> None:
    resp = await client.post("/api/local/signin", json={"name": "Eve\u202e\u0000\nSmith"})
    assert (await resp.json())["user"]["first_name"] == "Eve Smith"
    empty = await client.post("/api/local/signin", json={"name": "\u202e\u0000"})
    assert (empty.status, (await empty.json())["code"]) == (400, "bad_name")
