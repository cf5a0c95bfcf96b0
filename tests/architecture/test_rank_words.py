"""Cards named as their players say them: a Russian numbered card is a rank word («пятёрка монет», «двойкой
мечей»), never a bare number before its suit («5 монет» reads "five coins"), in every case a sentence asks for.

Expected names are written here by hand in Russian grammar, never read back from the catalogs.
"""

from __future__ import annotations

import re

import pytest

from engine import words
from engine.core.errors import Refusal, RefusalCode
from engine.i18n import refusal_text, translations

RU = translations("ru")
SPANISH = [f"{rank}-{suit}" for suit in ("cups", "coins", "swords", "clubs")
           for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "J", "N", "K", "A")]
# A number followed by a suit's word: what a rank must never read as.
BARE_NUMBER = re.compile(r"(?<![\w♥♦♣♠])\d+\s+[а-яё]", re.IGNORECASE)


def test_no_russian_spanish_card_is_a_bare_number_before_its_suit_in_any_case() -> None:
    said = [words.card_name(card, RU, spanish=True, case=case) for card in SPANISH for case in words.CASES]
    assert len(said) == 48 * 6 and [name for name in said if BARE_NUMBER.search(name)] == []


@pytest.mark.parametrize(("card", "case", "name"), [
    ("5-coins", "nom", "пятёрка монет"), ("2-swords", "ins", "двойкой мечей"), ("3-cups", "gen", "тройки кубков"),
    ("4-clubs", "acc", "четвёрку булав"), ("6-coins", "dat", "шестёрке монет"), ("7-swords", "loc", "семёрке мечей"),
    ("8-cups", "nom", "восьмёрка кубков"), ("9-clubs", "ins", "девяткой булав"), ("A-coins", "nom", "туз монет"),
    ("K-cups", "ins", "королём кубков"), ("J-swords", "acc", "валета мечей"),
])
def test_a_russian_spanish_card_says_its_rank_in_the_case_asked(card: str, case: str, name: str) -> None:
    assert words.card_name(card, RU, spanish=True, case=case) == name
    assert format(words.named_card(card, RU, spanish=True), case) == name


def test_the_page_gets_a_word_for_every_numbered_rank_in_every_case() -> None:
    page = words.page_strings(RU)
    said = [page[f"rank_{n}"] for n in ("2", "3", "4", "5", "6", "7", "8", "9", "10")]
    assert said == ["двойка", "тройка", "четвёрка", "пятёрка", "шестёрка", "семёрка", "восьмёрка", "девятка",
                    "десятка"]
    assert (page["rank_10_gen"], page["rank_10_dat"], page["rank_10_acc"], page["rank_10_ins"],
            page["rank_10_loc"]) == ("десятки", "десятке", "десятку", "десяткой", "десятке")
    english = words.page_strings(translations("en"))
    assert english["rank_5"] == "5" and english["rank_5_ins"] == "5"  # English keeps the number: "5 of Coins"


def test_a_bot_refusal_names_a_numbered_card_by_its_rank() -> None:
    assert refusal_text(Refusal(RefusalCode.CARD_NOT_IN_HAND, card="2-swords"), "ru",
                        spanish=True) == "У тебя нет двойки мечей."
