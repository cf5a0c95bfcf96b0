"""The wire form of the actions: precomputed action dicts and the parser (RULES.md §3.3)."""

from __future__ import annotations

from typing import Any

from engine.core.actions import action_type, shared
from engine.core.rules import Action
from engine.games.kings_corner.board import DECK, SPACES, space_of, text

ActionDict = dict[str, Any]
END_TURN: ActionDict = shared({"type": "end_turn"})
# Indexed [card][space] or [space][space]; only the meaningful entries are ever handed out, read-only.
BUILD = tuple(tuple(shared({"type": "build", "card": text(c), "space": s}) for s in SPACES) for c in range(DECK.size))
PLACE_KING = tuple(
    tuple(shared({"type": "place_king", "card": text(c), "corner": s}) for s in SPACES) for c in range(DECK.size)
)
FILL_SIDE = tuple(
    tuple(shared({"type": "fill_side", "card": text(c), "side": s}) for s in SPACES) for c in range(DECK.size)
)
MOVE_PILE = tuple(tuple(shared({"type": "move_pile", "src": a, "dst": b}) for b in SPACES) for a in SPACES)
MOVE_KING_PILE = tuple(
    tuple(shared({"type": "move_king_pile", "side": a, "corner": b}) for b in SPACES) for a in SPACES
)
KINDS = ("build", "place_king", "fill_side", "move_pile", "move_king_pile", "end_turn")
_SHAPE = '{"type": "build", "card": "7-clubs", "space": "N"}'


def parse_action(action: Action) -> tuple[str, int, int, int]:
    """``(kind, card, space_a, space_b)`` with -1 for what the kind does not use; raises MalformedAction."""
    kind = action_type(action, KINDS, _SHAPE)
    match kind:
        case "build":
            return kind, DECK.parse(action.get("card")), space_of(action.get("space")), -1
        case "place_king":
            return kind, DECK.parse(action.get("card")), space_of(action.get("corner")), -1
        case "fill_side":
            return kind, DECK.parse(action.get("card")), space_of(action.get("side")), -1
        case "move_pile":
            # A "card" here asks to move part of a pile; it is accepted only if it is the whole pile's bottom.
            card = DECK.parse(action["card"]) if "card" in action else -1
            return kind, card, space_of(action.get("src")), space_of(action.get("dst"))
        case "move_king_pile":
            return kind, -1, space_of(action.get("side")), space_of(action.get("corner"))
        case "end_turn":
            return kind, -1, -1, -1
    raise AssertionError(kind)
