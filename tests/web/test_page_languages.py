"""The page in each language: <html lang>, every string it hands the scripts translated, plural forms and rules."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from engine.config import Settings
from engine.i18n import LANGUAGES
from engine.service.tables import TableService
from tests.web.conftest import Client, ClientFactory, signed, tma

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
SCRIPT = re.compile(r'<script type="application/json" id="(i18n(?:-[a-z]+)?)">(.*?)</script>', re.S)
# The same in every language: the app's name, numbers and variant names, letters on cards and compass points
# that a language keeps from English, "AI" where Korean writes it so, and texts made only of placeholders.
NEUTRAL = re.compile(r"^(Cardroom|[AKQNJDEMSW]|N[EW]|S[EW]|NT|AI|3-5-9 \(University High\))$")


def is_neutral(text: str) -> bool:
    """A text any language may keep as it is."""
    return bool(NEUTRAL.match(text)) or not re.search(r"[^\W\d_]", re.sub(r"\{\w+\}", "", text))


async def page_data(
    client: Client, query: str = "", headers: dict[str, str] | None = None
) -> tuple[str, dict[str, Any]]:
    """The page's html lang and its JSON blocks (strings, plural indices, languages)."""
    html = await (await client.get(f"/{query}", headers=headers or {})).text()
    lang = re.search(r'<html lang="([^"]+)"', html)
    assert lang
    blocks = {name: json.loads(body) for name, body in SCRIPT.findall(html)}
    return lang.group(1), blocks


def forms(value: str | list[str]) -> list[str]:
    """A string's texts: itself, or every plural form."""
    return value if isinstance(value, list) else [value]


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
async def test_page_lang_is_the_language_asked_for(client: Client, lang: str) -> None:
    assert (await page_data(client, f"?lang={lang}"))[0] == lang
    assert (await page_data(client, headers={"Accept-Language": f"{lang};q=0.9,en;q=0.5"}))[0] == lang
    assert (await page_data(client, headers={"Cookie": f"cardroom_lang={lang}", "Accept-Language": "de"}))[0] == lang


async def test_unsupported_languages_get_the_english_page(client: Client) -> None:
    for query, headers in (("?lang=de", {}), ("", {"Accept-Language": "pt-BR,pt;q=0.9"}), ("?lang=<x>", {})):
        lang, blocks = await page_data(client, query, headers)
        assert lang == "en"
        assert blocks["i18n"]["new_game"] == "New game"


async def test_query_beats_cookie_beats_browser(client: Client) -> None:
    headers = {"Cookie": "cardroom_lang=lv", "Accept-Language": "ko"}
    assert (await page_data(client, "?lang=ru", headers))[0] == "ru"
    assert (await page_data(client, "", headers))[0] == "lv"


@pytest.mark.parametrize("lang", TRANSLATED)
async def test_no_english_string_reaches_a_translated_page(client: Client, lang: str) -> None:
    english_blocks = (await page_data(client, "?lang=en"))[1]
    blocks = (await page_data(client, f"?lang={lang}"))[1]
    for block in ("i18n", "i18n-options"):  # the page's words and its option values' words
        english, here = english_blocks[block], blocks[block]
        assert len(english) > 30, block
        assert here.keys() == english.keys()
        same = sorted(f"{key}: {text}" for key, value in here.items() for text in forms(value)
                      if text in forms(english[key]) and not is_neutral(text))
        assert same == [], block


async def test_plural_forms_and_indices_follow_each_language(client: Client) -> None:
    by_lang = {}
    for lang in LANGUAGES:
        blocks = (await page_data(client, f"?lang={lang}"))[1]
        by_lang[lang] = (blocks["i18n"]["cards_n"], blocks["i18n-plural"])
    # ru: 1, 21, 101 one; 2-4, 22-24 few; 0, 5-20, 111-114 many
    ru_forms, ru_index = by_lang["ru"]
    assert ru_forms == ["{n} карта", "{n} карты", "{n} карт"]
    assert [ru_index[n] for n in (1, 21, 101, 2, 4, 22, 0, 5, 11, 12, 14, 111, 112)] == [0] * 3 + [1] * 3 + [2] * 7
    # lv: 1, 21 (not 11) one; 0 its own; the rest other
    lv_forms, lv_index = by_lang["lv"]
    assert lv_forms == ["{n} kārts", "{n} kārtis", "{n} kāršu"]
    assert [lv_index[n] for n in (1, 21, 11, 2, 10, 0)] == [0, 0, 1, 1, 1, 2]
    # ko: one form for every n
    ko_forms, ko_index = by_lang["ko"]
    assert ko_forms == ["{n}장"] and set(ko_index) == {0}
    en_forms, en_index = by_lang["en"]
    assert en_forms == ["{n} card", "{n} cards"] and en_index[1] == 0 and {en_index[n] for n in (0, 2, 101)} == {1}
    assert all(len(index) == 200 for _, index in by_lang.values())


