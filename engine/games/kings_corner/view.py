"""What each seat may know of a Kings in the Corner table: the view and the audit of hidden cards."""

from __future__ import annotations

import copy
from typing import Any

from engine.core.errors import N_
from engine.core.settings import options_dict
from engine.games.kings_corner.board import DECK, piles_dict, text
from engine.games.kings_corner.options import SETTINGS
from engine.games.kings_corner.phases import legal_actions
from engine.games.kings_corner.scoring import outcome
from engine.games.kings_corner.state import KingsState, Phase

NAME = "kings_corner"
TITLE = N_("Kings in the Corner")  # translated where it is shown (engine.words.game_title)


def score_sheet(state: KingsState) -> list[dict[str, Any]]:
    """The score sheet's rows (RULES.md §4): in penalty scoring every finished hand's penalties; in the one-hand
    scorings the hand's corners collected or cards left, as they stand. Each row says who went out."""
    if state.options.scoring == "penalty":
        return [{"hand_no": n, "went_out": None if hand.went_out < 0 else hand.went_out, "blocked": hand.blocked,
                 "penalties": list(hand.penalties), "done": True} for n, hand in enumerate(state.scored, 1)]
    over = state.phase is Phase.OVER
    row: dict[str, Any] = {"hand_no": state.hand_no, "went_out": None if state.went_out < 0 else state.went_out,
                           "blocked": over and state.blocked, "done": over}
    if state.options.scoring == "corners":
        row["corners"] = list(state.collected)
    else:
        row["cards_left"] = [h.bit_count() for h in state.hands]
    return [row]


def public_view(state: KingsState) -> dict[str, Any]:
    """Every pile card by card, counts of hands and stock, scores, the turn: what a spectator sees."""
    over = state.phase is Phase.OVER
    result = outcome(state)
    out: dict[str, Any] = {
        "game": NAME,
        "title": TITLE,
        "options": options_dict(state.options),
        "settings": [s.describe(getattr(state.options, s.name)) for s in SETTINGS],
        "phase": state.phase.value,
        "seat": None,
        "players": state.n,
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "turn": None if over else state.turn,
        "to_act": [] if over else [state.turn],
        "over": over,
        "piles": piles_dict(state.piles),
        "stock": len(state.stock),
        "hand_counts": [h.bit_count() for h in state.hands],
        "played_this_turn": state.played,
        "idle_streak": state.idle_streak,
        "drawn_card_to_play": state.phase is Phase.MUST_PLAY,
        "collected": list(state.collected),
        "totals": list(state.totals),
        "penalties": list(state.penalties),
        "went_out": None if state.went_out < 0 else state.went_out,
        "blocked": state.blocked,
        "score_sheet": score_sheet(state),
        "high_card": [[{"seat": s, "card": text(c)} for s, c in r] for r in state.high_card],
        "recent": copy.deepcopy([*state.last_turn, *state.this_turn]),
        "scores": None if result is None else list(result.scores),
        "placements": None if result is None else list(result.placements),
        "winners": [] if result is None else list(result.winners),
    }
    return out


def own_view(state: KingsState, seat: int) -> dict[str, Any]:
    """What the seat adds to the public view: its own hand, its moves and the card it drew and must play."""
    if not 0 <= seat < state.n:
        return {"seat": seat}
    return {"seat": seat, "hand": DECK.texts(state.hands[seat]), "legal": [dict(a) for a in legal_actions(state, seat)],
            "must_play": text(state.pending) if state.phase is Phase.MUST_PLAY and seat == state.turn else None}


def hidden_cards(state: KingsState, seat: int | None) -> frozenset[str]:
    """The other seats' hands and the stock (they stay secret after the game too)."""
    mask = 0
    for other, hand in enumerate(state.hands):
        if other != seat:
            mask |= hand
    for card in state.stock:
        mask |= 1 << card
    return frozenset(DECK.texts(mask))
