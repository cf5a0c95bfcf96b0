"""Cards as small ints, the two decks, the "K-cups" codec and bitmask helpers.

A card is ``suit_index * len(deck.ranks) + rank_index``; ranks are listed from the
lowest to the highest *play* strength, so within a suit a larger int beats a smaller
one. A set of cards is an int bitmask with bit ``card`` set.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from engine.core.errors import MalformedAction, RefusalCode

Card = int
Mask = int
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck: its suits, its ranks (low to high), and the text codec for its cards."""

    name: str
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    _by_text: dict[str, Card] = field(init=False, repr=False, compare=False, hash=False)
    _texts: tuple[str, ...] = field(init=False, repr=False, compare=False, hash=False)
    _texts_of: PerCard[str] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        texts = tuple(f"{rank}-{suit}" for suit in self.suits for rank in self.ranks)
        object.__setattr__(self, "_texts", texts)
        object.__setattr__(self, "_by_text", {text: card for card, text in enumerate(texts)})
        object.__setattr__(self, "_texts_of", PerCard(texts))

    @property
    def size(self) -> int:
        """How many cards the full deck holds."""
        return len(self.suits) * len(self.ranks)

    @property
    def full(self) -> Mask:
        """The bitmask of every card of the deck."""
        return (1 << self.size) - 1

    def card(self, rank: str, suit: str) -> Card:
        """The card of that rank and suit."""
        return self.parse(f"{rank}-{suit}")

    def suit_of(self, card: Card) -> int:
        """The suit index of a card."""
        return card // len(self.ranks)

    def rank_of(self, card: Card) -> int:
        """The rank index of a card (0 is the lowest)."""
        return card % len(self.ranks)

    def suit_name(self, card: Card) -> str:
        """The suit name of a card, such as ``"cups"``."""
        return self.suits[self.suit_of(card)]

    def rank_name(self, card: Card) -> str:
        """The rank code of a card, such as ``"K"``."""
        return self.ranks[self.rank_of(card)]

    def suit_mask(self, suit: int) -> Mask:
        """The bitmask of every card of one suit."""
        width = len(self.ranks)
        return ((1 << width) - 1) << (suit * width)

    def text(self, card: Card) -> str:
        """The wire name of a card, such as ``"N-coins"``."""
        return self._texts[card]

    def parse(self, text: object) -> Card:
        """The card named by ``text``; raises MalformedAction naming the text when it is no card."""
        card = self._by_text.get(text) if isinstance(text, str) else None
        if card is None:
            raise MalformedAction(RefusalCode.UNKNOWN_CARD, given=str(text), example=self._texts[-1])
        return card

    def texts(self, mask: Mask) -> list[str]:
        """The wire names of the cards in a mask, in deck order."""
        return self._texts_of.of(mask)


_BYTES: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(offset * 8 + i for i in range(8) if b >> i & 1) for b in range(256)) for offset in range(8)
)


def cards_in(mask: Mask) -> tuple[Card, ...]:
    """The cards of a mask (up to 64 bits), lowest first; a table lookup per byte."""
    out: tuple[Card, ...] = ()
    table = 0
    while mask:
        b = mask & 255
        if b:
            out += _BYTES[table][b]
        mask >>= 8
        table += 1
    return out


def bits(mask: Mask) -> Iterator[Card]:
    """The cards of a mask, lowest first."""
    return iter(cards_in(mask))


def mask_of(cards: Iterable[Card]) -> Mask:
    """The mask holding exactly these cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def count(mask: Mask) -> int:
    """How many cards a mask holds."""
    return mask.bit_count()


class PerCard(Generic[T]):
    """One value per card (an action, an event), listed for a mask by a table lookup per 12 bits."""

    __slots__ = ("_chunks",)
    BITS = 12

    def __init__(self, values: Sequence[T]) -> None:
        self._chunks = tuple(_chunk(values[off:off + self.BITS], self.BITS) for off in range(0, len(values), self.BITS))

    def of(self, mask: Mask) -> list[T]:
        """The values of the cards in ``mask``, lowest card first."""
        if not mask:  # most often the moves of a seat that is not to act
            return []
        out: list[T] = []
        for table in self._chunks:
            if not mask:
                break
            out += table[mask & 4095]
            mask >>= 12
        return out


def _chunk(values: Sequence[T], bits: int) -> tuple[tuple[T, ...], ...]:
    """For every ``bits``-bit pattern, the values of its set bits, lowest first (bits past the values count none).

    Built by doubling: the patterns with bit ``i`` set are those below it with ``values[i]`` added at
    the end. One step a pattern, where listing each pattern's bits took one a bit, and most of a
    tenth of a second of every start (the decks' tables and the games' moves).
    """
    table: list[tuple[T, ...]] = [()]
    for i in range(bits):
        if i < len(values):
            value = (values[i],)
            table += [below + value for below in table]
        else:
            table += table
    return tuple(table)


SPANISH = Deck(
    "Spanish 48-card",
    suits=("cups", "coins", "swords", "clubs"),
    ranks=("2", "3", "4", "5", "6", "7", "8", "9", "J", "N", "K", "A"),
)
FRENCH = Deck(
    "French 52-card",
    suits=("hearts", "diamonds", "clubs", "spades"),
    ranks=("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"),
)
