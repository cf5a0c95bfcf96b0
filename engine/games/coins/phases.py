"""Coins has one phase where someone acts, PLAY (RULES.md §3.2 AWAIT_CARD); tricks and hands end inside it.

``check_play`` is the one check shared by ``legal_actions`` (which lists exactly the cards it
allows) and ``apply``. Any card in hand is legal: there is no duty to follow suit.

This is the hot path of AI playouts: the play actions are built once and shared (read-only),
so ``apply`` knows one of them by its identity without parsing it; events are built once per
(seat, card); the trick winner is read from ``tricks.WINNERS``; states are built by
``new_state`` (``engine.core.records``).
"""

from __future__ import annotations

from engine.core.actions import SharedAction, action_type, by_identity, shared
from engine.core.cards import Card, Mask, PerCard
from engine.core.errors import IllegalAction, RefusalCode
from engine.core.events import Event, public
from engine.core.rules import Action
from engine.core.tricks import played_events, without_card
from engine.games.coins.deal import deal_hands, dealt_events
from engine.games.coins.state import COINS_MASK, DECK, HAND_SIZE, OVER, PLAY, CoinsState, N, new_state
from engine.games.coins.tricks import STRIDE0, STRIDE1, WINNERS
from engine.games.coins.tricks import winner_index as winner_index

PLAY_ACTIONS: tuple[SharedAction, ...] = tuple(
    shared({"type": "play", "card": DECK.text(c)}) for c in range(DECK.size)
)
KINDS = ("play",)
EXAMPLE = '{"type": "play", "card": "K-cups"}'
_LEGAL = PerCard(PLAY_ACTIONS)
_CARD_OF = by_identity(dict(enumerate(PLAY_ACTIONS)))
_PLAYED = played_events(DECK, N)
_POINTS = tuple(COINS_MASK >> c & 1 for c in range(DECK.size))  # RULES.md §1.3: one point per Coins card


def _add0(values: tuple[int, ...], k: int) -> tuple[int, ...]:
    a, b, c = values
    return a + k, b, c


def _add1(values: tuple[int, ...], k: int) -> tuple[int, ...]:
    a, b, c = values
    return a, b + k, c


def _add2(values: tuple[int, ...], k: int) -> tuple[int, ...]:
    a, b, c = values
    return a, b, c + k


_ADD = (_add0, _add1, _add2)  # _ADD[seat](per_seat, k): per_seat with k added to that seat's value


def check_turn(state: CoinsState, seat: int) -> None:
    """Raise IllegalAction unless ``seat`` may act now."""
    if state.phase is OVER:
        raise IllegalAction(RefusalCode.GAME_OVER)
    if seat != state.turn:
        raise IllegalAction(RefusalCode.NOT_YOUR_TURN)


def check_play(state: CoinsState, seat: int, card: Card) -> None:
    """Raise IllegalAction unless ``seat`` may play ``card`` now (RULES.md §3.2 AWAIT_CARD, §3.5)."""
    check_turn(state, seat)
    if not state.hands[seat] >> card & 1:
        raise IllegalAction(RefusalCode.CARD_NOT_IN_HAND, card=DECK.text(card))


def playable(state: CoinsState, seat: int) -> Mask:
    """The cards ``check_play`` allows ``seat`` now: its whole hand on its turn, else none."""
    return state.hands[seat] if state.phase is PLAY and seat == state.turn else 0


def legal_actions(state: CoinsState, seat: int) -> list[Action]:
    """Any card in hand, for the seat on turn (RULES.md §3.2: no duty to follow suit)."""
    # PLAY is the one phase where anyone acts; an if, not a match: see state.PLAY
    return _legal_play(state, seat) if state.phase is PLAY else []


def apply(state: CoinsState, seat: int, action: Action) -> tuple[CoinsState, list[Event]]:
    """Play a card: the next state and its events; raises IllegalAction."""
    card = _CARD_OF.get(id(action))  # one of PLAY_ACTIONS: read-only, so already parsed
    if card is None:
        action_type(action, KINDS, EXAMPLE)
        card = DECK.parse(action.get("card"))
    if state.phase is PLAY:
        return _apply_play(state, seat, card)
    raise IllegalAction(RefusalCode.GAME_OVER)


def _legal_play(state: CoinsState, seat: int) -> list[Action]:
    return _LEGAL.of(state.hands[seat] if seat == state.turn else 0)  # type: ignore[return-value]


def _apply_play(state: CoinsState, seat: int, card: Card) -> tuple[CoinsState, list[Event]]:
    if seat != state.turn or not state.hands[seat] >> card & 1:
        check_play(state, seat, card)  # raises with the reason
    hands = without_card(state.hands, seat, card)
    trick = (*state.trick, (seat, card))
    events = [_PLAYED[seat][card]]
    if len(trick) < N:
        return new_state(
            state.options, state.seed, state.phase, state.hand_no, state.dealer, hands, trick,
            (seat + 1) % N, state.trick_no, state.scores, state.won, state.last_trick, None,
        ), events
    return _finish_trick(state, hands, trick, events)


def _finish_trick(
    state: CoinsState, hands: tuple[Mask, ...], trick: tuple[tuple[int, Card], ...], events: list[Event]
) -> tuple[CoinsState, list[Event]]:
    # RULES.md §3.2 TRICK_DONE: the winner scores the Coins cards in the trick.
    (_, c0), (_, c1), (_, c2) = trick
    w = trick[WINNERS[c0 * STRIDE0 + c1 * STRIDE1 + c2]][0]
    points = _POINTS[c0] + _POINTS[c1] + _POINTS[c2]
    scores = _ADD[w](state.scores, points)
    won = _ADD[w](state.won, N)
    events.append(public({"type": "trick_won", "seat": w, "points": points, "scores": list(scores),
                          "trick_no": state.trick_no}))
    opts = state.options
    if scores[w] >= opts.target_score:
        # RULES.md §4 and D6: the game ends the moment the target is reached, even mid-hand.
        events.append(public({"type": "game_over", "winner": w, "scores": list(scores)}))
        return new_state(
            opts, state.seed, OVER, state.hand_no, state.dealer, hands, (), w, state.trick_no,
            scores, won, trick, w,
        ), events
    if state.trick_no < HAND_SIZE:
        return new_state(
            opts, state.seed, PLAY, state.hand_no, state.dealer, hands, (), w, state.trick_no + 1,
            scores, won, trick, None,
        ), events
    # RULES.md §3.2 HAND_DONE: the player to the right of the last trick's winner deals next.
    dealer = (w - 1) % N
    hand_no = state.hand_no + 1
    nxt = new_state(
        opts, state.seed, PLAY, hand_no, dealer, deal_hands(state.seed, hand_no, dealer), (), (dealer + 1) % N,
        1, scores, (0, 0, 0), (), None,
    )
    events.append(public({"type": "hand_over", "hand_no": state.hand_no, "scores": list(scores),
                          "next_dealer": dealer}))
    events.extend(dealt_events(nxt))
    return nxt, events
