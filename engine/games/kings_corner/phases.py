"""A turn of Kings in the Corner by phase (ACTING, MUST_PLAY): legal actions, their effects, the
end-of-turn draw, the draw_until_playable routine and blocked hands (RULES.md §3.3).

One ``_legal_<phase>`` and one ``_apply_<phase>`` per phase, behind the tables ``_LEGAL`` and ``_APPLY``,
the form every game's ``phases`` module takes. ``apply_action`` runs the one check per action in
``checks``; ``legal_actions`` enumerates exactly what those checks allow, with masks.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.cards import Card, cards_in
from engine.core.events import Event, public
from engine.core.rules import Action
from engine.core.seats import left_of
from engine.games.kings_corner.actions import (
    BUILD,
    END_TURN,
    FILL_SIDE,
    MOVE_KING_PILE,
    MOVE_PILE,
    PLACE_KING,
    ActionDict,
)
from engine.games.kings_corner.board import (
    FITS_ON,
    FULL_CORNER,
    KING_MASK,
    SPACES,
    Piles,
    is_king,
    pile_texts,
    text,
)
from engine.games.kings_corner.checks import Checked, check_action
from engine.games.kings_corner.deal import begin_turn, draw, drew_event
from engine.games.kings_corner.options import KingsOptions
from engine.games.kings_corner.scoring import end_hand
from engine.games.kings_corner.state import NOBODY, KingsState, Phase, evolve

CORNER_ORDER = (4, 5, 6, 7)  # NE, SE, SW, NW


# legal actions ----------------------------------------------------------------

def card_actions(piles: Piles, options: KingsOptions, card: Card) -> list[ActionDict]:
    """Every way to play ``card`` from hand on this board (A1, A2, A3)."""
    out: list[ActionDict] = [BUILD[card][i] for i, pile in enumerate(piles) if pile and FITS_ON[pile[-1]] >> card & 1]
    king = is_king(card)
    if king:
        out.extend(PLACE_KING[card][c] for c in CORNER_ORDER if not piles[c])
    if not king or options.king_on_empty_side:
        out.extend(FILL_SIDE[card][s] for s in range(4) if not piles[s])
    return out


def legal_actions(state: KingsState, seat: int) -> list[ActionDict]:
    """Every action ``seat`` may take now (§3.3 ACTING, or the drawn card during draw_until_playable)."""
    if seat != state.turn:
        return []
    return _LEGAL[state.phase](state, seat)


def _legal_must_play(state: KingsState, seat: int) -> list[ActionDict]:
    return card_actions(state.piles, state.options, state.pending)


def _legal_acting(state: KingsState, seat: int) -> list[ActionDict]:
    # What check_action allows, listed from masks: only the spaces and cards that can take part are looked at.
    opts = state.options
    piles = state.piles
    hand = state.hands[seat]
    tops = [pile[-1] if pile else -1 for pile in piles]
    out: list[ActionDict] = []
    for i, top in enumerate(tops):
        if top >= 0:
            fit = FITS_ON[top] & hand
            if fit:
                out += [BUILD[c][i] for c in cards_in(fit)]
    kings = hand & KING_MASK
    if kings:
        empty = [c for c in CORNER_ORDER if tops[c] < 0]
        for king in cards_in(kings):
            out += [PLACE_KING[king][c] for c in empty]
    fillable = hand if opts.king_on_empty_side else hand & ~KING_MASK
    if fillable and (tops[0] < 0 or tops[1] < 0 or tops[2] < 0 or tops[3] < 0):
        cards = cards_in(fillable)
        for side in range(4):
            if tops[side] < 0:
                out += [FILL_SIDE[c][side] for c in cards]
    fits_some_top = 0
    for top in tops:
        if top >= 0:
            fits_some_top |= FITS_ON[top]
    movable = opts.layout_kings == "movable"
    for src in range(4):
        if tops[src] < 0:
            continue
        bottom = piles[src][0]
        if fits_some_top >> bottom & 1:
            out += [MOVE_PILE[src][dst] for dst in range(8)
                    if dst != src and tops[dst] >= 0 and FITS_ON[tops[dst]] >> bottom & 1]
        if movable and KING_MASK >> bottom & 1:
            out += [MOVE_KING_PILE[src][c] for c in CORNER_ORDER if tops[c] < 0]
    if not (kings and opts.king_compulsory):
        out.append(END_TURN)
    return out


# One _legal_<phase> per phase, behind a table.
_LEGAL: dict[Phase, Callable[[KingsState, int], list[ActionDict]]] = {
    Phase.ACTING: _legal_acting,
    Phase.MUST_PLAY: _legal_must_play,
    Phase.OVER: lambda state, seat: [],
}


def idle_action(state: KingsState, seat: int) -> ActionDict | None:
    """The next action of an automatic turn end for an absent player (§6 K-D17), or None if not their turn."""
    if seat != state.turn or state.phase is Phase.OVER:
        return None
    if state.phase is Phase.MUST_PLAY:
        return card_actions(state.piles, state.options, state.pending)[0]
    kings = state.hands[seat] & KING_MASK
    if kings and state.options.king_compulsory:
        king = cards_in(kings)[0]
        return next(PLACE_KING[king][c] for c in CORNER_ORDER if not state.piles[c])
    return END_TURN


# effects ----------------------------------------------------------------------

def _with_pile(piles: Piles, space: int, pile: tuple[Card, ...]) -> Piles:
    return (*piles[:space], pile, *piles[space + 1:])


def _collect(state: KingsState, seat: int, corner: int, events: list[Event]) -> KingsState:
    # §3.3 corners: a corner pile of 13 cards (King to Ace) is collected by the player who completed it.
    if state.options.scoring != "corners" or corner < 4 or len(state.piles[corner]) != FULL_CORNER:
        return state
    collected = (*state.collected[:seat], state.collected[seat] + 1, *state.collected[seat + 1:])
    events.append(public({"type": "corner_collected", "seat": seat, "corner": SPACES[corner],
                          "cards": pile_texts(state.piles[corner]), "collected": collected[seat]}))
    return evolve(state, piles=_with_pile(state.piles, corner, ()), collected=collected)


def _play(state: KingsState, seat: int, card: Card, space: int, data: dict[str, object]) -> tuple[
    KingsState, list[Event]
]:
    # A1, A2, A3: a card from hand onto the board.
    hand = state.hands[seat] & ~(1 << card)
    hands = (*state.hands[:seat], hand, *state.hands[seat + 1:])
    piles = _with_pile(state.piles, space, (*state.piles[space], card))
    events = [public(data)]
    st = _collect(evolve(state, hands=hands, piles=piles, played=state.played + 1), seat, space, events)
    if not hand:
        # §3.3 going out: the hand ends at once, with no end-of-turn draw (K-D11).
        events.append(public({"type": "went_out", "seat": seat}))
        return end_hand(evolve(st, phase=Phase.ACTING, pending=NOBODY, went_out=seat), events), events
    if state.phase is Phase.MUST_PLAY:
        # §3.3 TURN_END, draw_until_playable: after the drawn card is played, one more draw ends the turn.
        hands, stock, drawn = draw(st.hands, st.stock, seat, 1)
        if drawn:
            events.append(drew_event(seat, drawn, len(stock)))
        st = evolve(st, phase=Phase.ACTING, pending=NOBODY, hands=hands, stock=stock)
        return _finish_turn(st, seat, events), events
    return st, events


def _move(state: KingsState, seat: int, src: int, dst: int) -> tuple[KingsState, list[Event]]:
    # A4 and A5: the whole pile, in the same order.
    piles = state.piles
    moved = piles[src]
    piles = _with_pile(_with_pile(piles, dst, piles[dst] + moved), src, ())
    events = [public({"type": "pile_moved", "seat": seat, "src": SPACES[src], "dst": SPACES[dst],
                      "cards": pile_texts(moved)})]
    return _collect(evolve(state, piles=piles), seat, dst, events), events


def _finish_turn(state: KingsState, seat: int, events: list[Event]) -> KingsState:
    # §3.3 TURN_END step 2: blocked-game bookkeeping, then step 3: the next player's turn.
    idle = state.idle_streak + 1 if not state.stock and state.played == 0 else 0
    blocked = idle >= state.n
    nxt = left_of(seat, state.n)
    events.append(public({"type": "turn_ended", "seat": seat, "next": None if blocked else nxt,
                          "stock": len(state.stock), "idle_streak": idle}))
    if blocked:
        events.append(public({"type": "blocked", "hand_counts": [h.bit_count() for h in state.hands]}))
        return end_hand(evolve(state, idle_streak=idle, blocked=True), events)
    return begin_turn(evolve(state, idle_streak=idle), nxt, events)


def _end_turn(state: KingsState, seat: int) -> tuple[KingsState, list[Event]]:
    opts = state.options
    events: list[Event] = []
    if opts.draw_timing == "end":
        if opts.pass_rule == "draw_one" or state.played:
            hands, stock, drawn = draw(state.hands, state.stock, seat, opts.draw_count)
            if drawn:
                events.append(drew_event(seat, drawn, len(stock)))
                state = evolve(state, hands=hands, stock=stock)
        else:
            # draw_until_playable (§3.3, K-D15): draw one at a time until a playable card turns up.
            hand, stock = state.hands[seat], state.stock
            found = NOBODY
            taken: list[Card] = []
            while stock:
                card, stock = stock[0], stock[1:]
                taken.append(card)
                hand |= 1 << card
                if card_actions(state.piles, opts, card):
                    found = card
                    break
            if taken:
                events.append(drew_event(seat, taken, len(stock)))
                hands = (*state.hands[:seat], hand, *state.hands[seat + 1:])
                state = evolve(state, hands=hands, stock=stock)
            if found != NOBODY:
                return evolve(state, phase=Phase.MUST_PLAY, pending=found), events
    return _finish_turn(state, seat, events), events


def apply_action(state: KingsState, seat: int, action: Action) -> tuple[KingsState, list[Event]]:
    """The next state and what happened; raises IllegalAction and changes nothing then."""
    checked = check_action(state, seat, action)  # the one check legal_actions enumerates; raises when over
    return _APPLY[state.phase](state, seat, checked)


def _apply_acting(state: KingsState, seat: int, checked: Checked) -> tuple[KingsState, list[Event]]:
    kind, card, a, b = checked
    match kind:
        case "move_pile" | "move_king_pile":
            return _move(state, seat, a, b)
        case "end_turn":
            return _end_turn(state, seat)
        case _:
            return _play_card(state, seat, kind, card, a)


def _apply_must_play(state: KingsState, seat: int, checked: Checked) -> tuple[KingsState, list[Event]]:
    kind, card, a, _ = checked  # the check allowed only the drawn card, onto the board
    return _play_card(state, seat, kind, card, a)


def _play_card(state: KingsState, seat: int, kind: str, card: Card, space: int) -> tuple[KingsState, list[Event]]:
    match kind:
        case "build":
            data = {"type": "built", "seat": seat, "card": text(card), "space": SPACES[space]}
        case "place_king":
            data = {"type": "king_placed", "seat": seat, "card": text(card), "corner": SPACES[space]}
        case _:
            data = {"type": "side_filled", "seat": seat, "card": text(card), "side": SPACES[space]}
    return _play(state, seat, card, space, data)


# One _apply_<phase> per phase where someone acts, behind a table like _LEGAL's.
_APPLY: dict[Phase, Callable[[KingsState, int, Checked], tuple[KingsState, list[Event]]]] = {
    Phase.ACTING: _apply_acting,
    Phase.MUST_PLAY: _apply_must_play,
}
