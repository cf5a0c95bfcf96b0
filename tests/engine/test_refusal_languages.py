"""Every refusal in every language: translated as a whole, its cards, suits, spaces, moves and steps in words."""

from __future__ import annotations

import re

import pytest

from engine.core.errors import MESSAGES, Refusal, RefusalCode
from engine.i18n import refusal_text

# A representative wire value for each parameter. The first group is rendered in the reader's words; the
# others (numbers, names typed, lists of setting values) are shown as they came.
WORDED: dict[str, str] = {
    "card": "Q-spades", "top": "K-hearts", "suit": "clubs", "suits": "hearts, spades", "call": "no_trump",
    "calls": "diamonds, misere", "space": "NE", "action": "name_trump", "phase": "exchange",
    "game": "Kings in the Corner",
}
AS_GIVEN: dict[str, str | int] = {
    "seated": 3, "size": 2, "maximum": 50, "limit": 20, "minimum": 1, "count": 3, "given": 4, "low": 8, "high": 16,
    "last": 2, "players": 3, "name": "target_score", "games": "coins, kings_corner", "op": "fly", "ops": "join, leave",
    "example": "K-cups", "field": "card", "spaces": "N, E", "value": "99", "choices": "easy, strong",
    "settings": "target_score, timer", "word": "speed", "variant": "classic", "variants": "alternate",
    "actions": "play, bid", "code": "de", "languages": "en, ru, ko, lv", "seconds": 2, "date": "2026-12-02",
}
# The moves' own type names, which no sentence in a player's language should hold (syntax examples for what a
# person types, like removed_card=2-clubs, are another matter: they are to be typed as shown)
MOVE_TYPES = ("place_king", "fill_side", "move_king_pile", "name_trump", "decline_swap")


def wire_words(code: RefusalCode) -> re.Pattern[str]:
    """The wire values this code's worded parameters were given, and the move type names, as whole words."""
    given = [part.strip() for name in MESSAGES[code][1] if name in WORDED for part in WORDED[name].split(",")]
    return re.compile("|".join(rf"(?<![\w-]){re.escape(word)}(?![\w-])" for word in (*given, *MOVE_TYPES)))


def sample(code: RefusalCode) -> Refusal:
    """``code`` with a representative value for each of its parameters."""
    names = MESSAGES[code][1]
    return Refusal(code, **{name: WORDED[name] if name in WORDED else AS_GIVEN[name] for name in names})


@pytest.mark.parametrize("code", list(RefusalCode))
def test_every_refusal_reads_in_every_language_without_wire_words(code: RefusalCode) -> None:
    refusal = sample(code)
    english = refusal_text(refusal, "en")
    assert english == refusal.message or set(MESSAGES[code][1]) & set(WORDED)
    for lang in ("ru", "ko", "lv"):
        text = refusal_text(refusal, lang)
        assert text != english, (lang, text)
        assert not wire_words(code).search(text), (lang, text)
        assert "{" not in text.replace("{{", "").replace("}}", "") or code is RefusalCode.CREATE_SHAPE, text


def test_a_coins_refusal_names_spanish_cards_and_suits_the_way_each_language_does() -> None:
    held = Refusal(RefusalCode.CARD_NOT_IN_HAND, card="K-coins")
    follow = Refusal(RefusalCode.MUST_FOLLOW_SUIT, suit="clubs")
    assert refusal_text(held, "ru", spanish=True) == "У тебя нет короля монет."
    assert refusal_text(held, "ko", spanish=True) == "손패에 코인 킹 카드가 없어요."
    assert refusal_text(held, "lv", spanish=True) == "Tev nav monētu karaļa."
    assert refusal_text(held, "en", spanish=True) == "You do not hold King of Coins."
    five = Refusal(RefusalCode.CARD_NOT_IN_HAND, card="5-coins")
    assert refusal_text(five, "ru", spanish=True) == "У тебя нет пятёрки монет."  # a rank, not "five coins"
    assert refusal_text(five, "lv", spanish=True) == "Tev nav monētu 5."
    assert "Булавы" in refusal_text(follow, "ru", spanish=True)
    assert "Трефы" in refusal_text(follow, "ru")  # the French deck's clubs
    assert "클럽" in refusal_text(follow, "ko", spanish=True) and "Nūjas" in refusal_text(follow, "lv", spanish=True)


def test_french_cards_read_by_corner_letter_and_sign_and_spaces_by_the_boards_labels() -> None:
    fit = Refusal(RefusalCode.NOT_ONE_LOWER, card="Q-hearts", top="J-spades")
    assert refusal_text(fit, "ru").startswith("Карту Д♥ нельзя положить на В♠")
    corner = Refusal(RefusalCode.SPACE_NOT_EMPTY, space="NE")
    assert refusal_text(corner, "ru") == "На позиции СВ уже есть стопка."
    assert refusal_text(corner, "lv") == "Pozīcijā ZA jau ir kaudze."
    assert "북동" in refusal_text(corner, "ko")
    step = Refusal(RefusalCode.WRONG_PHASE, action="play", phase="exchange")
    assert refusal_text(step, "ru") == "Действие «сыграть карту» сейчас недоступно: раздача на этапе «обмен»."
    assert refusal_text(step, "en") == "You cannot play a card now: the hand is at the exchange step."
