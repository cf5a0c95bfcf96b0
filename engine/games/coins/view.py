"""What one seat may know of a Coins table (RULES.md §3.4): the view, and the cards hidden from it."""

from __future__ import annotations

from typing import Any

from engine.core.errors import N_
from engine.core.rules import Outcome, placements_by
from engine.core.settings import options_dict
from engine.games.coins.phases import playable
from engine.games.coins.state import CREDIT, DECK, SUIT_CYCLE, CoinsState, N, Phase
from engine.games.coins.tricks import winner_index

NAME = "coins"
TITLE = N_("Coins")  # translated where it is shown (engine.words.game_title)


def outcome(state: CoinsState) -> Outcome | None:
    """Scores and placements once someone has reached the target, else None."""
    if state.phase is not Phase.OVER:
        return None
    return Outcome(state.scores, placements_by(state.scores))


def public_view(state: CoinsState) -> dict[str, Any]:
    """The trick, counts and scores (RULES.md §3.4): what a spectator sees."""
    over = state.phase is Phase.OVER
    result = outcome(state)
    out: dict[str, Any] = {
        "game": NAME,
        "title": TITLE,
        "credit": CREDIT,
        "options": options_dict(state.options),
        "phase": state.phase.value,
        "seat": None,
        "players": N,
        "hand_no": state.hand_no,
        "trick_no": state.trick_no,
        "dealer": state.dealer,
        "turn": None if over else state.turn,
        "to_act": [] if over else [state.turn],
        "trick": [{"seat": s, "card": DECK.text(c)} for s, c in state.trick],
        "last_trick": [{"seat": s, "card": DECK.text(c)} for s, c in state.last_trick],
        # who took it, so a page opened after the trick (a reload) can still mark it (§3.4)
        "last_trick_winner": state.last_trick[winner_index([c for _, c in state.last_trick])][0]
        if state.last_trick else None,
        "hand_counts": [h.bit_count() for h in state.hands],
        "won_cards": list(state.won),
        "scores": list(state.scores),
        "target_score": state.options.target_score,
        "suit_cycle": list(SUIT_CYCLE),
        "winner": state.winner,
        "over": over,
        "winners": [] if result is None else list(result.winners),
    }
    return out


def own_view(state: CoinsState, seat: int) -> dict[str, Any]:
    """What the seat adds to the public view: its own hand and the cards it may play."""
    return {"seat": seat, "hand": DECK.texts(state.hands[seat]), "legal": DECK.texts(playable(state, seat))}


def hidden_cards(state: CoinsState, seat: int | None) -> frozenset[str]:
    """The cards in the other seats' hands."""
    mask = 0
    for other, hand in enumerate(state.hands):
        if other != seat:
            mask |= hand
    return frozenset(DECK.texts(mask))
