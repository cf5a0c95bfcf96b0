"""The page names Russian numbered cards by their ranks («пятёрка монет», «двойкой мечей») wherever it names a
card: card names in every case, the coach's sentences and the screen-reader names of the cards in a hand.

Expected words are written here by hand in Russian grammar, never read back from the catalogs.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from engine import words
from engine.i18n import translations
from tests.browser.conftest import Server
from tests.browser.test_languages_browser import new_table, open_in_language, user_for
from tests.browser.test_sentence_words_browser import shell_module

# A number followed by a word: a rank read as a quantity ("5 монет" is "five coins").
BARE_NUMBER = r"(^|[^\w♥♦♣♠])\d+\s+[а-яё]"

EVERY_NAME = """async ([i18nUrl, cardsUrl]) => {
  const { CASES, t, you } = await import(i18nUrl);
  const { DECKS, cardName } = await import(cardsUrl);
  const names = [];
  for (const [deck, { suits, ranks }] of Object.entries(DECKS))
    for (const suit of suits) for (const rank of ranks) {
      const name = cardName(`${rank}-${suit}`, deck);
      names.push(String(name), ...CASES.map((c) => t("{x:" + c + "}", { x: name })));
    }
  const spanish = Object.fromEntries(DECKS.spanish.suits.flatMap((suit) => DECKS.spanish.ranks.map((rank) => {
    const name = cardName(`${rank}-${suit}`, "spanish");
    return [`${rank}-${suit}`, CASES.map((c) => t("{x:" + c + "}", { x: name }))];
  })));
  const said = {
    five: String(cardName("5-coins", "spanish")),
    took: t("coach_coins_trick_two", { name: you(), card: cardName("2-swords", "spanish"),
      suit: "", odd: cardName("7-cups", "spanish") }),
    ten: t("{card:acc}", { card: cardName("10-hearts", "french") }),
  };
  return { names, said, spanish };
}"""


async def test_no_russian_card_name_is_a_bare_number_before_its_suit(browser: Any, server: Server) -> None:
    ann = await open_in_language(browser, server, user_for("ru", 71), "ru")
    page = ann.page
    await expect(page.locator(".game-picker")).to_be_visible()
    got = await page.evaluate(EVERY_NAME, [await shell_module(page, "i18n.js"), await shell_module(page, "cards.js")])
    names = got["names"]
    assert len(names) == (48 + 52) * 7 and [n for n in names if re.search(BARE_NUMBER, n, re.IGNORECASE)] == []
    assert got["said"]["five"] == "пятёрка монет" and got["said"]["ten"] == "десятку червей"
    assert got["said"]["took"].startswith("Ты берёшь взятку двойкой мечей:"), got["said"]["took"]
    assert "Третья карта, семёрка кубков," in got["said"]["took"]
    # the bot names a Spanish card as the page does, in every case (its refusals: «У тебя нет пятёрки монет»)
    reader = translations("ru")
    assert got["spanish"] == {card: [words.card_name(card, reader, spanish=True, case=case) for case in words.CASES]
                              for card in got["spanish"]}
    assert ann.errors == []


async def test_a_russian_hands_cards_are_read_aloud_by_rank(browser: Any, server: Server) -> None:
    user = user_for("ru", 72)
    table_id = await new_table(server, "coins", user["id"], {"first_dealer": "seat:2"}, "rank-words-ru")
    ann = await open_in_language(browser, server, user, "ru", start_param=table_id)
    page = ann.page
    await expect(page.locator(".hand .card")).to_have_count(16)
    labels = await page.locator(".hand .card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    numbered = [label for label in labels if re.match(r"^(двойка|тройка|четвёрка|пятёрка|шестёрка|семёрка|восьмёрка"
                                                       r"|девятка) (кубков|монет|мечей|булав)$", label)]
    assert numbered and not [label for label in labels if re.search(BARE_NUMBER, label)], labels
    assert ann.errors == []
