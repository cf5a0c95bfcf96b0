"""How a hand and the game end: going out, blocked hands, and the three scorings (RULES.md §4)."""

from __future__ import annotations

from engine.core.cards import Mask
from engine.core.events import Event, public
from engine.core.rules import Outcome, placements_by
from engine.core.seats import left_of
from engine.games.kings_corner.board import KING_MASK
from engine.games.kings_corner.deal import new_hand
from engine.games.kings_corner.state import NOBODY, HandScore, KingsState, Phase, evolve

KING_PENALTY, CARD_PENALTY = 10, 1  # §4 penalty: points per King and per other card left in hand


def penalty_of(hand: Mask) -> int:
    """Penalty points for a hand left over: 10 per King, 1 per other card (§4 penalty)."""
    kings = (hand & KING_MASK).bit_count()
    return KING_PENALTY * kings + CARD_PENALTY * (hand.bit_count() - kings)


def _rank(keys: list[tuple[int, ...]]) -> tuple[int, ...]:
    # Competition ranking, higher keys first: 1, 2, 2, 4.
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


def scores(state: KingsState) -> tuple[int, ...]:
    """Per-seat scores: cards left (first_out), corners collected (corners) or penalty totals (penalty)."""
    match state.options.scoring:
        case "corners":
            return state.collected
        case "penalty":
            return state.totals
        case _:
            return tuple(h.bit_count() for h in state.hands)


def placements(state: KingsState) -> tuple[int, ...]:
    """Per-seat placements, 1 for the winners (§4)."""
    match state.options.scoring:
        case "corners":
            # §4 corners: most corners, then the player who went out, then fewest cards; then shared.
            return _rank([
                (state.collected[s], int(state.went_out == s), -state.hands[s].bit_count()) for s in range(state.n)
            ])
        case "penalty":
            return placements_by(state.totals, higher_is_better=False)
        case _:
            # §4 first_out: whoever went out (no cards left), or on a blocked hand the fewest cards.
            return placements_by((h.bit_count() for h in state.hands), higher_is_better=False)


def outcome(state: KingsState) -> Outcome | None:
    """Scores and placements once the game is over."""
    if state.phase is not Phase.OVER:
        return None
    return Outcome(scores(state), placements(state))


def _over(state: KingsState, totals: tuple[int, ...], penalties: tuple[int, ...],
          scored: tuple[HandScore, ...]) -> KingsState:
    return evolve(state, phase=Phase.OVER, pending=NOBODY, totals=totals, penalties=penalties, scored=scored)


def _game_over(state: KingsState, events: list[Event]) -> KingsState:
    result = Outcome(scores(state), placements(state))
    events.append(public({
        "type": "game_over", "scoring": state.options.scoring, "winners": list(result.winners),
        "scores": list(result.scores), "placements": list(result.placements),
        "went_out": None if state.went_out < 0 else state.went_out, "blocked": state.blocked,
        "hand_counts": [h.bit_count() for h in state.hands],
    }))
    return state


def end_hand(state: KingsState, events: list[Event]) -> KingsState:
    """The hand is over (someone went out, or it is blocked): end the game or deal the next hand."""
    opts = state.options
    if opts.scoring != "penalty":
        return _game_over(_over(state, state.totals, state.penalties, state.scored), events)
    # §4 penalty: everyone but the player who went out adds 10 per King and 1 per other card.
    penalties = tuple(0 if seat == state.went_out else penalty_of(h) for seat, h in enumerate(state.hands))
    totals = tuple(t + p for t, p in zip(state.totals, penalties, strict=True))
    scored = (*state.scored, HandScore(state.went_out, state.blocked, penalties))
    events.append(public({
        "type": "hand_over", "hand_no": state.hand_no, "went_out": None if state.went_out < 0 else state.went_out,
        "blocked": state.blocked, "penalties": list(penalties), "totals": list(totals),
        "hand_counts": [h.bit_count() for h in state.hands],
    }))
    if max(totals) >= opts.penalty_limit:
        return _game_over(_over(state, totals, penalties, scored), events)
    nxt, dealt = new_hand(opts, state.seed, state.n, state.hand_no + 1, left_of(state.dealer, state.n), totals,
                          penalties, scored)
    events.extend(dealt)
    return nxt
