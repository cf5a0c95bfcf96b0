"""Each language says each game concept with one word: no translated string of any catalog holds a word the
glossary (``tests/architecture/glossary.py``) forbids for a concept, and the glossary's own words are in use."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from engine.i18n import LOCALE_DIR
from tests.architecture.glossary import GLOSSARY


@cache
def catalog(lang: str) -> Catalog:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=lang)


def translated(lang: str) -> list[tuple[str, str]]:
    """Every translated string of a catalog (each plural form), with the English it translates."""
    out = []
    for message in catalog(lang):
        if not message.id:
            continue
        source = message.id if isinstance(message.id, str) else message.id[0]
        strings = [message.string] if isinstance(message.string, str) else list(message.string or ())
        out += [(source, text) for text in strings if text]
    return out


def forbidden_words(lang: str, text: str) -> list[tuple[str, str]]:
    """The concepts a string names with a word the glossary forbids, and the words it used."""
    return [(term.concept, found.group(0)) for term in GLOSSARY[lang] for pattern in term.forbidden
            for found in re.finditer(pattern, text, re.IGNORECASE)]


@pytest.mark.parametrize("lang", sorted(GLOSSARY))
def test_every_translated_string_uses_the_glossarys_one_word_per_concept(lang: str) -> None:
    wrong = [(source[:50], text, found) for source, text in translated(lang)
             if (found := forbidden_words(lang, text))]
    assert wrong == []


@pytest.mark.parametrize("lang", sorted(GLOSSARY))
def test_the_glossarys_words_are_the_ones_the_catalog_uses(lang: str) -> None:
    """Each concept's word (its stem) appears in the catalog, so the glossary describes the catalog, not a wish."""
    texts = " ".join(text for _, text in translated(lang)).lower()
    stems = {term.concept: term.word.split()[0][:4].lower() for term in GLOSSARY[lang] if "{" not in term.word}
    assert [concept for concept, stem in stems.items() if stem not in texts] == []


def test_the_glossary_catches_the_drift_it_was_written_for() -> None:
    assert forbidden_words("ru", "Сдача 3: сид и хеш сида")
    assert {c for c, _ in forbidden_words("ru", "Сдача 3: сид и хеш сида")} == {"hand", "seed (of the deals)",
                                                                                  "seed hash"}
    assert not forbidden_words("ru", "Раздача 3, сдающий: Ann; отпечаток ключа")
    assert forbidden_words("lv", "Tev jāliek masts.") and forbidden_words("lv", "izgaismotai kaudzītei")
    assert not forbidden_words("lv", "Jāliek tāda paša masta kārts.") and not forbidden_words("lv", "Izdalījumā")
    assert {c for c, _ in forbidden_words("ko", "나: 8 중 10")} == set()  # a number, not the line's placeholders
    assert forbidden_words("ko", "{name}: {target} 중 {n} ({result})") and forbidden_words("ko", "더미 {n}장")
    assert forbidden_words("ko", "다음 판에서") and not forbidden_words("ko", "게임판에 있어요, 판돈 2")
    assert forbidden_words("ko", "공정한 딜") and not forbidden_words("ko", "딜러 왼쪽")
