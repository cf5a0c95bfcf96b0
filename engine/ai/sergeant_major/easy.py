"""The easy Sergeant Major player: a heuristic for every phase of every variant, from a view alone.

Bids, calls and trump come from trick estimates of its own cards; the discard keeps trumps
and Aces and voids short suits; the give sends low cards of suits whose tops it lacks; the
card play takes tricks cheaply, or ducks them in a misère (sergeant_major/RULES.md §3-§5).
A multi-card choice is any ``count`` cards of ``view["choose"]["from"]``, as ``apply`` accepts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.sergeant_major.choices import discard, give, misere_discard, should_swap
from engine.ai.sergeant_major.hand import (
    SUITS,
    best_call,
    best_trump,
    bid_tricks,
    misere_trump,
    parse,
)
from engine.ai.sergeant_major.play import duck_card, take_card
from engine.core.cards import FRENCH
from engine.core.rules import Action
from engine.games.sergeant_major.state import MISERE_MAX, POSITIONS, TWO_DIAMONDS


def _trump(view: dict[str, Any]) -> int | None:
    named = view.get("trump")
    return None if named is None else SUITS.index(named)


class EasySergeantMajor:
    """A sensible one-look heuristic for Sergeant Major and its variants."""

    def choose(self, view: dict[str, Any], legal: Sequence[Action], seed: str) -> Action:
        """The heuristic's action; always one ``apply`` accepts for this view."""
        hand = parse(view.get("hand") or [])
        phase = view.get("phase")
        if phase in ("kitty", "exchange"):
            return self._pick_cards(view, legal)
        action: Action
        if phase == "play":
            action = self._play(view, legal, hand)
        elif phase == "bid":
            lowest = min((a["tricks"] for a in legal if a["type"] == "bid"), default=0)
            tricks = bid_tricks(hand, lowest) if lowest else None
            action = {"type": "pass"} if tricks is None else {"type": "bid", "tricks": tricks}
        elif phase == "call":
            action = self._call(view, legal, hand)
        elif phase == "trump":
            suit = misere_trump(hand) if view.get("call") == "misere" else best_trump(hand)
            action = {"type": "name_trump", "suit": SUITS[suit]}
        elif phase == "swap":
            face_up = view.get("face_up")
            take = face_up is not None and should_swap(FRENCH.parse(face_up), _trump(view), TWO_DIAMONDS)
            action = {"type": "swap" if take else "decline_swap"}
        else:
            action = legal[0]
        return action if action in legal else legal[0]

    def _call(self, view: dict[str, Any], legal: Sequence[Action], hand: list[int]) -> Action:
        seat = view["seat"]
        calls = [a["call"] for a in legal if a["type"] == "call"]
        if not calls:
            return legal[0]
        call = best_call(hand, view["targets"][seat], MISERE_MAX[POSITIONS.index(view["positions"][seat])], calls)
        return {"type": "call", "call": call}

    def _play(self, view: dict[str, Any], legal: Sequence[Action], hand: list[int]) -> Action:
        cards = [FRENCH.parse(a["card"]) for a in legal if a["type"] == "play"]
        if not cards:
            return legal[0]
        trick = [FRENCH.parse(t["card"]) for t in view.get("trick") or []]
        trump = _trump(view)
        if view.get("call") == "misere":
            card = duck_card(hand, cards, trick, trump)
        else:
            card = take_card(hand, cards, trick, trump)
        return {"type": "play", "card": FRENCH.text(card)}

    def _pick_cards(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        choice = view.get("choose")
        if not choice or choice.get("type") not in ("discard", "give"):
            return legal[0]
        offered = parse(choice["from"])
        count = int(choice["count"])
        if choice["type"] == "give":
            ace_low = (view.get("options") or {}).get("exchange_ace", "low") == "low"
            picked = give(offered, count, ace_low)
        elif view.get("call") == "misere":
            picked = misere_discard(offered, count)
        else:
            trump = _trump(view)
            if trump is None and view.get("call") != "no_trump":
                trump = best_trump(offered)  # 9-5-2 Variation: the kitty comes before trump (§5.6)
            picked = discard(offered, count, trump)
        if len(set(picked)) != count or not set(picked) <= set(offered):
            return legal[0]
        return {"type": choice["type"], "cards": [FRENCH.text(c) for c in sorted(picked)]}

