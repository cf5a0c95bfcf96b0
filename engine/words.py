"""Wire words in the reader's language: cards, suits, board spaces, calls, moves, hand steps and game titles.

The page says these words through the same catalog entries (``templates/app.html``), so a
translator writes each once: a card's corner letter (``card corner``), a suit's name
(``Spanish suit``, ``French suit``), a Spanish card (``Spanish card``), a space of the
Kings in the Corner board (``compass point``). Anything unknown is shown as it came.

A sentence that names a card or a suit is a whole sentence per language: its translation
asks for the name in the case the sentence needs (``{suit:gen}``: ``зашли с пик``) or, in
Korean, with the particle its last sound takes (``{card:을}``: ``K♠를``, ``클럽 N을``).
``named_card`` and ``named_suit`` give such a name (a ``Named``); a suit's and a rank word's case forms are
catalog entries of their own (``French suit:gen``, ``card rank:ins``). A French card's short name (``Д♠``) reads
the same in every case; a Spanish card is named in words, its rank declined (``двойкой мечей``, ``monētu dūzi``).
Numbered ranks are words where the language says them so (``пятёрка``), digits where it does not (``5``).
"""

from __future__ import annotations

from collections.abc import Mapping
from gettext import NullTranslations

from engine.core.errors import N_

Pair = tuple[str, str]


def NC_(context: str, message: str) -> Pair:
    """Mark a message with its context for extraction; it is translated where it is shown."""
    return context, message


