"""The order of a hand's phases for every variant, the deal, the hand end and the game end.

Each ``to_*``/``after_*`` step takes a state and the event list being built, does what
happens automatically (deal, kitty pick-up, reveal, returns, scoring) and stops at the
next phase where someone must act (RULES.md §3.2, §5).
"""

from __future__ import annotations

from engine.core.cards import Mask, cards_in
from engine.core.events import Event, private, public
from engine.games.sergeant_major.deal import Dealt, deal_cards, dealt_events, position_targets
from engine.games.sergeant_major.exchange import (
    exchange_events,
    exchange_hands,
    reveal,
    reveal_events,
    settle_hands,
    transfers,
)
from engine.games.sergeant_major.options import WOBURN_TARGETS, SMOptions, takes_kitty_first
from engine.games.sergeant_major.state import (
    DECK,
    TWO,
    TWO_DIAMONDS,
    WIDTH,
    Deal,
    Match,
    N,
    Phase,
    SMState,
    eldest,
    evolve,
    position,
    set_at,
    texts,
)


def hand_result(tricks: int, target: int, misere: bool) -> int:
    """§3.2 step 9: a seat's result for the hand, tricks − target; in a misère maximum − tricks (§5.3)."""
    return target - tricks if misere else tricks - target


def swap_offered(face_up: Mask) -> bool:
    """§5.8: the 2 of Diamonds may be swapped for the face-up card, unless that card is a 2 (or none lies there)."""
    return bool(face_up) and cards_in(face_up)[0] % WIDTH != TWO


def new_hand(opts: SMOptions, seed: str, match: Match, events: list[Event]) -> SMState:
    """Deal the hand ``match`` describes and run on to the first decision."""
    return open_hand(opts, seed, match, deal_cards(opts, seed, match), events)


def open_hand(opts: SMOptions, seed: str, match: Match, dealt: Dealt, events: list[Event]) -> SMState:
    """Start a hand from given cards (a seeded deal, or a stacked one for worked examples)."""
    hands, kitty, face_up, removed = dealt
    targets = position_targets(opts, match.dealer)
    deal = Deal(
        targets=targets, trump=None, call=None, kitty=kitty, taken=0, discards=0, face_up=face_up, removed=removed,
        transfers=(), escrow=(), exchanges=(), known=(0,) * N, public_known=0, revealed=(0,) * N,
        bid_high=0, bid_by=-1, passed=0,
    )
    state = SMState(opts, seed, Phase.TRUMP, match, deal, hands, match.dealer, (), 0, (0,) * N, (), (-1,) * N, ())
    events.extend(dealt_events(match, hands, targets, face_up))
    return begin(state, events)


def begin(state: SMState, events: list[Event]) -> SMState:
    """The first decision of a hand: Woburn bid, the Variation's kitty, or the exchange."""
    opts = state.options
    if opts.woburn_first_bid and state.match.hand_no == 1:
        return evolve(state, phase=Phase.BID, turn=state.match.dealer)  # §5.2.1: the nominal dealer first
    if opts.rules.kitty_first:
        return to_kitty(state, events)  # §5.6 step 2
    return to_exchange(state, events)


def redeal(state: SMState, events: list[Event]) -> SMState:
    """§5.2.1 (c): everyone passed; the deal moves left and the cards are dealt again."""
    m = state.match
    match = Match(m.hand_no, m.deal_no + 1, (m.dealer + 1) % N, m.totals, m.prev_result, m.prev_first_up,
                  m.calls_used, m.history, m.trick_history, m.target_history, m.overtime, ())
    events.append(public({"type": "redeal", "dealer": match.dealer}))
    return new_hand(state.options, state.seed, match, events)


def bid_won(state: SMState, winner: int, bid: int, events: list[Event]) -> SMState:
    """§5.2.1: the highest bidder deals hand 1 with the balancing-table targets."""
    e_target, m_target = WOBURN_TARGETS[bid]
    by_pos = (bid, e_target, m_target)
    targets = tuple(by_pos[position(winner, seat)] for seat in range(N))
    match = evolve_match(state.match, dealer=winner)
    deal = _deal(state, targets=targets, bid_high=bid, bid_by=winner)
    events.append(public({"type": "bid_won", "seat": winner, "tricks": bid, "targets": list(targets)}))
    return to_exchange(evolve(state, match=match, deal=deal), events)


