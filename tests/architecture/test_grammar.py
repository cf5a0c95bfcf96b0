"""Sentences read natively: Korean particles follow the name's last sound, a card or a suit is put into a
sentence only through its language's template, and each language speaks to the player in one register."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from engine import words
from engine.i18n import LOCALE_DIR, translations

KO = translations("ko")
FRENCH_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SPANISH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "J", "N", "K")
RANK_WORDS = {"A": "Ace", "K": "King", "Q": "Queen", "N": "Knight"}
# How Korean reads what may end a card's name, written out in Hangul (checked against the code's reading).
READ_ALOUD = {"2": "이", "3": "삼", "4": "사", "5": "오", "6": "육", "7": "칠", "8": "팔", "9": "구", "10": "십",
              "A": "에이", "K": "케이", "Q": "큐", "J": "제이", "N": "엔", "♥": "하트", "♦": "다이아몬드",
              "♣": "클로버", "♠": "스페이드"}
# Each particle: the form after a final consonant, the one after a vowel.
PAIRS = {"이": ("이", "가"), "을": ("을", "를"), "은": ("은", "는"), "과": ("과", "와"), "으로": ("으로", "로")}


def korean_names() -> list[str]:
    """Every card and suit as the Korean reader sees it: the bot's short names and the page's full ones."""
    names = []
    for suit in ("hearts", "diamonds", "clubs", "spades"):
        names += [words.card_name(f"{rank}-{suit}", KO) for rank in FRENCH_RANKS]
        names.append(words.suit_name(suit, KO))
        template = str(KO.pgettext("French card", f"{{rank}} of {suit.capitalize()}"))
        rank_word = {**RANK_WORDS, "J": "Jack"}
        names += [template.format(rank=KO.gettext(rank_word[r]) if r in rank_word else r) for r in FRENCH_RANKS]
    for suit in ("cups", "coins", "swords", "clubs"):
        names += [words.card_name(f"{rank}-{suit}", KO, spanish=True) for rank in SPANISH_RANKS]
        names.append(words.suit_name(suit, KO, spanish=True))
        template = str(KO.pgettext("Spanish card", f"{{rank}} of {suit.capitalize()}"))
        rank_word = {**RANK_WORDS, "J": "Knave"}
        names += [template.format(rank=KO.gettext(rank_word[r]) if r in rank_word else r) for r in SPANISH_RANKS]
    return names


def last_syllable(name: str) -> str:
    """The Hangul syllable a name ends on when read aloud."""
    for token, reading in sorted(READ_ALOUD.items(), key=lambda item: -len(item[0])):
        if name.endswith(token):
            return reading[-1]
    assert "\uac00" <= name[-1] <= "\ud7a3", name
    return name[-1]


@pytest.mark.parametrize("name", korean_names())
def test_every_korean_particle_follows_the_final_consonant_of_the_name(name: str) -> None:
    final = (ord(last_syllable(name)) - 0xAC00) % 28
    for which, (after_consonant, after_vowel) in PAIRS.items():
        if which == "으로":
            expected = after_vowel if final in (0, 8) else after_consonant  # ㄹ takes 로
        else:
            expected = after_consonant if final else after_vowel
        assert words.particle(name, which) == expected, (name, which)
        assert format(words.Named(name), which) == name + expected


def test_the_particle_rule_on_known_words() -> None:
    said = {word: [words.with_particle(word, p) for p in ("이", "을", "으로")]
            for word in ("하트", "책", "물", "컵 10", "클럽 N", "K♠", "코인 9", "서울")}
    assert said == {
        "하트": ["하트가", "하트를", "하트로"], "책": ["책이", "책을", "책으로"], "물": ["물이", "물을", "물로"],
        "컵 10": ["컵 10이", "컵 10을", "컵 10으로"], "클럽 N": ["클럽 N이", "클럽 N을", "클럽 N으로"],
        "K♠": ["K♠가", "K♠를", "K♠로"], "코인 9": ["코인 9가", "코인 9를", "코인 9로"],
        "서울": ["서울이", "서울을", "서울로"],
    }


@cache
def catalog(lang: str) -> Catalog:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=lang)


def texts(message: Message) -> list[str]:
    """A message's translation, or each of its plural forms."""
    assert message.string is not None
    return [message.string] if isinstance(message.string, str) else list(message.string)