RANK_LETTERS: dict[str, Pair] = {
    "A": NC_("card corner", "A"), "K": NC_("card corner", "K"), "Q": NC_("card corner", "Q"),
    "N": NC_("card corner", "N"), "J": NC_("card corner", "J"),
}
SUIT_SIGNS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}
SPANISH_SUITS: dict[str, Pair] = {
    "cups": NC_("Spanish suit", "Cups"), "coins": NC_("Spanish suit", "Coins"),
    "swords": NC_("Spanish suit", "Swords"), "clubs": NC_("Spanish suit", "Clubs"),
}
FRENCH_SUITS: dict[str, Pair] = {
    "hearts": NC_("French suit", "Hearts"), "diamonds": NC_("French suit", "Diamonds"),
    "clubs": NC_("French suit", "Clubs"), "spades": NC_("French suit", "Spades"),
}
# Each suit's name in the cases a sentence may need (Russian and Latvian decline them; the others repeat it).
CASES = ("nom", "gen", "dat", "acc", "ins", "loc")
SUIT_CASES: dict[tuple[str, str], dict[str, Pair]] = {
    ("spanish", "cups"): {
        "gen": NC_("Spanish suit:gen", "Cups"), "dat": NC_("Spanish suit:dat", "Cups"),
        "acc": NC_("Spanish suit:acc", "Cups"), "ins": NC_("Spanish suit:ins", "Cups"),
        "loc": NC_("Spanish suit:loc", "Cups"),
    },
    ("spanish", "coins"): {
        "gen": NC_("Spanish suit:gen", "Coins"), "dat": NC_("Spanish suit:dat", "Coins"),
        "acc": NC_("Spanish suit:acc", "Coins"), "ins": NC_("Spanish suit:ins", "Coins"),
        "loc": NC_("Spanish suit:loc", "Coins"),
    },
    ("spanish", "swords"): {
        "gen": NC_("Spanish suit:gen", "Swords"), "dat": NC_("Spanish suit:dat", "Swords"),
        "acc": NC_("Spanish suit:acc", "Swords"), "ins": NC_("Spanish suit:ins", "Swords"),
        "loc": NC_("Spanish suit:loc", "Swords"),
    },
    ("spanish", "clubs"): {
        "gen": NC_("Spanish suit:gen", "Clubs"), "dat": NC_("Spanish suit:dat", "Clubs"),
        "acc": NC_("Spanish suit:acc", "Clubs"), "ins": NC_("Spanish suit:ins", "Clubs"),
        "loc": NC_("Spanish suit:loc", "Clubs"),
    },
    ("french", "hearts"): {
        "gen": NC_("French suit:gen", "Hearts"), "dat": NC_("French suit:dat", "Hearts"),
        "acc": NC_("French suit:acc", "Hearts"), "ins": NC_("French suit:ins", "Hearts"),
        "loc": NC_("French suit:loc", "Hearts"),
    },
    ("french", "diamonds"): {
        "gen": NC_("French suit:gen", "Diamonds"), "dat": NC_("French suit:dat", "Diamonds"),
        "acc": NC_("French suit:acc", "Diamonds"), "ins": NC_("French suit:ins", "Diamonds"),
        "loc": NC_("French suit:loc", "Diamonds"),
    },
    ("french", "clubs"): {
        "gen": NC_("French suit:gen", "Clubs"), "dat": NC_("French suit:dat", "Clubs"),
        "acc": NC_("French suit:acc", "Clubs"), "ins": NC_("French suit:ins", "Clubs"),
        "loc": NC_("French suit:loc", "Clubs"),
    },
    ("french", "spades"): {
        "gen": NC_("French suit:gen", "Spades"), "dat": NC_("French suit:dat", "Spades"),
        "acc": NC_("French suit:acc", "Spades"), "ins": NC_("French suit:ins", "Spades"),
        "loc": NC_("French suit:loc", "Spades"),
    },
}
# The words of the page's full card names (``туз червей``, ``erceņu dūzis``) in the cases a sentence may need, by the
# page's key of the rank (``rank_A``; a Jack is a Knave in the Spanish deck): a number reads the same in every case.
RANK_CASES: dict[str, dict[str, Pair]] = {
    "A": {
        "gen": NC_("card rank:gen", "Ace"), "dat": NC_("card rank:dat", "Ace"),
        "acc": NC_("card rank:acc", "Ace"), "ins": NC_("card rank:ins", "Ace"),
        "loc": NC_("card rank:loc", "Ace"),
    },
    "K": {
        "gen": NC_("card rank:gen", "King"), "dat": NC_("card rank:dat", "King"),
        "acc": NC_("card rank:acc", "King"), "ins": NC_("card rank:ins", "King"),
        "loc": NC_("card rank:loc", "King"),
    },
    "Q": {
        "gen": NC_("card rank:gen", "Queen"), "dat": NC_("card rank:dat", "Queen"),
        "acc": NC_("card rank:acc", "Queen"), "ins": NC_("card rank:ins", "Queen"),
        "loc": NC_("card rank:loc", "Queen"),
    },
    "N": {
        "gen": NC_("card rank:gen", "Knight"), "dat": NC_("card rank:dat", "Knight"),
        "acc": NC_("card rank:acc", "Knight"), "ins": NC_("card rank:ins", "Knight"),
        "loc": NC_("card rank:loc", "Knight"),
    },
    "J_spanish": {
        "gen": NC_("card rank:gen", "Knave"), "dat": NC_("card rank:dat", "Knave"),
        "acc": NC_("card rank:acc", "Knave"), "ins": NC_("card rank:ins", "Knave"),
        "loc": NC_("card rank:loc", "Knave"),
    },
    "J_french": {
        "gen": NC_("card rank:gen", "Jack"), "dat": NC_("card rank:dat", "Jack"),
        "acc": NC_("card rank:acc", "Jack"), "ins": NC_("card rank:ins", "Jack"),
        "loc": NC_("card rank:loc", "Jack"),
    },
}
# A numbered card's rank as a word, where its language says one (Russian «пятёрка монет», «двойкой мечей»: a bare
# «5 монет» reads "five coins"); languages that say the number keep the digit. Its case forms are in RANK_CASES.
NUMBER_RANKS: dict[str, Pair] = {
    "2": NC_("card rank", "2"), "3": NC_("card rank", "3"), "4": NC_("card rank", "4"), "5": NC_("card rank", "5"),
    "6": NC_("card rank", "6"), "7": NC_("card rank", "7"), "8": NC_("card rank", "8"), "9": NC_("card rank", "9"),
    "10": NC_("card rank", "10"),
}
RANK_CASES.update({
    "2": {"gen": NC_("card rank:gen", "2"), "dat": NC_("card rank:dat", "2"), "acc": NC_("card rank:acc", "2"),
          "ins": NC_("card rank:ins", "2"), "loc": NC_("card rank:loc", "2")},
    "3": {"gen": NC_("card rank:gen", "3"), "dat": NC_("card rank:dat", "3"), "acc": NC_("card rank:acc", "3"),
          "ins": NC_("card rank:ins", "3"), "loc": NC_("card rank:loc", "3")},
    "4": {"gen": NC_("card rank:gen", "4"), "dat": NC_("card rank:dat", "4"), "acc": NC_("card rank:acc", "4"),
          "ins": NC_("card rank:ins", "4"), "loc": NC_("card rank:loc", "4")},
    "5": {"gen": NC_("card rank:gen", "5"), "dat": NC_("card rank:dat", "5"), "acc": NC_("card rank:acc", "5"),
          "ins": NC_("card rank:ins", "5"), "loc": NC_("card rank:loc", "5")},
    "6": {"gen": NC_("card rank:gen", "6"), "dat": NC_("card rank:dat", "6"), "acc": NC_("card rank:acc", "6"),
          "ins": NC_("card rank:ins", "6"), "loc": NC_("card rank:loc", "6")},
    "7": {"gen": NC_("card rank:gen", "7"), "dat": NC_("card rank:dat", "7"), "acc": NC_("card rank:acc", "7"),
          "ins": NC_("card rank:ins", "7"), "loc": NC_("card rank:loc", "7")},
    "8": {"gen": NC_("card rank:gen", "8"), "dat": NC_("card rank:dat", "8"), "acc": NC_("card rank:acc", "8"),
          "ins": NC_("card rank:ins", "8"), "loc": NC_("card rank:loc", "8")},
    "9": {"gen": NC_("card rank:gen", "9"), "dat": NC_("card rank:dat", "9"), "acc": NC_("card rank:acc", "9"),
          "ins": NC_("card rank:ins", "9"), "loc": NC_("card rank:loc", "9")},
    "10": {"gen": NC_("card rank:gen", "10"), "dat": NC_("card rank:dat", "10"), "acc": NC_("card rank:acc", "10"),
           "ins": NC_("card rank:ins", "10"), "loc": NC_("card rank:loc", "10")},
})
# The court cards' and the Ace's words in the nominative (the page's ``rank_A`` …), by the same keys as RANK_CASES.
COURT_WORDS: dict[str, str] = {"A": N_("Ace"), "K": N_("King"), "Q": N_("Queen"), "N": N_("Knight"),
                               "J_spanish": N_("Knave"), "J_french": N_("Jack")}
