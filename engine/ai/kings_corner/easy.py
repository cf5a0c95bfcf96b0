"""The easy Kings in the Corner player: plans its whole turn with a small search over its own moves.

From the board and its hand (the view) it looks through the sequences of moves it could
make this turn (builds, Kings to corners, pile moves, filling empty sides; kings_corner/RULES.md
§3.3 A1-A5) and takes the first move of the best one: the fewest cards left in hand, then the
highest cards gone, no empty side left open for the next player unless it cannot fill it, and
(with ``corners`` scoring) the most corners collected. It ends the turn only when nothing
planned is left, never while holding a King that must be placed (A6), and while the drawn card
must be played (``draw_until_playable``) it only chooses where that card goes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from engine.core.cards import FRENCH, Card, Mask, cards_in
from engine.core.rules import Action
from engine.games.kings_corner.board import CORNERS, FITS_ON, FULL_CORNER, KING_MASK, SIDES, SPACES, VALUES

CARD_LEFT = 100.0  # every card still in hand
HIGH_CARD = 1.0  # per value point of the cards still in hand: high cards are the hard ones to place
OPEN_SIDE = 40.0  # an empty side the next player may fill with any card
CORNER_TAKEN = 150.0  # a corner collected (scoring = corners)
WENT_OUT = 1e6
NODE_BUDGET = 600

Piles = tuple[tuple[Card, ...], ...]
Move = tuple[str, int, int]  # kind, card or source space, destination space


class Rules:
    """The settings that change which moves exist."""

    __slots__ = ("compulsory", "corners", "king_sides", "movable")

    def __init__(self, options: dict[str, Any]) -> None:
        self.compulsory = bool(options.get("king_compulsory", True))
        self.king_sides = bool(options.get("king_on_empty_side", False))
        self.movable = options.get("layout_kings", "movable") == "movable"
        self.corners = options.get("scoring") == "corners"


def moves(piles: Piles, hand: Mask, rules: Rules) -> Iterator[Move]:
    """Every move worth telling apart: empty sides and empty corners are alike, so only the first is used."""
    for i, pile in enumerate(piles):
        if pile:
            for card in cards_in(FITS_ON[pile[-1]] & hand):
                yield ("build", card, i)
    corner = next((c for c in CORNERS if not piles[c]), -1)
    if corner >= 0:
        for card in cards_in(hand & KING_MASK):
            yield ("place_king", card, corner)
    side = next((s for s in SIDES if not piles[s]), -1)
    if side >= 0:
        for card in cards_in(hand if rules.king_sides else hand & ~KING_MASK):
            yield ("fill_side", card, side)
    for src in SIDES:
        pile = piles[src]
        if not pile:
            continue
        for dst, other in enumerate(piles):
            if dst != src and other and FITS_ON[other[-1]] >> pile[0] & 1:
                yield ("move_pile", src, dst)
        if rules.movable and corner >= 0 and KING_MASK >> pile[0] & 1:
            yield ("move_king_pile", src, corner)


def make(piles: Piles, hand: Mask, move: Move, rules: Rules) -> tuple[Piles, Mask, int]:
    """The board and hand after ``move``, and the corners collected by it."""
    kind, a, dst = move
    board = list(piles)
    if kind in ("build", "place_king", "fill_side"):
        board[dst] = (*board[dst], a)
        hand &= ~(1 << a)
    else:
        board[dst] = board[dst] + board[a]
        board[a] = ()
    taken = 0
    if rules.corners and dst in CORNERS and len(board[dst]) == FULL_CORNER:
        board[dst] = ()  # §3.3: a full corner is collected and leaves the game
        taken = 1
    return tuple(board), hand, taken


def can_end(hand: Mask, rules: Rules) -> bool:
    """Whether the turn may end here (A6: not while holding a King that must be placed)."""
    return not (rules.compulsory and hand & KING_MASK)


def score(piles: Piles, hand: Mask, taken: int) -> float:
    """How good it is to leave the board like this for the next player (higher is better)."""
    if not hand:
        return WENT_OUT + CORNER_TAKEN * taken
    cards = cards_in(hand)
    open_sides = sum(1 for s in SIDES if not piles[s])
    return (CORNER_TAKEN * taken - CARD_LEFT * len(cards) - HIGH_CARD * sum(VALUES[c] for c in cards)
            - OPEN_SIDE * open_sides)


def _key(piles: Piles, hand: Mask) -> tuple[Any, ...]:
    # Which side or corner holds a pile does not matter to what can follow.
    return (tuple(sorted(piles[:4])), tuple(sorted(piles[4:])), hand)


class Planner:
    """A depth-first search over one turn's moves, with a memo and a node budget."""

    def __init__(self, rules: Rules, budget: int = NODE_BUDGET) -> None:
        self.rules = rules
        self.budget = budget
        self.memo: dict[tuple[Any, ...], float] = {}

    def best(self, piles: Piles, hand: Mask, taken: int) -> float:
        """The best end-of-turn score reachable from here (minus infinity if the turn cannot end)."""
        here = score(piles, hand, taken) if can_end(hand, self.rules) else float("-inf")
        if not hand:
            return here
        key = _key(piles, hand)
        if key in self.memo:
            return self.memo[key] + CORNER_TAKEN * taken
        if self.budget <= 0:
            # Out of budget: a King left to place still goes to a corner (one always exists).
            return here if here > float("-inf") else score(piles, hand & ~KING_MASK, taken)
        self.budget -= 1
        best = here
        for move in moves(piles, hand, self.rules):
            after, left, more = make(piles, hand, move, self.rules)
            best = max(best, self.best(after, left, taken + more))
        self.memo[key] = best - CORNER_TAKEN * taken
        return best


