"""What one seat may know (RULES.md §3.3): the view, and the cards hidden from that seat.

Never the seed, the kitty before the dealer takes it, the discards (except to the dealer),
another seat's hand, or exchanged cards (except to the two parties). The cards played in
tricks are public: the view carries the current trick, the last one and ``played``, every
finished trick of the hand in order (what everyone at a real table saw played).
"""

from __future__ import annotations

from typing import Any

from engine.core.cards import Mask, cards_in
from engine.core.settings import options_dict
from engine.games.sergeant_major.decisions import KITTY_DISCARDS, give_count
from engine.games.sergeant_major.options import RANDOM_CARD
from engine.games.sergeant_major.play import legal_mask, trick_winner
from engine.games.sergeant_major.state import (
    CALLS,
    POSITIONS,
    SUITS,
    TEXT,
    WIDTH,
    N,
    Phase,
    SMState,
    Trick,
    position,
    texts,
)


def hidden_mask(state: SMState, seat: int | None) -> Mask:
    """The cards whose place ``seat`` (None: a spectator) may not know now.

    Cards privately shown to the seat this hand (its own exchanges, the §4.6 reveal) and the
    card taken in the §5.8 swap are not hidden from it.
    """
    deal = state.deal
    mask = deal.kitty
    if state.options.removed_card == RANDOM_CARD:
        mask |= deal.removed
    for _giver, _receiver, given in deal.escrow:
        mask |= given
    for other in range(N):
        if other != seat:
            mask |= state.hands[other]
    if seat != state.match.dealer:
        mask |= deal.discards
    if seat is not None:
        mask &= ~deal.known[seat]
    return mask & ~deal.public_known


def _trick(trick: Trick) -> list[dict[str, Any]]:
    return [{"seat": s, "card": TEXT[c]} for s, c in trick]


def why_ahead(trick: Trick, trump: int | None) -> dict[str, Any] | None:
    """Who is taking ``trick`` (finished or in play) and by which rule of §3.2 step 8, or None for no cards.

    ``by`` is "trump" when a trump beats a lead of another suit, "trump_led" when trumps were led and the
    highest trump takes, and "high" when no trump is in it and the highest card of the suit led takes.
    """
    if not trick:
        return None
    seat = trick_winner(trick, trump)
    card = next(c for s, c in trick if s == seat)
    led = trick[0][1] // WIDTH
    trumped = trump is not None and card // WIDTH == trump
    by = "high" if not trumped else "trump_led" if led == trump else "trump"
    return {"seat": seat, "by": by}


def score_sheet(state: SMState) -> list[dict[str, Any]]:
    """Per hand, each seat's tricks against its target and the result (§3.2 step 9), finished hands first.

    The hand in play follows while its tricks are being taken, or when a trick-count win stopped it (its result
    is never worked out, SM-D28): its ``results`` are null.
    """
    m = state.match
    rows: list[dict[str, Any]] = [
        {"hand_no": n, "tricks": list(tricks), "targets": list(targets), "results": list(results), "done": True}
        for n, (tricks, targets, results) in enumerate(zip(m.trick_history, m.target_history, m.history,
                                                           strict=True), 1)]
    over = state.phase is Phase.OVER
    if state.phase is Phase.PLAY or (over and len(m.history) < m.hand_no):
        rows.append({"hand_no": m.hand_no, "tricks": list(state.tricks), "targets": list(state.deal.targets),
                     "results": None, "done": over})
    return rows


def choice(state: SMState, seat: int) -> dict[str, Any] | None:
    """The pending multi-card choice of ``seat``: what to choose, how many, from which cards."""
    if state.phase is Phase.OVER or seat != state.turn:
        return None
    if state.phase is Phase.EXCHANGE:
        receiver, k = give_count(state)
        return {"type": "give", "count": k, "to": receiver, "from": texts(state.hands[seat])}
    if state.phase is Phase.KITTY:
        return {"type": "discard", "count": KITTY_DISCARDS, "from": texts(state.hands[seat])}
    return None


def _exchanges(state: SMState, seat: int | None) -> list[dict[str, Any]]:
    """The hand's exchanges: counts for everyone, the cards only to the two parties."""
    exchanges = []
    for g, r, given, back in state.deal.exchanges:
        entry: dict[str, Any] = {"seat": g, "to": r, "count": given.bit_count()}
        if seat in (g, r):
            entry["gave"] = texts(given)
            entry["returned"] = texts(back)
        exchanges.append(entry)
    return exchanges


def _escrow(state: SMState, seat: int | None) -> list[dict[str, Any]]:
    """Cards given and not yet returned: counts for everyone, the cards only to the two parties."""
    escrow = []
    for g, r, given in state.deal.escrow:
        item: dict[str, Any] = {"seat": g, "to": r, "count": given.bit_count()}
        if seat in (g, r):
            item["gave"] = texts(given)
        escrow.append(item)
    return escrow