# evolve_match(match, **changes) and evolve_deal(deal, **changes): copies with some fields changed
evolve_match = evolve_deal = evolve


def to_exchange(state: SMState, events: list[Event]) -> SMState:
    """§3.2 step 4: the exchange, when someone was up in the previous hand; else trump."""
    opts = state.options
    m = state.match
    if opts.rules.exchange and m.prev_result is not None:
        todo = transfers(m.prev_result, state.deal.targets, max_bleed=opts.woburn_max_bleed,
                         first_up_order=opts.rules.first_up_order, first_up=m.prev_first_up)
        if todo:
            events.append(public({"type": "exchange_due",
                                  "transfers": [{"seat": g, "to": r, "count": k} for g, r, k in todo]}))
            deal = _deal(state, transfers=todo)
            return evolve(state, phase=Phase.EXCHANGE, deal=deal, turn=todo[0][0])
    return to_trump(state, events)


def to_trump(state: SMState, events: list[Event]) -> SMState:
    """The dealer's call (alternate) or trump naming."""
    phase = Phase.CALL if state.options.rules.calls else Phase.TRUMP
    return evolve(state, phase=phase, turn=state.match.dealer)


def after_trump(state: SMState, events: list[Event]) -> SMState:
    """What follows the trump call: returns (Variation), kitty, the 2 of Diamonds swap, or play."""
    rules = state.options.rules
    if rules.kitty_first:
        return start_play(settle_escrow(state, events), events)  # §5.6 step 5
    if rules.kitty_size:
        return to_kitty(state, events)
    if rules.face_up and swap_offered(state.deal.face_up):
        # §5.8: whoever holds the 2 of Diamonds may swap; to_act makes the holder public anyway
        holder = next(s for s in range(N) if state.hands[s] >> TWO_DIAMONDS & 1)
        deal = _deal(state, public_known=state.deal.public_known | 1 << TWO_DIAMONDS)
        return evolve(state, phase=Phase.SWAP, turn=holder, deal=deal)
    return start_play(state, events)


def to_kitty(state: SMState, events: list[Event]) -> SMState:
    """§3.2 step 6: take the kitty first if the variant or kitty_order says so, then discard."""
    if takes_kitty_first(state.options.rules, state.options.kitty_order):
        state = take_kitty(state, events)
    return evolve(state, phase=Phase.KITTY, turn=state.match.dealer)


def take_kitty(state: SMState, events: list[Event]) -> SMState:
    """The kitty joins the dealer's hand, privately; then the §4.6 reveal where it applies."""
    d = state.match.dealer
    kitty = state.deal.kitty
    events.append(private((d,), {"type": "took_kitty", "seat": d, "cards": texts(kitty)},
                          {"type": "took_kitty", "seat": d, "count": kitty.bit_count()}))
    hands = set_at(state.hands, d, state.hands[d] | kitty)
    deal = _deal(state, kitty=0, taken=kitty)
    if state.options.rules.reveal:
        shows = reveal(deal.exchanges, d, kitty, state.options.exchange_ace == "low")
        known = list(deal.known)
        revealed = list(deal.revealed)
        for giver, shown in shows:
            known[giver] |= shown
            revealed[giver] |= shown
        deal = evolve_deal(deal, known=tuple(known), revealed=tuple(revealed))
        events.extend(reveal_events(shows, d))
    return evolve(state, hands=hands, deal=deal)


def after_kitty(state: SMState, events: list[Event]) -> SMState:
    """After the discard: pick up the kitty if not yet done, then the Variation's exchange, or play."""
    if state.deal.kitty:
        state = take_kitty(state, events)
    if state.options.rules.kitty_first:
        return to_exchange(state, events)  # §5.6 step 3
    return start_play(state, events)