SPANISH_CARDS: dict[str, Pair] = {
    "cups": NC_("Spanish card", "{rank} of Cups"), "coins": NC_("Spanish card", "{rank} of Coins"),
    "swords": NC_("Spanish card", "{rank} of Swords"), "clubs": NC_("Spanish card", "{rank} of Clubs"),
}
SPACES: dict[str, Pair] = {
    "N": NC_("compass point", "N"), "E": NC_("compass point", "E"), "S": NC_("compass point", "S"),
    "W": NC_("compass point", "W"), "NE": NC_("compass point", "NE"), "SE": NC_("compass point", "SE"),
    "SW": NC_("compass point", "SW"), "NW": NC_("compass point", "NW"),
}
CALLS: dict[str, str] = {"no_trump": N_("No Trump"), "misere": N_("Misère")}  # the others are suits
# What a move does, as in "You cannot {action} now" (Sergeant Major's moves, which are refused by hand step).
ACTIONS: dict[str, Pair] = {
    "play": NC_("move", "play a card"), "bid": NC_("move", "bid"), "pass": NC_("move", "pass"),
    "give": NC_("move", "give cards"), "discard": NC_("move", "discard to the kitty"),
    "call": NC_("move", "make a call"), "name_trump": NC_("move", "name trumps"),
    "swap": NC_("move", "swap the 2 of Diamonds"), "decline_swap": NC_("move", "keep the 2 of Diamonds"),
}
# The steps of a hand, as in "the hand is at the {phase} step".
PHASES: dict[str, Pair] = {
    "bid": NC_("hand step", "bidding"), "exchange": NC_("hand step", "exchange"), "call": NC_("hand step", "call"),
    "trump": NC_("hand step", "naming trumps"), "kitty": NC_("hand step", "kitty"),
    "swap": NC_("hand step", "swap"), "play": NC_("hand step", "play"), "over": NC_("hand step", "game over"),
}


def _say(words: dict[str, Pair], code: str, reader: NullTranslations) -> str:
    pair = words.get(code)
    return reader.pgettext(*pair) if pair is not None else code


def rank_letter(rank: str, reader: NullTranslations) -> str:
    """A rank as a card's corner prints it in the reader's language (Т, К, Д, Р, В in Russian; numbers stay)."""
    return _say(RANK_LETTERS, rank, reader)