def public_view(state: SMState, name: str, title: str) -> dict[str, Any]:
    """The JSON-ready view of a spectator: what everyone at the table may know."""
    opts = state.options
    rules = opts.rules
    m = state.match
    deal = state.deal
    over = state.phase is Phase.OVER
    settings = options_dict(opts)
    if not rules.removes_card:
        del settings["removed_card"]  # a card name that means nothing here (and may be in someone's hand)
    out: dict[str, Any] = {
        "game": name,
        "title": title,
        "options": settings,
        "variant": opts.variant,
        "phase": state.phase.value,
        "seat": None,
        "players": N,
        "hand_no": m.hand_no,
        "last_hand": rules.last_hand or None,
        "dealer": m.dealer,
        "positions": [POSITIONS[position(m.dealer, s)] for s in range(N)],
        "targets": list(deal.targets),
        "target_kind": "maximum" if deal.call == "misere" else "target",
        "tricks": list(state.tricks),
        "trick_no": state.trick_no,
        "tricks_per_hand": rules.hand_size,
        "trick": _trick(state.trick),
        "last_trick": _trick(state.last_trick),
        # who took it while it is of this hand (a reload still marks it); a past hand's trump is not kept
        "last_trick_winner": trick_winner(state.last_trick, deal.trump)
        if state.played and state.last_trick == state.played[-1] else None,
        "last_trick_why": why_ahead(state.last_trick, deal.trump)
        if state.played and state.last_trick == state.played[-1] else None,
        "trick_ahead": why_ahead(state.trick, deal.trump),
        "played": [_trick(done) for done in state.played],
        "trump": None if deal.trump is None else SUITS[deal.trump],
        "call": deal.call,
        "calls_used": [[c for i, c in enumerate(CALLS) if used >> i & 1] for used in m.calls_used]
        if rules.calls else None,
        "prev_result": None if m.prev_result is None else list(m.prev_result),
        "totals": list(m.totals),
        "scores": list(m.totals),  # the key every game's view has for the standings: here the match totals
        "score_kind": "running" if rules.running else "ledger",
        "history": [list(r) for r in m.history],
        "score_sheet": score_sheet(state),
        "hand_counts": [h.bit_count() for h in state.hands],
        "kitty_count": deal.kitty.bit_count(),
        "discard_count": deal.discards.bit_count(),
        "face_up": texts(deal.face_up)[0] if deal.face_up else None,
        "removed_card": texts(deal.removed)[0] if deal.removed and opts.removed_card != RANDOM_CARD else None,
        "exchanges": _exchanges(state, None),
        "pending_exchanges": [{"seat": g, "to": r, "count": k} for g, r, k in deal.transfers],
        "escrow": _escrow(state, None),
        "bidding": {"high": deal.bid_high or None, "by": None if deal.bid_by < 0 else deal.bid_by,
                    "passed": [s for s in range(N) if deal.passed >> s & 1]} if opts.woburn_first_bid else None,
        "turn": None if over else state.turn,
        "to_act": [] if over else [state.turn],
        "over": over,
        "winners": list(m.winners),
    }
    return out


def taking(state: SMState, seat: int) -> list[str]:
    """Of the cards ``seat`` may play into the trick in play, those that would be taking it so far (§3.2 step 8).

    None when leading: there is nothing yet to beat.
    """
    if not state.trick:
        return []
    trump = state.deal.trump
    return [TEXT[c] for c in cards_in(legal_mask(state, seat))
            if trick_winner((*state.trick, (seat, c)), trump) == seat]


def own_view(state: SMState, seat: int) -> dict[str, Any]:
    """What the seat adds to the public view: its hand, its moves and choices, what was shown or given to it."""
    m, deal = state.match, state.deal
    playing = state.phase is Phase.PLAY and seat == state.turn
    mine = seat == m.dealer
    out: dict[str, Any] = {
        "seat": seat,
        "exchanges": _exchanges(state, seat),
        "escrow": _escrow(state, seat),
        "hand": texts(state.hands[seat]),
        "legal": [TEXT[c] for c in cards_in(legal_mask(state, seat))] if playing else [],
        "taking": taking(state, seat) if playing else [],
        "choose": choice(state, seat),
        "kitty": texts(deal.taken) if mine else None,
        "discards": texts(deal.discards) if mine else None,
        "shown": texts(deal.revealed[seat]),  # §4.6
    }
    if state.options.rules.calls and state.phase is Phase.CALL and seat == state.turn:
        out["calls_left"] = [c for i, c in enumerate(CALLS) if not m.calls_used[seat] >> i & 1]
    return out
