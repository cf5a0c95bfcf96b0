"""The page, the health check and the static files' cache headers."""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import replace
from pathlib import Path

from engine.config import Settings
from tests.web.conftest import Client, ClientFactory
from webapp.keys import STATIC

MODULE = "export const hello = 'cards';\n" * 50


async def test_page_renders_html_that_loads_the_static_modules(client: Client) -> None:
    resp = await client.get("/?table=abc")
    assert resp.status == 200
    assert resp.content_type == "text/html"
    assert resp.headers["Cache-Control"] == "no-cache"
    assert "/static/" in await resp.text()


async def test_page_carries_each_games_facts_for_the_game_clients(client: Client) -> None:
    page = await (await client.get("/")).text()
    found = re.search(r'<script type="application/json" id="games">(.*?)</script>', page, re.S)
    assert found is not None
    games = {g["id"]: g for g in json.loads(found.group(1))}
    assert set(games) == {"coins", "sergeant_major", "kings_corner"}
    # coins/RULES.md §1.1: three players, the Spanish 48-card deck, 16 cards each; the target decides the game
    coins = games["coins"]
    assert (coins["min_players"], coins["max_players"]) == (3, 3)
    assert (coins["deck"]["id"], coins["hand_size"]) == ("spanish", 16)
    assert coins["deck"]["suits"] == ["cups", "coins", "swords", "clubs"]
    assert coins["headline"] == "target_score"
    target = next(s for s in coins["settings"] if s["name"] == "target_score")
    assert target["default"] in target["choices"]
    # sergeant_major/RULES.md §5.4: 6-3-8 takes one card out and deals 17 each; the classic game deals 16
    sm = games["sergeant_major"]
    assert (sm["deck"]["id"], sm["hand_size"], sm["headline"]) == ("french", 16, "variant")
    assert sm["hand_size_by_variant"]["six_three_eight"] == 17
    assert sm["removes_card_in"] == ["six_three_eight"]
    # kings_corner/RULES.md §1.2, kings_corner/RULES.md §3.2: two to four players, seven cards each
    kc = games["kings_corner"]
    assert (kc["min_players"], kc["max_players"], kc["hand_size"], kc["headline"]) == (2, 4, 7, "scoring")


async def test_healthz_says_ok(client: Client) -> None:
    resp = await client.get("/healthz")
    assert (resp.status, await resp.json()) == (200, {"ok": True})


async def test_config_lists_coins_and_local_mode(client: Client) -> None:
    body = await (await client.get("/api/config")).json()
    assert body["local_mode"] is True
    coins = next(g for g in body["games"] if g["name"] == "coins")
    assert (coins["min_players"], coins["max_players"]) == (3, 3)
    assert "target_score" in [s["name"] for s in coins["settings"]]


async def test_config_names_the_bot_and_the_mini_apps_short_name_for_share_links(
    make_client: ClientFactory, bot_settings: Settings
) -> None:
    client = await make_client(replace(bot_settings, miniapp_short_name="play"))
    body = await (await client.get("/api/config")).json()
    assert (body["bot_username"], body["miniapp_short_name"]) == ("cardroom_test_bot", "play")


async def test_config_says_which_sergeant_major_variants_a_setting_applies_to(client: Client) -> None:
    body = await (await client.get("/api/config")).json()
    sm = {s["name"]: s for g in body["games"] if g["name"] == "sergeant_major" for s in g["settings"]}
    # sergeant_major/RULES.md §2.2: the removed card is 6-3-8's, the winning score 9-5-2's;
    # the variant and first dealer always apply
    assert sm["removed_card"]["applies_to"] == ["six_three_eight"]
    assert sm["win_score"]["applies_to"] == ["nine_five_two"]
    assert sm["kitty_order"]["applies_to"] == ["classic", "alternate"]
    assert "applies_to" not in sm["variant"] and "applies_to" not in sm["first_dealer"]


