"""Sergeant Major (3-5-8) and its variants: three players, 52 cards, targets by position, an exchange.

Every rule cites ``RULES.md``. Actions are JSON dicts such as
``{"type": "play", "card": "Q-spades"}``, ``{"type": "bid", "tricks": 10}``, ``{"type": "pass"}``,
``{"type": "name_trump", "suit": "hearts"}``, ``{"type": "call", "call": "misere"}``,
``{"type": "discard", "cards": [four cards]}``, ``{"type": "give", "cards": [k cards]}``,
``{"type": "swap"}`` and ``{"type": "decline_swap"}``.

Choosing k cards of n (the dealer's discard, an up player's give) has too many combinations
to list, so ``legal_actions`` returns one canonical legal choice for it (the k lowest-ranked
cards) and ``view`` describes the real choice as ``"choose": {"type", "count", "from"}``;
``apply`` accepts any k cards of the hand. Every other decision is listed in full.
"""

from __future__ import annotations

from engine.core.errors import MalformedAction, RefusalCode, listed
from engine.core.tricks import winner_index
from engine.games.sergeant_major.game import GAME, SergeantMajor
from engine.games.sergeant_major.options import SETTINGS, VARIANTS, SMOptions
from engine.games.sergeant_major.state import DECK, SUITS, Phase, SMState


def trick_winner(cards: list[str], trump: str | None) -> int:
    """The index, in play order, of the card that wins a trick; ``trump`` is a suit name or None."""
    if not 1 <= len(cards) <= 3:
        raise MalformedAction(RefusalCode.TRICK_TOO_LONG, count=len(cards))
    parsed = [DECK.parse(c) for c in cards]
    if len(set(parsed)) != len(parsed):
        raise MalformedAction(RefusalCode.TRICK_REPEATS_CARD)
    if trump is not None and trump not in SUITS:
        raise MalformedAction(RefusalCode.BAD_SUIT, suits=listed(SUITS), suit=str(trump))
    return winner_index(parsed, None if trump is None else SUITS.index(trump), len(DECK.ranks))


__all__ = ["GAME", "SETTINGS", "VARIANTS", "Phase", "SMOptions", "SMState", "SergeantMajor", "trick_winner"]
