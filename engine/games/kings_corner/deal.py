"""Dealing and drawing: the seeded deal, the layout, the first player and the stock draws.

RULES.md §3.2: one permutation of the 52 cards per hand from
``deal_rng(seed, hand_no)``; cards ``0 … 7n−1`` go to seat ``(dealer + 1 + k) mod n``,
the next four face up to N, E, S, W, and the rest is the stock, top card first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.core.cards import Card, Mask
from engine.core.events import Event, dealt, private, public
from engine.core.rng import deal_rng
from engine.core.seats import left_of
from engine.games.kings_corner.board import DECK, SPACES, VALUES, Pile, is_king, piles_dict, text
from engine.games.kings_corner.options import KingsOptions
from engine.games.kings_corner.state import NOBODY, HandScore, KingsState, Phase, evolve

HAND_SIZE = 7
Rounds = tuple[tuple[tuple[int, Card], ...], ...]
Drawer = Callable[[int, tuple[int, ...]], Sequence[Card]]


def high_card_first(n: int, draw: Drawer) -> tuple[int, Rounds]:
    """The seat that plays first by high-card draw, and every round drawn (§3.2 step 4).

    ``draw(round_no, contenders)`` gives one card per contender, in seat order.
    """
    contenders = tuple(range(n))
    rounds: list[tuple[tuple[int, Card], ...]] = []
    round_no = 1
    while True:
        cards = draw(round_no, contenders)
        drawn = tuple(zip(contenders, cards, strict=True))
        rounds.append(drawn)
        best = max(VALUES[c] for _, c in drawn)
        contenders = tuple(seat for seat, c in drawn if VALUES[c] == best)
        if len(contenders) == 1:
            return contenders[0], tuple(rounds)
        round_no += 1  # tied players draw again among themselves


def seeded_high_card(seed: str, hand_no: int, n: int) -> tuple[int, Rounds]:
    """The high-card draw of a hand: round r uses ``deal_rng(seed, "high_card:<hand_no>:<r>")``."""

    def draw(round_no: int, contenders: tuple[int, ...]) -> Sequence[Card]:
        # Each contender takes a different uniformly random card of the full deck.
        order = deal_rng(seed, f"high_card:{hand_no}:{round_no}").shuffled(range(DECK.size))
        return order[: len(contenders)]

    return high_card_first(n, draw)


def deal_cards(
    seed: str, hand_no: int, dealer: int, n: int, auto_corner: bool
) -> tuple[tuple[Mask, ...], tuple[Pile, ...], tuple[Card, ...], list[tuple[int, int]]]:
    """Hands, board, stock (top first) and the layout Kings moved to corners, for one hand."""
    order = deal_rng(seed, hand_no).shuffled(range(DECK.size))
    hands = [0] * n
    for k in range(HAND_SIZE * n):
        hands[(dealer + 1 + k) % n] |= 1 << order[k]
    base = HAND_SIZE * n
    sides = tuple(order[base : base + 4])
    stock = tuple(order[base + 4 :])
    if auto_corner:
        piles, stock, moved = corner_layout_kings(sides, stock)
        return tuple(hands), piles, stock, moved
    return tuple(hands), tuple((c,) for c in sides) + ((),) * 4, stock, []


def corner_layout_kings(
    sides: Sequence[Card], stock: tuple[Card, ...]
) -> tuple[tuple[Pile, ...], tuple[Card, ...], list[tuple[int, int]]]:
    """layout_kings = auto_corner (§3.2 step 3): the board, the stock left and each ``(side, corner)`` move.

    For each side N, E, S, W in turn, while its card is a King, the King goes to the first
    empty corner (NE, SE, SW, NW) and the top stock card is turned onto that side.
    """
    piles: list[Pile] = [(c,) for c in sides] + [()] * 4
    rest = list(stock)
    moved: list[tuple[int, int]] = []
    for side in range(4):
        while is_king(piles[side][0]):
            corner = next(c for c in range(4, 8) if not piles[c])
            piles[corner] = piles[side]
            piles[side] = (rest.pop(0),)
            moved.append((side, corner))
    return tuple(piles), tuple(rest), moved


def draw(hands: tuple[Mask, ...], stock: tuple[Card, ...], seat: int, k: int) -> tuple[
    tuple[Mask, ...], tuple[Card, ...], tuple[Card, ...]
]:
    """``seat`` draws ``k`` cards (or what is left) from the top of the stock."""
    drawn = stock[:k]
    if not drawn:
        return hands, stock, drawn
    hand = hands[seat]
    for card in drawn:
        hand |= 1 << card
    return (*hands[:seat], hand, *hands[seat + 1:]), stock[k:], drawn


def drew_event(seat: int, drawn: Sequence[Card], left: int) -> Event:
    """The draw, with the cards for the drawer only and the count for everyone else."""
    return private(
        (seat,),
        {"type": "drew", "seat": seat, "cards": [text(c) for c in drawn], "count": len(drawn), "stock": left},
        {"type": "drew", "seat": seat, "count": len(drawn), "stock": left},
    )


def begin_turn(state: KingsState, seat: int, events: list[Event]) -> KingsState:
    """TURN_START(seat): nothing played yet; with draw_timing 'start' the seat draws first (§3.3)."""
    hands, stock = state.hands, state.stock
    if state.options.draw_timing == "start":
        hands, stock, drawn = draw(hands, stock, seat, state.options.draw_count)
        if drawn:
            events.append(drew_event(seat, drawn, len(stock)))
    return evolve(state, phase=Phase.ACTING, turn=seat, hands=hands, stock=stock, played=0, pending=NOBODY)


def new_hand(
    options: KingsOptions, seed: str, n: int, hand_no: int, dealer: int,
    totals: tuple[int, ...], penalties: tuple[int, ...], scored: tuple[HandScore, ...] = (),
) -> tuple[KingsState, list[Event]]:
    """A freshly dealt hand, laid out, with the first player's turn begun (§3.2); ``scored``: the hands before."""
    events: list[Event] = []
    rounds: Rounds = ()
    if options.first_player == "high_card_draw":
        turn, rounds = seeded_high_card(seed, hand_no, n)
        events.append(public({
            "type": "high_card_drawn", "hand_no": hand_no, "first": turn,
            "rounds": [[{"seat": s, "card": text(c)} for s, c in r] for r in rounds],
        }))
    else:
        turn = left_of(dealer, n)
    hands, piles, stock, moved = deal_cards(seed, hand_no, dealer, n, options.layout_kings == "auto_corner")
    for seat in range(n):
        events.append(dealt(seat, DECK.texts(hands[seat]), hand_no=hand_no, dealer=dealer))
    events.append(public({
        "type": "laid_out", "hand_no": hand_no, "dealer": dealer, "turn": turn, "piles": piles_dict(piles),
        "kings_cornered": [{"side": SPACES[s], "corner": SPACES[c]} for s, c in moved], "stock": len(stock),
    }))
    zeros = (0,) * n
    state = KingsState(
        options, seed, n, Phase.ACTING, hand_no, dealer, turn, hands, stock, piles, 0, 0, NOBODY,
        zeros, totals, NOBODY, False, penalties, rounds, (), (), scored,
    )
    return begin_turn(state, turn, events), events
