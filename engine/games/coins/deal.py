"""The seeded deal of Coins (RULES.md §3.2 DEAL) and its events."""

from __future__ import annotations

from functools import lru_cache

from engine.core.cards import Mask
from engine.core.events import Event, dealt
from engine.core.rng import deal_rng
from engine.games.coins.state import DECK, CoinsState, N


@lru_cache(maxsize=1024)  # playouts from one table deal its next hands again and again
def deal_hands(seed: str, hand_no: int, dealer: int) -> tuple[Mask, ...]:
    """RULES.md §3.2 DEAL: card k of the permuted deck goes to seat (dealer + 1 + k) mod 3."""
    order = deal_rng(seed, hand_no).shuffled(range(DECK.size))
    hands = [0, 0, 0]
    for k in range(N):
        mask = 0
        for card in order[k::N]:
            mask |= 1 << card
        hands[(dealer + 1 + k) % N] = mask
    return tuple(hands)


def dealt_events(state: CoinsState) -> list[Event]:
    """Each seat's new hand, private to it."""
    return [
        dealt(seat, DECK.texts(state.hands[seat]), hand_no=state.hand_no, dealer=state.dealer) for seat in range(N)
    ]
