"""Opening tables from the page within the process's budget of new tables: beyond it, 429 with Retry-After, in the
person's language, and nothing opened: refused at the door, before the request is read or anyone signed in."""

from __future__ import annotations

from dataclasses import replace

from engine.config import Settings
from tests.web.conftest import ClientFactory, signed, tma
from webapp.keys import LANG_COOKIE


async def test_openings_beyond_the_budget_get_429_with_retry_after_in_the_persons_language(
    make_own_client: ClientFactory, bot_settings: Settings
) -> None:
    client = await make_own_client(replace(bot_settings, new_tables_rate=0.5, new_tables_burst=2))
    ann, anya = tma(signed(8201, "Ann")), tma(signed(8202, "Аня", language_code="ru"))
    for _ in range(2):  # the whole burst, at one moment
        resp = await client.post("/api/tables", json={"game": "coins"}, headers=ann)
        assert resp.status == 200, await resp.text()

    page = {**anya, "Cookie": f"{LANG_COOKIE}=ru"}  # the page says which language it shows
    for path, body in (("/api/tables", {"game": "coins"}), ("/api/lessons", {"game": "coins"})):
        refused = await client.post(path, json=body, headers=page)
        assert refused.status == 429
        wait = refused.headers["Retry-After"]  # one opening comes back every two seconds; a crowd is spread over 2 more
        assert wait in ("2", "3", "4")
        assert await refused.json() == {
            "code": "too_many_new_tables",
            "message": f"Сейчас открывают очень много столов; попробуй снова через {wait} с."}
    mine = await client.get("/api/me", headers=anya)
    assert mine.status == 200 and (await mine.json())["tables"] == []  # nothing was opened for her

    nobody = await client.post("/api/tables", data=b"{not json", headers={"Cookie": f"{LANG_COOKIE}=ru"})
    assert nobody.status == 429  # not 401 nor 400: nobody was signed in, nothing was read
    assert (await nobody.json())["code"] == "too_many_new_tables"
