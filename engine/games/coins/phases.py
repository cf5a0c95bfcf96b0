"""Coins has one phase where someone acts, PLAY (RULES.md §3.2 AWAIT_CARD); tricks and hands end inside it.

``check_play`` is the one check shared by ``legal_actions`` (which lists exactly the cards it
allows) and ``apply``. Any card in hand is legal: there is no duty to follow suit.
"""

from __future__ import annotations

from engine.core.actions import action_type
from engine.core.cards import Card, Mask, PerCard
from engine.core.errors import IllegalAction, RefusalCode
from engine.core.events import Event, public
from engine.core.rules import Action
from engine.core.tricks import played_events, without_card
from engine.games.coins.deal import deal_hands, dealt_events
from engine.games.coins.state import BEATS, COINS_MASK, DECK, HAND_SIZE, WIDTH, CoinsState, N, Phase

PLAY_ACTIONS: tuple[dict[str, str], ...] = tuple({"type": "play", "card": DECK.text(c)} for c in range(DECK.size))
KINDS = ("play",)
EXAMPLE = '{"type": "play", "card": "K-cups"}'
_LEGAL = PerCard(PLAY_ACTIONS)
_PLAYED = played_events(DECK, N)


def winner_index(cards: tuple[Card, Card, Card] | list[Card]) -> int:
    """RULES.md §3.3: the play-order index of the card that wins a trick of three cards."""
    s0, s1, s2 = cards[0] // WIDTH, cards[1] // WIDTH, cards[2] // WIDTH
    if s0 != s1 and s0 != s2 and s1 != s2:
        # Type 1: the only present suit that no other present suit beats.
        present = (s0, s1, s2)
        for i, suit in enumerate(present):
            if all(BEATS[other] != suit for other in present):
                return i
        raise AssertionError("a three-suit trick always has one winning suit")
    if s0 == s1 == s2:
        return max(range(3), key=lambda i: cards[i])  # Type 3: highest rank
    pair = s0 if s0 in (s1, s2) else s1  # Type 2: the higher of the pair; the odd card never wins
    return max((i for i in range(3) if cards[i] // WIDTH == pair), key=lambda i: cards[i])


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
    """Every action ``seat`` may take now, by phase."""
    match state.phase:
        case Phase.PLAY:
            return _legal_play(state, seat)
        case Phase.OVER:
            return []


def apply(state: CoinsState, seat: int, action: Action) -> tuple[CoinsState, list[Event]]:
    """The next state and its events, by phase; raises IllegalAction."""
    action_type(action, KINDS, EXAMPLE)
    card = DECK.parse(action.get("card"))
    match state.phase:
        case Phase.PLAY:
            return _apply_play(state, seat, card)
        case Phase.OVER:
            raise IllegalAction(RefusalCode.GAME_OVER)


def _legal_play(state: CoinsState, seat: int) -> list[Action]:
    return _LEGAL.of(playable(state, seat))  # type: ignore[return-value]


def _apply_play(state: CoinsState, seat: int, card: Card) -> tuple[CoinsState, list[Event]]:
    check_play(state, seat, card)
    # The hot path of AI playouts: no intermediate lists, events prebuilt per (seat, card).
    hands = without_card(state.hands, seat, card)
    trick = (*state.trick, (seat, card))
    events = [_PLAYED[seat][card]]
    if len(trick) < N:
        return CoinsState(
            state.options, state.seed, state.phase, state.hand_no, state.dealer, hands, trick,
            (seat + 1) % N, state.trick_no, state.scores, state.won, state.last_trick, None,
        ), events
    return _finish_trick(state, hands, trick, events)


def _finish_trick(
    state: CoinsState, hands: tuple[Mask, ...], trick: tuple[tuple[int, Card], ...], events: list[Event]
) -> tuple[CoinsState, list[Event]]:
    # RULES.md §3.2 TRICK_DONE: the winner scores the Coins cards in the trick.
    cards = [card for _, card in trick]
    w = trick[winner_index(cards)][0]
    points = (COINS_MASK >> cards[0] & 1) + (COINS_MASK >> cards[1] & 1) + (COINS_MASK >> cards[2] & 1)
    scores = list(state.scores)
    scores[w] += points
    won = list(state.won)
    won[w] += N
    events.append(public({"type": "trick_won", "seat": w, "points": points, "scores": scores,
                          "trick_no": state.trick_no}))
    opts = state.options
    if scores[w] >= opts.target_score:
        # RULES.md §4 and D6: the game ends the moment the target is reached, even mid-hand.
        events.append(public({"type": "game_over", "winner": w, "scores": scores}))
        return CoinsState(
            opts, state.seed, Phase.OVER, state.hand_no, state.dealer, hands, (), w, state.trick_no,
            tuple(scores), tuple(won), trick, w,
        ), events
    if state.trick_no < HAND_SIZE:
        return CoinsState(
            opts, state.seed, Phase.PLAY, state.hand_no, state.dealer, hands, (), w, state.trick_no + 1,
            tuple(scores), tuple(won), trick, None,
        ), events
    # RULES.md §3.2 HAND_DONE: the player to the right of the last trick's winner deals next.
    dealer = (w - 1) % N
    hand_no = state.hand_no + 1
    nxt = CoinsState(
        opts, state.seed, Phase.PLAY, hand_no, dealer, deal_hands(state.seed, hand_no, dealer), (), (dealer + 1) % N,
        1, tuple(scores), (0, 0, 0), (), None,
    )
    events.append(public({"type": "hand_over", "hand_no": state.hand_no, "scores": scores, "next_dealer": dealer}))
    events.extend(dealt_events(nxt))
    return nxt, events