def rank_word(rank: str, reader: NullTranslations, *, deck: str = "french", case: str = "nom") -> str:
    """A rank as a word in ``case``, as a full card name says it: ``пятёрка``, ``двойкой``, ``даму``, ``5``."""
    key = f"J_{deck}" if rank == "J" else rank
    forms = RANK_CASES.get(key, {})
    if case in forms:
        return reader.pgettext(*forms[case])
    if key in NUMBER_RANKS:
        return reader.pgettext(*NUMBER_RANKS[key])
    return reader.gettext(COURT_WORDS[key]) if key in COURT_WORDS else rank


def card_name(code: str, reader: NullTranslations, *, spanish: bool = False, case: str = "nom") -> str:
    """A card's wire code (``"9-clubs"``, ``"N-cups"``) as the reader writes it: ``Д♠``, ``туз кубков``, ``코인 9``.

    ``spanish`` says the table plays the Spanish deck, where ``clubs`` are Clubs (Bastos), not ♣.
    ``case`` is the case the sentence needs: a French card's short name (a corner letter and a sign) reads the same
    in every case; a Spanish card is named in words, as the page names it (``пятёрку монет``, ``monētu dūzi``).
    """
    rank, _, suit = code.partition("-")
    if suit not in SUIT_SIGNS and suit not in SPANISH_CARDS:
        return code
    if suit in SUIT_SIGNS and not (spanish and suit == "clubs"):
        return f"{rank_letter(rank, reader)}{SUIT_SIGNS[suit]}"
    if suit in SPANISH_CARDS:
        return reader.pgettext(*SPANISH_CARDS[suit]).format(rank=rank_word(rank, reader, deck="spanish", case=case))
    return code


def suit_name(code: str, reader: NullTranslations, *, spanish: bool = False, case: str = "nom") -> str:
    """A suit's wire code as the reader names it in ``case`` (``nom``, ``gen``, ``dat``, ``acc``, ``ins``, ``loc``):
    the Spanish deck's and the French deck's own words (``Пики``, ``пик``, ``пиками``)."""
    deck = "spanish" if code in SPANISH_SUITS and (spanish or code not in FRENCH_SUITS) else "french"
    forms = SUIT_CASES.get((deck, code), {})
    if case in forms:
        return reader.pgettext(*forms[case])
    return _say(SPANISH_SUITS if deck == "spanish" else FRENCH_SUITS, code, reader)


def call_name(code: str, reader: NullTranslations) -> str:
    """A Sergeant Major call: a suit, No Trump or Misère, in the reader's language."""
    return reader.gettext(CALLS[code]) if code in CALLS else suit_name(code, reader)


def space_name(code: str, reader: NullTranslations) -> str:
    """A Kings in the Corner space (``"NE"``) as the board labels it in the reader's language."""
    return _say(SPACES, code, reader)


def action_name(code: str, reader: NullTranslations) -> str:
    """A move's type (``"name_trump"``) as words in the reader's language."""
    return _say(ACTIONS, code, reader)


def phase_name(code: str, reader: NullTranslations) -> str:
    """A hand's step (``"exchange"``) as words in the reader's language."""
    return _say(PHASES, code, reader)


def game_title(title: str, reader: NullTranslations) -> str:
    """A game's title (``"Coins"``, marked where each game names itself) in the reader's language."""
    return reader.gettext(title)


# Korean particles: the form after a final consonant, and the one after a vowel. 으로/로 also takes 로 after ㄹ.
PARTICLES: dict[str, tuple[str, str]] = {
    "이": ("이", "가"), "가": ("이", "가"), "을": ("을", "를"), "를": ("을", "를"), "은": ("은", "는"),
    "는": ("은", "는"), "과": ("과", "와"), "와": ("과", "와"), "으로": ("으로", "로"), "로": ("으로", "로"),
    "이나": ("이나", "나"),
    "이라서": ("이라서", "라서"), "이에요": ("이에요", "예요"), "이고": ("이고", "고"), "이야": ("이야", "야"),
}
RIEUL = 8  # ㄹ, the final consonant after which 으로 is 로
# How a character that is not a Hangul syllable ends when read aloud in Korean: its final consonant
# (0: a vowel). Digits as Sino-Korean numbers (일, 이, 삼 …), Latin letters by their names (에이, 엘, 엠, 엔 …),
# suit signs by their suits' names (하트, 다이아몬드, 클로버, 스페이드).
DIGIT_ENDS = {"0": 21, "1": RIEUL, "2": 0, "3": 16, "4": 0, "5": 0, "6": 1, "7": RIEUL, "8": RIEUL, "9": 0}
TENS_ENDS = {1: 17, 2: 1, 3: 4, 4: 4}  # 십 (ㅂ), 백 (ㄱ), 천 (ㄴ), 만 (ㄴ): a number ending in zeros
LETTER_ENDS = {"L": RIEUL, "M": 16, "N": 4, "R": RIEUL}  # 엘, 엠, 엔, 알; every other letter's name ends in a vowel
SIGN_ENDS = {"♥": 0, "♦": 0, "♣": 0, "♠": 0}
SKIPPED = " )]}»”’'\".!?"


