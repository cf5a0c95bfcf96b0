"""Wire words in the reader's language: cards, suits, board spaces, calls, moves, hand steps and game titles.

The page says these words through the same catalog entries (``templates/app.html``), so a
translator writes each once: a card's corner letter (``card corner``), a suit's name
(``Spanish suit``, ``French suit``), a Spanish card (``Spanish card``), a space of the
Kings in the Corner board (``compass point``). Anything unknown is shown as it came.
"""

from __future__ import annotations

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


def card_name(code: str, reader: NullTranslations, *, spanish: bool = False) -> str:
    """A card's wire code (``"9-clubs"``, ``"N-cups"``) as the reader writes it: ``Д♠``, ``Т кубков``, ``코인 9``.

    ``spanish`` says the table plays the Spanish deck, where ``clubs`` are Clubs (Bastos), not ♣.
    """
    rank, _, suit = code.partition("-")
    if suit not in SUIT_SIGNS and suit not in SPANISH_CARDS:
        return code
    letter = rank_letter(rank, reader)
    if suit in SUIT_SIGNS and not (spanish and suit == "clubs"):
        return f"{letter}{SUIT_SIGNS[suit]}"
    if suit in SPANISH_CARDS:
        return reader.pgettext(*SPANISH_CARDS[suit]).format(rank=letter)
    return code


def suit_name(code: str, reader: NullTranslations, *, spanish: bool = False) -> str:
    """A suit's wire code as the reader names it: the Spanish deck's and the French deck's own words."""
    if code in SPANISH_SUITS and (spanish or code not in FRENCH_SUITS):
        return _say(SPANISH_SUITS, code, reader)
    return _say(FRENCH_SUITS, code, reader)


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
