"""The checks of a Kings in the Corner turn, one per action A1-A6 (RULES.md §3.3).

Each ``check_x`` raises IllegalAction with a code and its parameters; ``check_action`` parses
an action and runs its check.
"""

from __future__ import annotations

from engine.core.cards import Card
from engine.core.errors import IllegalAction, RefusalCode
from engine.core.rules import Action
from engine.games.kings_corner.actions import parse_action
from engine.games.kings_corner.board import FITS_ON, KING_MASK, SPACES, is_king, misfit, text
from engine.games.kings_corner.state import KingsState, Phase


def _check_turn(state: KingsState, seat: int) -> None:
    if state.phase is Phase.OVER:
        raise IllegalAction(RefusalCode.GAME_OVER)
    if seat != state.turn:
        raise IllegalAction(RefusalCode.NOT_YOUR_TURN)


def _check_no_pending(state: KingsState) -> None:
    if state.phase is Phase.MUST_PLAY:
        raise IllegalAction(RefusalCode.MUST_PLAY_DRAWN, card=text(state.pending))


def _check_from_hand(state: KingsState, seat: int, card: Card) -> None:
    if state.phase is Phase.MUST_PLAY and card != state.pending:
        raise IllegalAction(RefusalCode.MUST_PLAY_DRAWN, card=text(state.pending))
    if not state.hands[seat] >> card & 1:
        if any(card in pile for pile in state.piles):
            # §3.3: an action is final, and piles only ever move whole.
            raise IllegalAction(RefusalCode.CARD_ON_BOARD, card=text(card))
        raise IllegalAction(RefusalCode.CARD_NOT_IN_HAND, card=text(card))


def check_build(state: KingsState, seat: int, card: Card, space: int) -> None:
    """A1: ``card`` from hand on top of the non-empty pile at ``space``."""
    _check_turn(state, seat)
    _check_from_hand(state, seat, card)
    pile = state.piles[space]
    if not pile:
        if space >= 4:
            raise IllegalAction(RefusalCode.CORNER_NEEDS_KING, space=SPACES[space])
        raise IllegalAction(RefusalCode.SIDE_NEEDS_FILL, space=SPACES[space])
    if not FITS_ON[pile[-1]] >> card & 1:
        raise misfit(card, pile[-1])


def check_place_king(state: KingsState, seat: int, card: Card, corner: int) -> None:
    """A2: a King from hand on an empty corner."""
    _check_turn(state, seat)
    _check_from_hand(state, seat, card)
    if corner < 4:
        raise IllegalAction(RefusalCode.NOT_A_CORNER, space=SPACES[corner])
    if not is_king(card):
        raise IllegalAction(RefusalCode.NOT_A_KING, card=text(card))
    if state.piles[corner]:
        raise IllegalAction(RefusalCode.SPACE_NOT_EMPTY, space=SPACES[corner])


def check_fill_side(state: KingsState, seat: int, card: Card, side: int) -> None:
    """A3: a card from hand on an empty side (a King only with king_on_empty_side)."""
    _check_turn(state, seat)
    _check_from_hand(state, seat, card)
    if side >= 4:
        raise IllegalAction(RefusalCode.NOT_A_SIDE, space=SPACES[side])
    if state.piles[side]:
        raise IllegalAction(RefusalCode.SPACE_NOT_EMPTY, space=SPACES[side])
    if is_king(card) and not state.options.king_on_empty_side:
        raise IllegalAction(RefusalCode.KINGS_GO_TO_CORNERS, card=text(card))


def check_move_pile(state: KingsState, seat: int, src: int, dst: int, card: Card = -1) -> None:
    """A4: the whole pile at ``src`` onto the pile at ``dst``, its bottom card fitting on their top card."""
    _check_turn(state, seat)
    _check_no_pending(state)
    piles = state.piles
    if src == dst:
        raise IllegalAction(RefusalCode.SAME_SPACE)
    if src >= 4 and piles[src]:
        raise IllegalAction(RefusalCode.CORNER_CANNOT_MOVE)
    if not piles[src]:
        raise IllegalAction(RefusalCode.SPACE_EMPTY, space=SPACES[src])
    if card >= 0 and card != piles[src][0]:
        raise IllegalAction(RefusalCode.NO_PARTIAL_MOVES)
    if not piles[dst]:
        raise IllegalAction(RefusalCode.NO_PILE_TO_MOVE_ONTO, space=SPACES[dst])
    if not FITS_ON[piles[dst][-1]] >> piles[src][0] & 1:
        raise misfit(piles[src][0], piles[dst][-1])


def check_move_king_pile(state: KingsState, seat: int, side: int, corner: int) -> None:
    """A5: a side pile with a King at the bottom to an empty corner (layout_kings = movable)."""
    _check_turn(state, seat)
    _check_no_pending(state)
    if state.options.layout_kings != "movable":
        raise IllegalAction(RefusalCode.KING_PILES_FIXED)
    if side >= 4:
        raise IllegalAction(RefusalCode.NOT_A_SIDE, space=SPACES[side])
    if corner < 4:
        raise IllegalAction(RefusalCode.NOT_A_CORNER, space=SPACES[corner])
    pile = state.piles[side]
    if not pile:
        raise IllegalAction(RefusalCode.SPACE_EMPTY, space=SPACES[side])
    if not is_king(pile[0]):
        raise IllegalAction(RefusalCode.PILE_NOT_KING, space=SPACES[side])
    if state.piles[corner]:
        raise IllegalAction(RefusalCode.SPACE_NOT_EMPTY, space=SPACES[corner])


def check_end_turn(state: KingsState, seat: int) -> None:
    """A6: end the turn; with king_compulsory, not while holding a King (§6 K-D3)."""
    _check_turn(state, seat)
    _check_no_pending(state)
    if state.options.king_compulsory and state.hands[seat] & KING_MASK:
        raise IllegalAction(RefusalCode.KING_MUST_BE_PLACED)


Checked = tuple[str, Card, int, int]  # an action once its check passed: kind, card, and two spaces (or -1)


def check_action(state: KingsState, seat: int, action: Action) -> Checked:
    """The parsed action once every check has passed; raises IllegalAction."""
    kind, card, a, b = parsed = parse_action(action)
    match kind:
        case "build":
            check_build(state, seat, card, a)
        case "place_king":
            check_place_king(state, seat, card, a)
        case "fill_side":
            check_fill_side(state, seat, card, a)
        case "move_pile":
            check_move_pile(state, seat, a, b, card)
        case "move_king_pile":
            check_move_king_pile(state, seat, a, b)
        case _:
            check_end_turn(state, seat)
    return parsed