def final_consonant(word: str) -> int:
    """The final consonant (jongseong index, 0 for none) of a word's last sound as read in Korean.

    A Hangul syllable's is ``(ord(ch) - 0xAC00) % 28``; digits, Latin letters and suit signs are read aloud.
    """
    text = word.rstrip(SKIPPED)
    if not text:
        return 0
    last = text[-1]
    if "\uac00" <= last <= "\ud7a3":
        return (ord(last) - 0xAC00) % 28
    if last.isdigit():
        digits = text[len(text.rstrip("0123456789")):]
        zeros = len(digits) - len(digits.rstrip("0"))
        if zeros and digits.strip("0"):
            return TENS_ENDS.get(zeros, 4)
        return DIGIT_ENDS.get(last, 0)
    return LETTER_ENDS.get(last.upper(), SIGN_ENDS.get(last, 0))


def particle(word: str, which: str) -> str:
    """The Korean particle ``which`` (``을``, ``이``, ``은``, ``으로``, ``과`` …, either form) that follows ``word``."""
    after_consonant, after_vowel = PARTICLES[which]
    end = final_consonant(word)
    if after_consonant == "으로":
        return after_vowel if end in (0, RIEUL) else after_consonant
    return after_consonant if end else after_vowel


def with_particle(word: str, which: str) -> str:
    """``word`` followed by the particle its last sound takes: ``하트가``, ``클럽 N을``, ``컵 10으로``, ``K♠로``."""
    return word + particle(word, which)


class Named(str):
    """A name put into a sentence: ``{suit:gen}`` says it in a case, ``{card:을}`` adds a Korean particle.

    A translation asks for the form its sentence needs; a form the name does not have reads as the name.
    """

    forms: Mapping[str, str]

    def __new__(cls, text: str, forms: Mapping[str, str] | None = None) -> Named:
        """The name ``text`` and its forms by case."""
        named = super().__new__(cls, text)
        named.forms = dict(forms or {})
        return named

    def __format__(self, spec: str) -> str:
        """The form ``spec`` asks for: a case (``acc``), a particle (``을``), or the name itself."""
        if spec in PARTICLES:
            return with_particle(str(self), spec)
        if spec in CASES:
            return self.forms.get(spec, str(self))
        return format(str(self), spec)


def named_card(code: str, reader: NullTranslations, *, spanish: bool = False) -> Named:
    """A card's name with its forms, for a sentence that asks for a case or a particle."""
    return Named(card_name(code, reader, spanish=spanish),
                 {case: card_name(code, reader, spanish=spanish, case=case) for case in CASES})


def named_suit(code: str, reader: NullTranslations, *, spanish: bool = False) -> Named:
    """A suit's name with its case forms (``Пики``: ``пик``, ``пикам``, ``пики``, ``пиками``, ``пиках``)."""
    return Named(suit_name(code, reader, spanish=spanish),
                 {case: suit_name(code, reader, spanish=spanish, case=case) for case in CASES})


def named_list(names: list[Named]) -> Named:
    """Names joined by commas, each in the form the sentence asks for (``пик, треф``)."""
    return Named(", ".join(names), {case: ", ".join(n.forms.get(case, n) for n in names) for case in CASES})


def page_strings(reader: NullTranslations) -> dict[str, str]:
    """Every suit's and every rank word's case forms as page strings (``suit_french_spades_gen``: ``пик``,
    ``rank_Q_acc``: ``даму``, ``rank_5``: ``пятёрка``), for the page's card names and its sentences that ask for a
    card or a suit in a case."""
    suits = {f"suit_{deck}_{code}_{case}": reader.pgettext(*pair)
             for (deck, code), forms in SUIT_CASES.items() for case, pair in forms.items()}
    ranks = {f"rank_{key}_{case}": reader.pgettext(*pair) for key, forms in RANK_CASES.items()
             for case, pair in forms.items()}
    numbers = {f"rank_{key}": reader.pgettext(*pair) for key, pair in NUMBER_RANKS.items()}
    return {**suits, **ranks, **numbers}