async def _static_client(make_client: ClientFactory, settings: Settings, tmp_path: Path) -> Client:
    static = tmp_path / "static"
    (static / "img").mkdir(parents=True)
    (static / "app.js").write_text(MODULE)
    (static / "img" / "cup.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (tmp_path / "secret.txt").write_text("nope")
    return await make_client(settings, static_dir=static)


async def test_static_file_with_current_version_is_cached_for_a_year(
    make_client: ClientFactory, settings: Settings, tmp_path: Path
) -> None:
    client = await _static_client(make_client, settings, tmp_path)
    page = await (await client.get("/")).text()
    version = client.app[STATIC].version()
    assert version in page
    resp = await client.get(f"/static/app.js?v={version}")
    assert resp.status == 200
    assert resp.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert resp.content_type == "text/javascript"
    assert await resp.text() == MODULE


async def test_page_import_map_lists_every_module_on_disk_at_the_current_version(
    make_client: ClientFactory, settings: Settings, tmp_path: Path
) -> None:
    client = await _static_client(make_client, settings, tmp_path)
    (tmp_path / "static" / "games" / "dice").mkdir(parents=True)
    (tmp_path / "static" / "games" / "dice" / "table.js").write_text(MODULE)
    client.app[STATIC]._checked = -1e9  # look at the folder again now
    page = await (await client.get("/")).text()
    version = client.app[STATIC].version()
    found = re.search(r'<script type="importmap">(.*?)</script>', page, re.S)
    assert found is not None
    assert json.loads(found.group(1)) == {"imports": {
        "/static/app.js": f"/static/app.js?v={version}",
        "/static/games/dice/table.js": f"/static/games/dice/table.js?v={version}",
    }}


async def test_static_file_without_version_is_revalidated_by_etag(
    make_client: ClientFactory, settings: Settings, tmp_path: Path
) -> None:
    client = await _static_client(make_client, settings, tmp_path)
    resp = await client.get("/static/app.js?v=old")
    assert resp.headers["Cache-Control"] == "no-cache"
    again = await client.get("/static/app.js", headers={"If-None-Match": resp.headers["ETag"]})
    assert again.status == 304


async def test_static_file_is_gzipped_when_accepted(
    make_client: ClientFactory, settings: Settings, tmp_path: Path
) -> None:
    client = await _static_client(make_client, settings, tmp_path)
    resp = await client.get("/static/app.js", headers={"Accept-Encoding": "gzip"}, auto_decompress=False)
    raw = await resp.read()
    assert resp.headers["Content-Encoding"] == "gzip"
    assert len(raw) < len(MODULE) // 5
    assert gzip.decompress(raw).decode() == MODULE


async def test_static_version_changes_when_a_file_changes(
    make_client: ClientFactory, settings: Settings, tmp_path: Path
) -> None:
    client = await _static_client(make_client, settings, tmp_path)
    files = client.app[STATIC]
    before = files.version()
    (tmp_path / "static" / "img" / "cup.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><g/></svg>")
    files._checked = -1e9  # look at the folder again now
    assert files.version() != before
    resp = await client.get("/static/img/cup.svg")
    assert (resp.content_type, "<g/>" in await resp.text()) == ("image/svg+xml", True)


async def test_static_refuses_paths_outside_the_folder_and_unknown_files(
    make_client: ClientFactory, settings: Settings, tmp_path: Path
) -> None:
    client = await _static_client(make_client, settings, tmp_path)
    for path in ("/static/../secret.txt", "/static/%2e%2e/secret.txt", "/static/img/../../secret.txt",
                 "/static/missing.js", "/static/.hidden.js"):
        assert (await client.get(path)).status == 404, path


async def test_page_outside_telegram_carries_the_mini_apps_telegram_link(
    make_client: ClientFactory, bot_settings: Settings, client: Client
) -> None:
    short = await make_client(replace(bot_settings, miniapp_short_name="play"))
    page = await (await short.get("/", headers={"Accept-Language": "ru"})).text()
    assert 'data-telegram-link="https://t.me/cardroom_test_bot/play"' in page
    found = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', page, re.S)
    assert found is not None
    strings = json.loads(found.group(1))
    assert strings["open_in_telegram_btn"] == "Открыть в Telegram"  # the button's words in the reader's language
    main = await (await make_client(replace(bot_settings, miniapp_short_name=None))).get("/")
    assert 'data-telegram-link="https://t.me/cardroom_test_bot"' in await main.text()
    assert 'data-telegram-link=""' in await (await client.get("/")).text()  # local play: no bot to open it through