async def test_the_page_lists_every_language_in_its_own_words(client: Client) -> None:
    blocks = (await page_data(client, "?lang=ko"))[1]
    assert blocks["i18n-languages"] == [["en", "English"], ["ru", "Русский"], ["ko", "한국어"], ["lv", "Latviešu"]]


async def test_refusals_follow_the_language_the_page_shows(make_client: ClientFactory, bot_settings: Settings) -> None:
    client = await make_client(bot_settings)
    english_phone = tma(signed(31, "Ann", language_code="en"))
    refused = await client.get("/api/tables/nosuchtable", headers=english_phone)
    assert (await refused.json())["message"] == "There is no such table."
    client.session.cookie_jar.update_cookies({"cardroom_lang": "ru"})  # the page's picker chose Russian
    refused = await client.get("/api/tables/nosuchtable", headers=english_phone)
    body = await refused.json()
    assert body["code"] == "table_not_found" and body["message"] == "Такого стола нет."


async def test_a_persons_language_is_one_choice_for_the_mini_app_and_the_bot(bot_client: Client,
                                                                             service: TableService) -> None:
    ann = tma(signed(7101, "Ann", language_code="en"))
    assert (await (await bot_client.get("/api/me", headers=ann)).json())["language"] is None
    await service.store.people.set_user_language(7101, "Ann", "ru")  # /language in the bot
    assert (await (await bot_client.get("/api/me", headers=ann)).json())["language"] == "ru"
    chosen = await bot_client.post("/api/me/language", json={"language": "lv"}, headers=ann)
    assert chosen.status == 200 and (await chosen.json()) == {"language": "lv"}
    assert await service.store.people.user_language(7101) == "lv"
    for body, shown in (({"language": "de"}, "«de»"), ({"language": 7}, "«7»"), ({}, "«null»"),
                        ({"language": "ru-RU"}, "«ru-RU»")):
        refused = await bot_client.post("/api/me/language", json=body, headers={**ann, "Cookie": "cardroom_lang=ru"})
        assert refused.status == 400
        answer = await refused.json()
        assert answer["code"] == "bad_request"
        assert shown in answer["message"] and "en, ru, ko, lv" in answer["message"]
        assert answer["message"].startswith("Языка ")  # in the reader's language
    assert await service.store.people.user_language(7101) == "lv"  # nothing changed
    assert (await bot_client.post("/api/me/language", json={"language": "ko"})).status == 401


async def test_the_page_carries_the_case_forms_its_sentences_ask_for(client: Client) -> None:
    russian = (await page_data(client, "?lang=ru"))[1]["i18n-forms"]
    latvian = (await page_data(client, "?lang=lv"))[1]["i18n-forms"]
    english = (await page_data(client, "?lang=en"))[1]["i18n-forms"]
    assert russian.keys() == latvian.keys() == english.keys() and len(russian) == 8 * 5 + (6 + 9) * 5 + 9
    said = (russian["rank_K_ins"], russian["rank_Q_acc"], russian["suit_spanish_clubs_gen"])
    assert said == ("королём", "даму", "булав")
    assert (latvian["rank_K_acc"], latvian["suit_french_spades_ins"]) == ("karali", "pīķiem")
    assert english["rank_Q_acc"] == "Queen" and english["suit_french_spades_gen"] == "Spades"
    assert (russian["rank_7"], russian["rank_2_ins"], latvian["rank_7"], english["rank_7_ins"]) == (
        "семёрка", "двойкой", "7", "7")
