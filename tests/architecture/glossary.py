"""One word per concept per language: the word the catalogs use for each game concept, and the words they must not.

A player reading «раздача» on one screen and «сдача» on the next, or 더미 for both Kings in the Corner's piles and
its stock, cannot tell whether the two are one thing. Each entry names the concept (in English), the one word its
language uses for it (a reader's note, in its dictionary form), and patterns for the words that must not stand for
it. ``tests/architecture/test_glossary.py`` fails on any translated string holding a forbidden word.

Patterns are regular expressions over a translated string, case-insensitive; Cyrillic and Latvian letters count as
word characters, so ``(?<!\\w)`` marks the start of a word.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Term:
    """A concept's one word in a language, and the words that must not be used for it."""

    concept: str
    word: str
    forbidden: tuple[str, ...]


GLOSSARY: dict[str, tuple[Term, ...]] = {
    "ru": (
        # one deal played out (Hand 3, the deal of the day); the whole match is «игра» or «партия»
        Term("hand", "раздача", (r"(?<![\w])сдач",)),
        Term("trick", "взятка", (r"трюк", r"взяточк")),
        Term("trump", "козырь", (r"трамп",)),
        Term("pile (Kings in the Corner)", "стопка", (r"(?<!\w)куч[аеиуко]", r"стопочк")),
        Term("stock (Kings in the Corner)", "колода", (r"(?<!\w)запас\w* карт", r"(?<!\w)банк\w*")),
        Term("kitty (Sergeant Major)", "прикуп", (r"(?<!\w)кит(?:ти)?(?!\w)", r"(?<!\w)вдов")),
        Term("dealer", "сдающий", (r"(?<!\w)дилер", r"(?<!\w)раздающ")),
        Term("seed (of the deals)", "ключ раздач", (r"(?<!\w)сид(?:а|у|ом|е|ы|ов)?(?!\w)", r"(?<!\w)зерн")),
        Term("seed hash", "отпечаток ключа", (r"(?<!\w)х[еэ]ш",)),
        Term("follow suit", "ходить в масть", (r"следовать масти", r"класть масть")),
        Term("lead", "заходить", (r"(?<!\w)лидир",)),
    ),
    "lv": (
        # one deal played out (Partija 3, the deal of the day); dealing the cards is «dalīt», «dalīšana»
        Term("hand", "partija", (r"(?<!iz)dalījum", r"raund")),
        Term("trick", "stiķis", (r"(?<!\w)trik", r"(?<!\w)ņēmien")),
        Term("trump", "trumpis", (r"kozir",)),
        Term("pile (Kings in the Corner)", "kaudze", (r"kaudzīt", r"(?<!\w)steķ")),
        Term("stock (Kings in the Corner)", "kava", (r"krājum", r"(?<!\w)banka")),
        Term("kitty (Sergeant Major)", "pirkums", (r"(?<!\w)kit(?:ij|t)", r"atraitn")),
        Term("dealer", "dalītājs", (r"dīler", r"(?<!\w)dalītāj[sa] kārš")),
        Term("seed (of the deals)", "partiju atslēga", (r"sēkl",)),
        Term("seed hash", "atslēgas nospiedums", (r"jaucējkod", r"(?<!\w)heš")),
        Term("follow suit", "likt tā paša masta kārti", (r"jāliek masts(?!\w)",)),
    ),
    "ko": (
        # one deal played out (라운드 3, the deal of the day); 판 is not a hand, and only a whole game in 게임판's sense
        Term("hand", "라운드", (r"딜(?!러)", r"(?<!게임)판(?!돈)")),
        Term("trick", "트릭", (r"묶음",)),
        Term("trump", "으뜸패", (r"(?<!노 )트럼프",)),  # 노 트럼프 is the call's name, as bridge players say it
        Term("pile (Kings in the Corner)", "더미", (r"(?<![가-힣])줄(?:에|을|이|로)",)),
        # the stock is 덱, never 더미 (the piles' word) on the same screen
        Term("stock (Kings in the Corner)", "덱", (r"더미에서 (?:뽑|언제|카드)", r"더미도 비", r"더미 \{n\}",
                                                   r"뽑을 더미", r"더미 둘레", r"더미의 네 변")),
        Term("kitty (Sergeant Major)", "키티", (r"과부",)),
        Term("dealer", "딜러", (r"분배자", r"딜링")),
        Term("seed (of the deals)", "배분 열쇠", (r"시드",)),
        Term("seed hash", "열쇠 지문", (r"해시",)),
        Term("follow suit", "같은 무늬를 내다", (r"무늬를 따라",)),
        # the tricks/target line reads "10/8 (+2)", not "8 중 10" ("10 among 8")
        Term("tricks against a target", "{n}/{target}", (r"\{target\} 중 \{n\}",)),
    ),
}
