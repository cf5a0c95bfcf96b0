"""The easy Coins player: one look at the trick, no search.

Plays the last card of a trick to take the Coins in it as cheaply as it can (or to
lose without giving any away), tops a led Coins card in its own suit when second,
and otherwise gets rid of its lowest plain card (coins/RULES.md §3.3 trick types).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.coins.fast import COIN, RANK, STRIDE0, STRIDE1, SUIT, WINNERS
from engine.ai.coins.seen import card_choice, read_view
from engine.core.rules import Action


def _lowest_plain(hand: Sequence[int]) -> int:
    plain = [c for c in hand if not COIN[c]]
    if plain:
        return min(plain, key=lambda c: (RANK[c], c))
    return min(hand, key=lambda c: (RANK[c], c))


def easy_card(hand: Sequence[int], trick: Sequence[int]) -> int:
    """The easy player's card for ``hand`` when ``trick`` holds the cards played so far."""
    if len(trick) == 2:
        c0, c1 = trick
        base = c0 * STRIDE0 + c1 * STRIDE1
        at_stake = COIN[c0] + COIN[c1]

        def gain(card: int) -> tuple[int, int, int]:
            points = at_stake + COIN[card]
            won = WINNERS[base + card] == 2
            # More points for me is better; points handed to another seat are worse;
            # then keep the high cards and the Coins for later.
            return (points if won else -points, -COIN[card] if not won else 0, -RANK[card])

        return max(hand, key=lambda c: (gain(c), -c))
    if len(trick) == 1:
        led = trick[0]
        if COIN[led]:
            # Type 2/3: a higher card of the led suit wins unless the last card tops it.
            over = [c for c in hand if SUIT[c] == SUIT[led] and c > led]
            if over:
                return min(over)
        return _lowest_plain(hand)
    plain = [c for c in hand if not COIN[c]]
    if plain:
        return _lowest_plain(plain)
    return max(hand)  # only Coins left: lead the strongest


class EasyCoins:
    """A sensible one-step heuristic for Coins."""

    def choose(self, view: dict[str, Any], legal: Sequence[Action], seed: str) -> Action:
        """The heuristic's card among ``legal``."""
        seen = read_view(view)
        return card_choice(legal, easy_card(seen.hand, seen.trick))