# The parameters that carry a card's or a suit's name (a call is a suit, No Trump or Misère).
NAMES_A_CARD = ("card", "top", "odd", "bottom", "cards", "gave", "back", "suit", "suits", "missing", "trump", "call",
                "calls")
SLOT = re.compile(r"\{(" + "|".join(NAMES_A_CARD) + r")(?::([^{}]*))?\}")
# The template of a language with cases: a card's or suit's name stands where its own form is right, either after
# a noun that takes the case for it (``карту {card}``, ``masta {suit}``) or on its own (a label: ``{card}: …``,
# ``— {card}.``, ``({suit})``, ``«{call}»``); anywhere else the sentence asks for a form (``{top:acc}``).
HEAD_NOUN = {
    "ru": re.compile(r"(?:карт(?:а|ы|у|ой|е|ами|ам|ах)?|масть|масти|мастью|мастей|козыр[ьияюей]*)\s$",
                     re.IGNORECASE),
    "lv": re.compile(r"(?:kārt[sieīj]*|mast[saāuoie]*|trump[iujsa]*)\s$", re.IGNORECASE),
}
ON_ITS_OWN_BEFORE = re.compile(r"(?:^|[:—]\s|[(«„'‘]|,\s)$")
ON_ITS_OWN_AFTER = re.compile(r"^(?:$|[.,;:!?)»”'’]|\s[—→(])")
# Korean: a name is followed by a space (then a noun that takes the particle: ``{card} 카드를``), punctuation, or
# a particle the code chose (``{card:을}``); a particle glued to the placeholder cannot fit every name.
KOREAN_AFTER = re.compile(r"^(?:$|[\s.,;:!?)\]→'’”])")
FALLBACK_PARTICLE = re.compile(r"\((?:이|가|을|를|은|는|과|와|으|이라|으로|로)\)")


def misplaced(lang: str, text: str) -> list[str]:
    """The card and suit names of a translation that stand where their language's template does not allow them.

    A form asked for (``{top:acc}``, ``{card:을}``) must be one the server's ``engine.words`` and the page's
    ``i18n.js`` both give: a case, or a Korean particle chosen by the name's last sound.
    """
    wrong = []
    for slot in SLOT.finditer(text):
        before, after, form = text[:slot.start()], text[slot.end():], slot.group(2)
        if form is not None:
            known = words.PARTICLES if lang == "ko" else words.CASES
            if form not in known:
                wrong.append(slot.group(0))
        elif lang == "ko":
            if not KOREAN_AFTER.match(after):
                wrong.append(slot.group(0) + after[:2])
        elif not HEAD_NOUN[lang].search(before) and not (ON_ITS_OWN_BEFORE.search(before)
                                                          and ON_ITS_OWN_AFTER.match(after)):
            wrong.append(before[-12:] + slot.group(0) + after[:12])
    return wrong


@pytest.mark.parametrize("lang", ["ru", "lv", "ko"])
def test_every_card_and_suit_name_stands_where_its_languages_template_puts_it(lang: str) -> None:
    wrong = []
    for message in catalog(lang):
        if not message.id:
            continue
        for text in texts(message):
            found = misplaced(lang, text)
            if found:
                wrong.append((message.id if isinstance(message.id, str) else message.id[0], found))
    assert wrong == []


def test_the_template_rule_catches_english_order() -> None:
    assert misplaced("ru", "Булавы бьют {suit}, поэтому {suit} выигрывает.") == [
        "Булавы бьют {suit}, поэтому {s", "t}, поэтому {suit} выигрывает."]
    assert misplaced("ru", "Выигрывает масть {suit}.") == []
    assert misplaced("lv", "Kārti {card} nevar likt uz {top}.") == ["var likt uz {top}."]
    assert misplaced("lv", "Kārti {card} nevar likt uz kārts {top}.") == []
    assert misplaced("ko", "{card}을(를) 내 보세요.") == ["{card}을("]
    assert misplaced("ru", "Карту {card} нельзя положить на {top:acc}.") == []
    assert misplaced("ru", "Карту {card} нельзя положить на {top:dative}.") == ["{top:dative}"]
    assert misplaced("ko", "{card:을} 내 보세요.") == [] and misplaced("ko", "{card:acc} 내 보세요.") == ["{card:acc}"]


def test_no_korean_translation_falls_back_to_both_particles() -> None:
    glued = [text for message in catalog("ko") if message.id for text in texts(message)
             if FALLBACK_PARTICLE.search(text)]
    assert glued == []