def settle_escrow(state: SMState, events: list[Event]) -> SMState:
    """§4.4: each giver's returns from the receiver's own cards plus that giver's cards only."""
    escrow = state.deal.escrow
    hands, returns = settle_hands(state.hands, escrow, state.options.exchange_ace == "low")
    done = list(state.deal.exchanges)
    known = list(state.deal.known)
    for (giver, receiver, given), back in zip(escrow, returns, strict=True):
        done.append((giver, receiver, given, back))
        known[giver] |= back
        known[receiver] |= back
        events.append(private((giver, receiver),
                              {"type": "returned", "seat": receiver, "to": giver, "cards": texts(back)},
                              {"type": "returned", "seat": receiver, "to": giver, "count": given.bit_count()}))
    deal = _deal(state, escrow=(), exchanges=tuple(done), known=tuple(known))
    return evolve(state, hands=hands, deal=deal)


def make_exchange(state: SMState, giver: int, receiver: int, given: Mask, events: list[Event]) -> SMState:
    """§4.3: the given cards go over and the receiver's highest of those suits come back at once."""
    hands, back = exchange_hands(state.hands, giver, receiver, given, state.options.exchange_ace == "low")
    known = list(state.deal.known)
    known[giver] |= given | back
    known[receiver] |= given | back
    events.extend(exchange_events(giver, receiver, given, back))
    deal = _deal(state, exchanges=(*state.deal.exchanges, (giver, receiver, given, back)), known=tuple(known))
    return evolve(state, hands=hands, deal=deal)


def start_play(state: SMState, events: list[Event]) -> SMState:
    """§3.2 step 8: eldest leads; in 3-5-9 the dealer's discards are already one trick (§5.7)."""
    d = state.match.dealer
    tricks = (0,) * N
    if state.options.rules.discard_trick:
        tricks = set_at(tricks, d, 1)
    events.append(public({"type": "play_started", "leader": eldest(d), "tricks": list(tricks),
                          "trump": None if state.deal.trump is None else DECK.suits[state.deal.trump]}))
    return evolve(state, phase=Phase.PLAY, turn=eldest(d), trick=(), trick_no=0, tricks=tricks, played=(),
                  first_up=(-1,) * N)


def game_over(state: SMState, winners: tuple[int, ...], events: list[Event], totals: tuple[int, ...]) -> SMState:
    """The end: record the winners."""
    events.append(public({"type": "game_over", "winners": list(winners), "totals": list(totals)}))
    match = evolve_match(state.match, winners=winners, totals=totals)
    return evolve(state, phase=Phase.OVER, match=match)


def end_hand(state: SMState, events: list[Event]) -> SMState:
    """§3.2 step 9: results, totals, the running-score and 18-hand ends, then the next deal."""
    opts = state.options
    rules = opts.rules
    m = state.match
    targets = state.deal.targets
    misere = state.deal.call == "misere"
    results = tuple(hand_result(state.tricks[s], targets[s], misere) for s in range(N))
    totals = tuple(t + r for t, r in zip(m.totals, results, strict=True))
    events.append(public({"type": "hand_over", "hand_no": m.hand_no, "tricks": list(state.tricks),
                          "targets": list(targets), "results": list(results), "totals": list(totals)}))
    # the hand's row of the score sheet
    history = (*m.history, results)
    trick_history = (*m.trick_history, state.tricks)
    target_history = (*m.target_history, targets)
    scored = evolve_match(m, prev_result=results, history=history, trick_history=trick_history,
                          target_history=target_history)
    best = max(totals)
    leaders = tuple(s for s in range(N) if totals[s] == best)
    if rules.last_hand and m.hand_no >= rules.last_hand:
        done = evolve(state, match=scored)
        return game_over(done, leaders, events, totals)  # §5.3: co-winners on a tie
    overtime = m.overtime
    if rules.running and not rules.last_hand:
        if rules.kitty_first:
            reached = any(abs(t) >= 15 for t in totals)  # §5.6
        else:
            reached = best >= (opts.win_score if rules.name == "nine_five_two" else 10)  # §5.4, §5.5
        if reached or overtime:
            if len(leaders) == 1:
                done = evolve(state, match=scored)
                return game_over(done, leaders, events, totals)
            overtime = True  # §6 SM-D24
    match = Match(m.hand_no + 1, m.deal_no + 1, (m.dealer + 1) % N, totals, results, state.first_up,
                  m.calls_used, history, trick_history, target_history, overtime, ())
    return new_hand(opts, state.seed, match, events)


def _deal(state: SMState, **changes: object) -> Deal:
    return evolve_deal(state.deal, **changes)
