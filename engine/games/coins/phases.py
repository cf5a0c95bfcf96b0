"""Coins has one phase where someone acts, PLAY (RULES.md §3.2 AWAIT_CARD); tricks and hands end inside it.

``check_play`` is the one check shared by ``legal_actions`` (which lists exactly the cards it
allows) and ``apply``. Any card in hand is legal: there is no duty to follow suit.
"""

from __future__ import annotations

from engine.core.actions import SharedAction, action_type, shared
from engine.core.cards import Card, Mask, PerCard
from engine.core.errors import IllegalAction, RefusalCode
from engine.core.events import Event, public
from engine.core.rules import Action
from engine.core.tricks import played_events
from engine.games.coins.deal import deal_hands, dealt_events
from engine.games.coins.state import COINS_MASK, DECK, HAND_SIZE, CoinsState, N, Phase, evolve
from engine.games.coins.tricks import winner_index as winner_index

PLAY_ACTIONS: tuple[SharedAction, ...] = tuple(
    shared({"type": "play", "card": DECK.text(c)}) for c in range(DECK.size)
)
KINDS = ("play",)
EXAMPLE = '{"type": "play", "card": "K-cups"}'
_LEGAL = PerCard(PLAY_ACTIONS)
_PLAYED = played_events(DECK, N)


def points(card: Card) -> int:
    """RULES.md §1.3: each card of the Coins suit is worth one point, every other card none."""
    return COINS_MASK >> card & 1


def points_this_hand(hand_points: tuple[tuple[int, ...], ...], scores: tuple[int, ...]) -> tuple[int, ...]:
    """The points each seat took in the hand in play: its score less what it took in the finished hands."""
    return tuple(score - sum(hand[seat] for hand in hand_points) for seat, score in enumerate(scores))


def _plus(values: tuple[int, ...], seat: int, k: int) -> tuple[int, ...]:
    """``values`` with ``k`` added to ``seat``'s."""
    return tuple(v + k if s == seat else v for s, v in enumerate(values))


def check_turn(state: CoinsState, seat: int) -> None:
    """Raise IllegalAction unless ``seat`` may act now."""
    if state.phase is Phase.OVER:
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
    return state.hands[seat] if state.phase is Phase.PLAY and seat == state.turn else 0


def legal_actions(state: CoinsState, seat: int) -> list[Action]:
    """Any card in hand, for the seat on turn (RULES.md §3.2: no duty to follow suit)."""
    return _LEGAL.of(playable(state, seat))  # type: ignore[return-value]


def apply(state: CoinsState, seat: int, action: Action) -> tuple[CoinsState, list[Event]]:
    """Play a card: the next state and its events; raises IllegalAction."""
    action_type(action, KINDS, EXAMPLE)
    card = DECK.parse(action.get("card"))
    check_play(state, seat, card)
    return _apply_play(state, seat, card)


def _apply_play(state: CoinsState, seat: int, card: Card) -> tuple[CoinsState, list[Event]]:
    hands = tuple(hand & ~(1 << card) if s == seat else hand for s, hand in enumerate(state.hands))
    trick = (*state.trick, (seat, card))
    events = [_PLAYED[seat][card]]
    if len(trick) < N:
        return evolve(state, hands=hands, trick=trick, turn=(seat + 1) % N), events
    return _finish_trick(state, hands, trick, events), events


def _finish_trick(
    state: CoinsState, hands: tuple[Mask, ...], trick: tuple[tuple[int, Card], ...], events: list[Event]
) -> CoinsState:
    # RULES.md §3.2 TRICK_DONE: the winner scores the Coins cards in the trick.
    w = trick[winner_index([card for _, card in trick])][0]
    gained = sum(points(card) for _, card in trick)
    scores = _plus(state.scores, w, gained)
    won = _plus(state.won, w, N)
    events.append(public({"type": "trick_won", "seat": w, "points": gained, "scores": list(scores),
                          "trick_no": state.trick_no}))
    if scores[w] >= state.options.target_score:
        # RULES.md §4 and D6: the game ends the moment the target is reached, even mid-hand.
        events.append(public({"type": "game_over", "winner": w, "scores": list(scores)}))
        return evolve(state, phase=Phase.OVER, hands=hands, trick=(), turn=w, scores=scores, won=won,
                      last_trick=trick, winner=w)
    if state.trick_no < HAND_SIZE:
        return evolve(state, hands=hands, trick=(), turn=w, trick_no=state.trick_no + 1, scores=scores, won=won,
                      last_trick=trick)
    # RULES.md §3.2 HAND_DONE: the player to the right of the last trick's winner deals next.
    dealer = (w - 1) % N
    hand_no = state.hand_no + 1
    nxt = evolve(state, hand_no=hand_no, dealer=dealer, hands=deal_hands(state.seed, hand_no, dealer), trick=(),
                 turn=(dealer + 1) % N, trick_no=1, scores=scores, won=(0,) * N,
                 last_trick=trick,  # RULES.md §3.4: the hand's last trick stays on view across the deal
                 hand_points=(*state.hand_points, points_this_hand(state.hand_points, scores)))
    events.append(public({"type": "hand_over", "hand_no": state.hand_no, "scores": list(scores),
                          "next_dealer": dealer}))
    events.extend(dealt_events(nxt))
    return nxt
