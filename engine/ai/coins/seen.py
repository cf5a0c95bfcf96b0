"""What a Coins seat knows, read from its view alone, and deals sampled to agree with it.

The view (coins/RULES.md §3.4, D11) shows the seat's own hand, the current trick, the last
finished trick, scores, won-card counts and hand counts; never older tricks. A seat that
watched the hand remembers them: the AI's view carries the cards played in this hand's
finished tricks (``played``, ``Game.memory``), so the cards it has not seen are exactly the
other two hands'. Without that memory they are spread uniformly over the other two hands and
the won piles, with one exact constraint: every hand deals out all 12 Coins points
(coins/RULES.md §1.3, §4), so the number of Coins cards still in the other hands is
``12 - points scored this hand - Coins in the trick - Coins in the own hand``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.ai.coins.fast import COIN, SIZE
from engine.core.cards import SPANISH
from engine.core.rules import Action
from engine.games.coins.state import POINTS_PER_HAND, N


@dataclass(frozen=True, slots=True)
class Seen:
    """One seat's knowledge: its cards, the trick so far, counts, scores and the unseen cards."""

    seat: int
    hand: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    counts: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    unseen_plain: tuple[int, ...]
    unseen_coins: tuple[int, ...]
    coins_out: int

    @property
    def others(self) -> tuple[int, int]:
        """The other two seats, clockwise from this one."""
        return (self.seat + 1) % N, (self.seat + 2) % N


def _cards(items: Any) -> list[int]:
    return [SPANISH.parse(item["card"] if isinstance(item, Mapping) else item) for item in items]


def read_view(view: Mapping[str, Any]) -> Seen:
    """Parse a Coins view for its own seat."""
    seat = int(view["seat"])
    hand = _cards(view.get("hand", ()))
    trick_items = list(view.get("trick", ()))
    trick = _cards(trick_items)
    leader = int(trick_items[0]["seat"]) if trick_items else seat
    trick_no = int(view.get("trick_no", 1))
    # The last finished trick belongs to this hand only after trick 1 (coins/RULES.md §3.2).
    gone = _cards(view.get("last_trick", ())) if trick_no > 1 else []
    gone += _cards(view.get("played", ()))  # remembered: the cards of this hand's finished tricks
    counts = tuple(int(n) for n in view["hand_counts"])
    scores = tuple(int(s) for s in view["scores"])
    known = 0
    for card in (*hand, *trick, *gone):
        known |= 1 << card
    unseen = [c for c in range(SIZE) if not known >> c & 1]
    unseen_coins = tuple(c for c in unseen if COIN[c])
    unseen_plain = tuple(c for c in unseen if not COIN[c])
    scored = sum(scores) - POINTS_PER_HAND * (int(view.get("hand_no", 1)) - 1)
    coins_out = POINTS_PER_HAND - scored - sum(COIN[c] for c in trick) - sum(COIN[c] for c in hand)
    n_out = sum(counts[s] for s in range(N) if s != seat)
    # Clamp so a view from an unexpected position still yields a possible deal.
    coins_out = max(n_out - len(unseen_plain), 0, min(coins_out, len(unseen_coins), n_out))
    return Seen(seat, tuple(hand), tuple(trick), leader, counts, scores, int(view["target_score"]),
                unseen_plain, unseen_coins, coins_out)


def _pick(pool: tuple[int, ...], k: int, rnd: Callable[[], float]) -> list[int]:
    # Partial Fisher–Yates: k distinct cards, uniformly.
    items = list(pool)
    n = len(items)
    for i in range(k):
        j = i + int(rnd() * (n - i))
        items[i], items[j] = items[j], items[i]
    return items[:k]


def sample_hands(seen: Seen, rnd: Callable[[], float]) -> list[list[int]]:
    """Every seat's hand in one deal that agrees with ``seen`` (own hand as it is)."""
    a, b = seen.others
    n_a, n_b = seen.counts[a], seen.counts[b]
    coins = _pick(seen.unseen_coins, seen.coins_out, rnd)
    plain = _pick(seen.unseen_plain, n_a + n_b - seen.coins_out, rnd)
    cards = _pick(tuple(coins + plain), n_a + n_b, rnd)
    hands: list[list[int]] = [[], [], []]
    hands[seen.seat] = list(seen.hand)
    hands[a] = cards[:n_a]
    hands[b] = cards[n_a:]
    return hands


def card_choice(legal: Sequence[Action], card: int) -> Action:
    """The legal action that plays ``card``; the first legal action if none does."""
    text = SPANISH.text(card)
    for action in legal:
        if action.get("card") == text:
            return action
    return legal[0]