# The player is addressed as friends address each other: Russian «ты», Latvian "tu" (Korean's 해요체 has no
# pronoun to check). These are the other register's pronouns, in every case.
POLITE = {
    "ru": re.compile(r"(?<![а-яё])(?:вы|вас|вам|вами|ваш\w*)(?![а-яё])", re.IGNORECASE),
    "lv": re.compile(r"(?<![\wāčēģīķļņšūž])(?:jūs|jums|jūsu|jūsēj\w*)(?![\wāčēģīķļņšūž])", re.IGNORECASE),
}
# Korean's formal 합니다체 and plain 반말 endings of a sentence, where the catalog speaks 해요체.
KOREAN_OTHER_REGISTER = re.compile(r"(?:니다|십시오)[.!?]?(?:\s|$)|(?:했다|한다|이다|해라|하라)[.!?]")


@pytest.mark.parametrize("lang", ["ru", "lv"])
def test_the_player_is_addressed_in_one_register(lang: str) -> None:
    polite = [text for message in catalog(lang) if message.id for text in texts(message) if POLITE[lang].search(text)]
    assert polite == []


def test_korean_speaks_haeyo_throughout() -> None:
    other = [text for message in catalog("ko") if message.id for text in texts(message)
             if KOREAN_OTHER_REGISTER.search(text)]
    assert other == []


def test_the_register_rule_catches_the_other_register() -> None:
    assert POLITE["ru"].search("Снова ваш ход") and POLITE["ru"].search("Вы взяли взятку")
    assert not POLITE["ru"].search("Ты взял взятку: выигрывает старшая")
    assert POLITE["lv"].search("Jūs nospēlējāt visu spēli") and POLITE["lv"].search("Atkal jūsu gājiens")
    assert not POLITE["lv"].search("Tu uzvarēji!")
    assert KOREAN_OTHER_REGISTER.search("트릭을 가져갔습니다.")
    assert not KOREAN_OTHER_REGISTER.search("트릭을 가져갔어요.")


GAME_TITLES = ("Coins", "Sergeant Major", "Kings in the Corner")


@pytest.mark.parametrize("lang", ["ru", "lv", "ko"])
def test_a_sentence_naming_a_game_names_it_as_the_catalog_translates_it(lang: str) -> None:
    reader = translations(lang)
    wrong = []
    for message in catalog(lang):
        source = message.id if isinstance(message.id, str) else message.id[0] if message.id else ""
        named = [title for title in GAME_TITLES if source.startswith(f"Welcome to {title}.")]
        for title in named:
            if title in str(message.string) or reader.gettext(title) not in str(message.string):
                wrong.append((source[:40], message.string))
    assert len([m for m in catalog(lang) if str(m.id).startswith("Welcome to ")]) == 3
    assert wrong == []


# A Korean particle whose form depends on the last sound of the word before it, glued to a placeholder.
GLUED_PARTICLE = re.compile(r"\}(?:이|가|을|를|은|는|와|과|으로|로|이에요|예요|이라서|라서|이고|이나)(?=[\s.,!?:;)]|$)")


def test_no_korean_placeholder_takes_a_particle_that_depends_on_its_value() -> None:
    glued = [text for message in catalog("ko") if message.id for text in texts(message) if GLUED_PARTICLE.search(text)]
    assert glued == []
    assert GLUED_PARTICLE.search("내가 {space}를 완성했어요.") and not GLUED_PARTICLE.search("라운드 {hand}에서 트릭")


def test_the_page_gets_every_suits_case_forms_in_the_readers_language() -> None:
    russian = words.page_strings(translations("ru"))
    assert len(russian) == 8 * 5 + (6 + 9) * 5 + 9 and russian["suit_french_spades_gen"] == "пик"
    assert (russian["rank_5"], russian["rank_2_ins"], russian["rank_10_acc"]) == ("пятёрка", "двойкой", "десятку")
    assert russian["rank_Q_acc"] == "даму" and words.page_strings(translations("lv"))["rank_A_acc"] == "dūzi"
    assert russian["suit_spanish_clubs_ins"] == "булавами" and russian["suit_french_clubs_ins"] == "трефами"
    assert words.page_strings(translations("lv"))["suit_french_hearts_loc"] == "erceņos"
    korean = words.page_strings(translations("ko"))
    assert {v for k, v in korean.items() if k.startswith("suit_")} == {
        "컵", "코인", "소드", "클럽", "하트", "다이아몬드", "클로버", "스페이드"}
