"""What one seat may know of a Coins table (RULES.md §3.4): the view, and the cards hidden from it."""

from __future__ import annotations

from typing import Any

from engine.core.cards import Card
from engine.core.errors import N_
from engine.core.rules import Outcome, placements_by
from engine.core.settings import options_dict
from engine.games.coins.phases import playable, points_this_hand
from engine.games.coins.state import CREDIT, DECK, SUIT_CYCLE, WIDTH, CoinsState, N, Phase
from engine.games.coins.tricks import trick_type, winner_index

NAME = "coins"
TITLE = N_("Coins")  # translated where it is shown (engine.words.game_title)


def outcome(state: CoinsState) -> Outcome | None:
    """Scores and placements once someone has reached the target, else None."""
    if state.phase is not Phase.OVER:
        return None
    return Outcome(state.scores, placements_by(state.scores))


def score_sheet(state: CoinsState) -> list[dict[str, Any]]:
    """Per hand dealt so far, the points each seat took in it (§4); the hand in play counts what it has given."""
    rows = [{"hand_no": n, "points": list(points), "done": True} for n, points in enumerate(state.hand_points, 1)]
    rows.append({"hand_no": state.hand_no, "points": list(points_this_hand(state.hand_points, state.scores)),
                 "done": state.phase is Phase.OVER})  # §4 D6: a target reached mid-hand ends that hand too
    return rows


def why_won(trick: tuple[tuple[int, Card], ...]) -> dict[str, Any] | None:
    """Who took a finished trick and by which rule of RULES.md §3.3, or None for no trick.

    Type 1 (three suits) names the suit missing from the trick, type 2 (a pair) the place in play order of the
    odd card, which never wins (a place, not a card: a card of the last hand is not repeated into the next).
    """
    if len(trick) < N:
        return None
    cards = [c for _, c in trick]
    kind = trick_type(cards)
    suits = [c // WIDTH for c in cards]
    return {
        "seat": trick[winner_index(cards)][0],
        "type": kind,
        "missing": next(DECK.suits[s] for s in range(len(DECK.suits)) if s not in suits) if kind == 1 else None,
        "odd": next(i for i, s in enumerate(suits) if suits.count(s) == 1) if kind == 2 else None,
    }


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
        # who took it, so a page opened after the trick (a reload) can still mark it (§3.4), and why (§3.3)
        "last_trick_winner": state.last_trick[winner_index([c for _, c in state.last_trick])][0]
        if state.last_trick else None,
        "last_trick_why": why_won(state.last_trick),
        "hand_counts": [h.bit_count() for h in state.hands],
        "won_cards": list(state.won),
        "scores": list(state.scores),
        "score_sheet": score_sheet(state),
        "target_score": state.options.target_score,
        "suit_cycle": list(SUIT_CYCLE),
        "winner": state.winner,
        "over": over,
        "winners": [] if result is None else list(result.winners),
    }
    return out


def own_view(state: CoinsState, seat: int) -> dict[str, Any]:
    """What the seat adds to the public view: its own hand, the cards it may play and which of them would take
    the trick when it plays the trick's last card (§3.3)."""
    legal = playable(state, seat)
    return {"seat": seat, "hand": DECK.texts(state.hands[seat]), "legal": DECK.texts(legal),
            "taking": taking(state, legal)}


def taking(state: CoinsState, legal: int) -> list[str]:
    """Of the cards in ``legal``, those that would take the trick in play as its third card (§3.3), in deck order.

    With fewer than two cards down nothing is settled yet (the third card may change everything), so none.
    """
    if len(state.trick) != N - 1:
        return []
    down = [c for _, c in state.trick]
    return [DECK.text(c) for c in range(DECK.size) if legal >> c & 1 and winner_index([*down, c]) == N - 1]


def memory(state: CoinsState) -> dict[str, Any]:
    """The cards played in this hand's finished tricks (``played``, in deck order): every seat saw them played, but
    the view keeps only the last trick (D11), so an AI player remembers them as a careful player does."""
    held = 0
    for hand in state.hands:
        held |= hand
    for _, card in state.trick:
        held |= 1 << card
    return {"played": DECK.texts(DECK.full & ~held)}


def hidden_cards(state: CoinsState, seat: int | None) -> frozenset[str]:
    """The cards in the other seats' hands."""
    mask = 0
    for other, hand in enumerate(state.hands):
        if other != seat:
            mask |= hand
    return frozenset(DECK.texts(mask))
