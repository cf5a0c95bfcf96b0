"""The board of Kings in the Corner: card values and colours, the fit rule and the eight spaces.

Cards are the ints of ``engine.core.cards.FRENCH``. A pile is a tuple of cards from bottom
(first placed, highest) to top; the board is a tuple of eight piles indexed like
``SPACES``: the sides N, E, S, W (0..3), then the corners NE, SE, SW, NW (4..7).
"""

from __future__ import annotations

from engine.core.cards import FRENCH, Card, Mask
from engine.core.errors import IllegalAction, MalformedAction, RefusalCode, listed

DECK = FRENCH
WIDTH = len(DECK.ranks)
SPACES = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")
SIDES = (0, 1, 2, 3)
CORNERS = (4, 5, 6, 7)
SPACE_INDEX = {name: i for i, name in enumerate(SPACES)}
FULL_CORNER = 13  # RULES.md §3.3: a corner holding King down to Ace
Pile = tuple[Card, ...]
Piles = tuple[Pile, ...]


def _value(card: Card) -> int:
    # RULES.md §1.1: Ace low, A = 1, 2 … 10, J = 11, Q = 12, K = 13.
    rank = card % WIDTH
    return 1 if DECK.ranks[rank] == "A" else rank + 2


VALUES: tuple[int, ...] = tuple(_value(c) for c in range(DECK.size))
RED: tuple[bool, ...] = tuple(DECK.suit_name(c) in ("hearts", "diamonds") for c in range(DECK.size))
KING_MASK: Mask = sum(1 << c for c in range(DECK.size) if VALUES[c] == 13)
# FITS_ON[t]: the cards that fit on t (one lower, the other colour); nothing fits on an Ace.
FITS_ON: tuple[Mask, ...] = tuple(
    sum(1 << c for c in range(DECK.size) if VALUES[c] == VALUES[t] - 1 and RED[c] != RED[t]) for t in range(DECK.size)
)


def value(card: Card) -> int:
    """The card's value, Ace low (1) to King high (13)."""
    return VALUES[card]


def is_king(card: Card) -> bool:
    """Whether the card is a King."""
    return bool(KING_MASK >> card & 1)


def fits(card: Card, top: Card) -> bool:
    """Whether ``card`` fits on ``top`` (RULES.md §1.1)."""
    return bool(FITS_ON[top] >> card & 1)


def is_well_formed(pile: Pile) -> bool:
    """Whether every card of the pile fits on the one below it."""
    return all(fits(pile[i + 1], pile[i]) for i in range(len(pile) - 1))


def space_of(name: object) -> int:
    """The index of a space name; raises MalformedAction for anything else."""
    index = SPACE_INDEX.get(name) if isinstance(name, str) else None
    if index is None:
        raise MalformedAction(RefusalCode.UNKNOWN_SPACE, given=str(name), spaces=listed(SPACES))
    return index


def text(card: Card) -> str:
    """The wire name of a card, such as ``"K-spades"``."""
    return DECK.text(card)


def pile_texts(pile: Pile) -> list[str]:
    """The wire names of a pile's cards, bottom to top."""
    return [DECK.text(c) for c in pile]


def piles_dict(piles: Piles) -> dict[str, list[str]]:
    """Every space with its pile, bottom to top, JSON-ready."""
    return {SPACES[i]: pile_texts(p) for i, p in enumerate(piles)}


def misfit(card: Card, top: Card) -> IllegalAction:
    """The refusal saying why ``card`` does not fit on ``top``."""
    if VALUES[top] == 1:
        return IllegalAction(RefusalCode.NOTHING_ON_ACE, top=text(top))
    if VALUES[card] != VALUES[top] - 1:
        return IllegalAction(RefusalCode.NOT_ONE_LOWER, card=text(card), top=text(top))
    return IllegalAction(RefusalCode.SAME_COLOUR, card=text(card), top=text(top))