def parse_move(action: Action) -> Move | None:
    """The planner's form of a legal action (None for end_turn)."""
    index = SPACES.index
    match action["type"]:
        case "build":
            return ("build", FRENCH.parse(action["card"]), index(action["space"]))
        case "place_king":
            return ("place_king", FRENCH.parse(action["card"]), index(action["corner"]))
        case "fill_side":
            return ("fill_side", FRENCH.parse(action["card"]), index(action["side"]))
        case "move_pile":
            return ("move_pile", index(action["src"]), index(action["dst"]))
        case "move_king_pile":
            return ("move_king_pile", index(action["side"]), index(action["corner"]))
    return None


def read_board(view: dict[str, Any]) -> tuple[Piles, Mask]:
    """The eight piles and the seat's hand from a view."""
    shown = view.get("piles") or {}
    piles = tuple(tuple(FRENCH.parse(t) for t in shown.get(name, [])) for name in SPACES)
    hand = 0
    for text in view.get("hand") or []:
        hand |= 1 << FRENCH.parse(text)
    return piles, hand


class EasyKingsCorner:
    """Plays its whole turn well: every card it usefully can, then ends it."""

    def __init__(self, budget: int = NODE_BUDGET) -> None:
        self.budget = budget

    def choose(self, view: dict[str, Any], legal: Sequence[Action], seed: str) -> Action:
        """The first move of the best plan for this turn, or ``end_turn`` when nothing beats stopping."""
        piles, hand = read_board(view)
        rules = Rules(view.get("options") or {})
        planner = Planner(rules, self.budget)
        must_play = view.get("must_play") is not None  # the turn ends straight after this card
        best: Action | None = None
        best_value = float("-inf")
        for action in legal:
            move = parse_move(action)
            if move is None:
                value = score(piles, hand, 0)
            else:
                after, left, taken = make(piles, hand, move, rules)
                value = score(after, left, taken) if must_play else planner.best(after, left, taken)
            if value > best_value:
                best, best_value = action, value
        return best if best is not None else legal[0]

