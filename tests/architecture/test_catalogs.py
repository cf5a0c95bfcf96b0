"""The translation catalogs stay complete: every string of the code in every language, nothing fuzzy or stale.

The strings are extracted from the sources the way ``make messages`` does, so a string
added to the code without its translations fails here, not in front of a player.
"""

from __future__ import annotations

import gettext
import re
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from engine.i18n import LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
# the same keywords as the Makefile's `messages` target
KEYWORDS = ["-k", "_", "-k", "gettext", "-k", "ngettext:1,2", "-k", "plurals:1,2", "-k", "translate:2", "-k", "N_",
            "-k", "NC_:1c,2"]
PLACEHOLDER = re.compile(r"\{[a-z_]*(?::[^{}]*)?\}|%\([a-z_]+\)[sd]|</?[a-z]+[^>]*>")
FORM = re.compile(r"^(\{[a-z_]*):[^{}]*\}$")  # a name asked for in a form (``{suit:gen}``, ``{card:을}``) is that name


@cache
def extracted() -> Catalog:
    """Every string the code and templates mark for translation."""
    pybabel = Path(sys.executable).with_name("pybabel")
    with tempfile.TemporaryDirectory() as tmp:
        pot = Path(tmp) / "messages.pot"
        subprocess.run([str(pybabel), "-q", "extract", "-F", "babel.cfg", *KEYWORDS, "-o", str(pot), "."],
                       cwd=ROOT, capture_output=True, check=True)
        with pot.open("rb") as source:
            return read_po(source)


@cache
def catalog(lang: str) -> Catalog:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=lang)


def keys(cat: Catalog) -> set[tuple[str | None, str]]:
    """Each entry as gettext finds it: its context and its (singular) msgid."""
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in cat if m.id}


def translations(message: Message) -> list[str]:
    """The message's translated string, or its plural forms; a catalog read from a .po file always has them."""
    assert message.string is not None
    return [message.string] if isinstance(message.string, str) else list(message.string)


def placeholders(text: str) -> list[str]:
    return sorted(FORM.sub(r"\1}", found) for found in PLACEHOLDER.findall(text))


def test_the_code_marks_strings_for_translation() -> None:
    assert len(keys(extracted())) > 300


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_string_of_the_code_is_in_every_catalog(lang: str) -> None:
    missing = sorted(keys(extracted()) - keys(catalog(lang)), key=str)
    assert missing == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_string_of_the_code_is_translated(lang: str) -> None:
    cat = catalog(lang)
    empty = [m.id for m in cat if m.id and not all(translations(m))]
    assert empty == []


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_catalog_holds_fuzzy_or_stale_entries(lang: str) -> None:
    cat = catalog(lang)
    assert [m.id for m in cat if m.id and m.fuzzy] == []
    assert sorted(keys(cat) - keys(extracted()), key=str) == []
    assert list(cat.obsolete) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_and_tags_match_the_source(lang: str) -> None:
    wrong = []
    for message in catalog(lang):
        if not message.id:
            continue
        sources = [message.id] if isinstance(message.id, str) else list(message.id)
        for text in translations(message):
            if not any(placeholders(text) == placeholders(source) for source in sources):
                wrong.append((message.id, text))
    assert wrong == []


def test_plural_rules_follow_each_language() -> None:
    """Russian and Latvian have three forms (1 and 21 share one), Korean one."""
    russian, latvian = (gettext.c2py(catalog(lang).plural_expr) for lang in ("ru", "lv"))
    assert [russian(n) for n in (1, 3, 5, 21, 11)] == [0, 1, 2, 0, 2]
    assert [latvian(n) for n in (0, 1, 2, 11, 21)] == [2, 0, 1, 1, 0]
    assert catalog("ko").num_plurals == 1
