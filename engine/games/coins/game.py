"""Coins by Mark Steere: three players, the Spanish 48-card deck, cyclic suit dominance.

Every rule cites ``RULES.md``. Any card in hand is legal; a trick is won by suit
dominance (three suits), the higher of the pair (two suits) or the highest card (one
suit); each Coins card in a trick is a point for its winner, and the game ends the
moment someone reaches the target.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.core.cards import SPANISH, Card, Mask, PerCard
from engine.core.errors import BadOptions, IllegalAction, MalformedAction, RefusalCode
from engine.core.events import Event, private, public
from engine.core.rng import deal_rng
from engine.core.rules import Action, Outcome, Replays, placements_by
from engine.core.seats import check_first_dealer, first_dealer
from engine.core.settings import Setting, options_dict, parse_options

DECK = SPANISH
N = 3
CUPS, COINS, SWORDS, CLUBS = range(4)
SUIT_CYCLE = ("cups", "coins", "swords", "clubs")  # RULES.md §1.2: each beats the next, clubs beat cups
BEATS = {CUPS: COINS, COINS: SWORDS, SWORDS: CLUBS, CLUBS: CUPS}
WIDTH = len(DECK.ranks)
COINS_MASK = DECK.suit_mask(COINS)
CREDIT = "Coins by Mark Steere"
TARGET_PRESETS = (10, 15, 20)


def _check_target(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 99:
        return value
    raise BadOptions(RefusalCode.SETTING_OUT_OF_RANGE, name="target_score", minimum=1, maximum=99, value=repr(value))


def _check_dealer(value: object) -> str:
    return check_first_dealer(str(value), N)


SETTINGS = (
    Setting("target_score", "Target score", 10, TARGET_PRESETS, 1, 99, _check_target),
    Setting("first_dealer", "First dealer", "random", ("random", "host", "seat:0", "seat:1", "seat:2"),
            check=_check_dealer),
)


@dataclass(frozen=True, slots=True)
class CoinsOptions:
    """Coins settings (RULES.md §2): the target score and how the first dealer is chosen."""

    target_score: int = 10
    first_dealer: str = "random"


class Phase(StrEnum):
    """Where the game stands; dealing and trick resolution happen inside ``apply``."""

    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class CoinsState:
    """One playthrough of Coins. ``hands`` are card masks; ``trick`` is ``(seat, card)`` in play order."""

    options: CoinsOptions
    seed: str
    phase: Phase
    hand_no: int
    dealer: int
    hands: tuple[Mask, ...]
    trick: tuple[tuple[int, Card], ...]
    turn: int
    trick_no: int
    scores: tuple[int, ...]
    won: tuple[int, ...]
    last_trick: tuple[tuple[int, Card], ...]
    winner: int | None


# RULES.md §3.3: trick winner -------------------------------------------------

def _winner_index(cards: tuple[Card, Card, Card] | list[Card]) -> int:
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


def trick_winner(cards: list[str]) -> int:
    """The index (0..2, in play order) of the card that wins a trick of three cards."""
    if len(cards) != 3:
        raise MalformedAction(RefusalCode.TRICK_NOT_THREE, count=len(cards))
    parsed = [DECK.parse(c) for c in cards]
    if len(set(parsed)) != 3:
        raise MalformedAction(RefusalCode.TRICK_REPEATS_CARD)
    return _winner_index(parsed)


# the deal ---------------------------------------------------------------------

def _deal(seed: str, hand_no: int, dealer: int) -> tuple[Mask, ...]:
    # RULES.md §3.2 DEAL: card k of the permuted deck goes to seat (dealer + 1 + k) mod 3.
    order = deal_rng(seed, hand_no).shuffled(range(DECK.size))
    hands = [0, 0, 0]
    for k, card in enumerate(order):
        hands[(dealer + 1 + k) % N] |= 1 << card
    return tuple(hands)


def _dealt_events(state: CoinsState) -> list[Event]:
    return [
        private(
            (seat,),
            {"type": "dealt", "hand_no": state.hand_no, "dealer": state.dealer, "seat": seat,
             "cards": DECK.texts(state.hands[seat])},
            {"type": "dealt", "hand_no": state.hand_no, "dealer": state.dealer, "seat": seat, "count": 16},
        )
        for seat in range(N)
    ]


# actions ----------------------------------------------------------------------

PLAY_ACTIONS: tuple[dict[str, str], ...] = tuple({"type": "play", "card": DECK.text(c)} for c in range(DECK.size))
_LEGAL = PerCard(PLAY_ACTIONS)
_TURN_SETS = tuple(frozenset((seat,)) for seat in range(N))
# Events are immutable by convention, so the "played" events can be built once.
_PLAYED = tuple(
    tuple(public({"type": "played", "seat": seat, "card": DECK.text(c)}) for c in range(DECK.size)) for seat in range(N)
)
_NOBODY: frozenset[int] = frozenset()


_SHAPE = '{"type": "play", "card": "K-cups"}'


def _parse_play(action: Action) -> Card:
    try:
        kind = action["type"]
    except (TypeError, KeyError, IndexError):
        raise MalformedAction(RefusalCode.MALFORMED_ACTION, example=_SHAPE) from None
    if kind != "play":
        raise MalformedAction(RefusalCode.UNKNOWN_ACTION, action=str(kind), actions="play")
    return DECK.parse(action.get("card"))


def check_play(state: CoinsState, seat: int, card: Card) -> None:
    """Raise IllegalAction unless ``seat`` may play ``card`` now (RULES.md §3.2 AWAIT_CARD, §3.5)."""
    if state.phase is Phase.OVER:
        raise IllegalAction(RefusalCode.GAME_OVER)
    if seat != state.turn:
        raise IllegalAction(RefusalCode.NOT_YOUR_TURN)
    if not state.hands[seat] >> card & 1:
        raise IllegalAction(RefusalCode.CARD_NOT_IN_HAND, card=DECK.text(card))


def can_play(state: CoinsState, seat: int, card: Card) -> bool:
    """Whether ``seat`` may play ``card`` now."""
    return state.phase is Phase.PLAY and seat == state.turn and bool(state.hands[seat] >> card & 1)


def _play(state: CoinsState, seat: int, card: Card) -> tuple[CoinsState, list[Event]]:
    # The hot path of AI playouts: no intermediate lists, events prebuilt per (seat, card).
    h0, h1, h2 = state.hands
    keep = ~(1 << card)
    hands = (h0 & keep, h1, h2) if seat == 0 else (h0, h1 & keep, h2) if seat == 1 else (h0, h1, h2 & keep)
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
    w = trick[_winner_index(cards)][0]
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
    if state.trick_no < 16:
        return CoinsState(
            opts, state.seed, Phase.PLAY, state.hand_no, state.dealer, hands, (), w, state.trick_no + 1,
            tuple(scores), tuple(won), trick, None,
        ), events
    # RULES.md §3.2 HAND_DONE: the player to the right of the last trick's winner deals next.
    dealer = (w - 1) % N
    hand_no = state.hand_no + 1
    nxt = CoinsState(
        opts, state.seed, Phase.PLAY, hand_no, dealer, _deal(state.seed, hand_no, dealer), (), (dealer + 1) % N, 1,
        tuple(scores), (0, 0, 0), (), None,
    )
    events.append(public({"type": "hand_over", "hand_no": state.hand_no, "scores": scores, "next_dealer": dealer}))
    events.extend(_dealt_events(nxt))
    return nxt, events


# the Game object --------------------------------------------------------------

class Coins(Replays):
    """The Coins ruleset (RULES.md)."""

    name = "coins"
    title = "Coins"
    credit = CREDIT
    min_players = N
    max_players = N
    settings = SETTINGS

    def parse_options(self, raw: Mapping[str, Any] | CoinsOptions | None) -> CoinsOptions:
        """Validated options; raises BadOptions."""
        return parse_options(CoinsOptions, SETTINGS, raw)

    def new_game(self, options: Mapping[str, Any] | CoinsOptions | None, players: int, seed: str) -> CoinsState:
        """Hand 1 dealt (RULES.md §3.2 SETUP, DEAL)."""
        opts = self.parse_options(options)
        if players != N:
            raise BadOptions(RefusalCode.PLAYER_COUNT_FIXED, game="Coins", count=N, players=repr(players))
        dealer = first_dealer(opts.first_dealer, N, seed)
        return CoinsState(
            opts, seed, Phase.PLAY, 1, dealer, _deal(seed, 1, dealer), (), (dealer + 1) % N, 1,
            (0, 0, 0), (0, 0, 0), (), None,
        )

    def start_events(self, state: CoinsState) -> list[Event]:
        """The events that announce the first deal."""
        return _dealt_events(state)

    def to_act(self, state: CoinsState) -> frozenset[int]:
        """The seat whose turn it is."""
        return _NOBODY if state.phase is Phase.OVER else _TURN_SETS[state.turn]

    def legal_actions(self, state: CoinsState, seat: int) -> list[Action]:
        """Any card in hand, for the seat on turn (RULES.md §3.2: no duty to follow suit)."""
        if state.phase is Phase.OVER or seat != state.turn:
            return []
        return _LEGAL.of(state.hands[seat])  # type: ignore[return-value]

    def apply(self, state: CoinsState, seat: int, action: Action) -> tuple[CoinsState, list[Event]]:
        """Play a card; raises IllegalAction."""
        card = _parse_play(action)
        check_play(state, seat, card)
        return _play(state, seat, card)

    def view(self, state: CoinsState, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know: its own hand, the trick, counts and scores (RULES.md §3.4)."""
        over = state.phase is Phase.OVER
        out: dict[str, Any] = {
            "game": self.name,
            "title": self.title,
            "credit": CREDIT,
            "options": options_dict(state.options),
            "phase": state.phase.value,
            "seat": seat,
            "players": N,
            "hand_no": state.hand_no,
            "trick_no": state.trick_no,
            "dealer": state.dealer,
            "turn": None if over else state.turn,
            "to_act": sorted(self.to_act(state)),
            "trick": [{"seat": s, "card": DECK.text(c)} for s, c in state.trick],
            "last_trick": [{"seat": s, "card": DECK.text(c)} for s, c in state.last_trick],
            "hand_counts": [h.bit_count() for h in state.hands],
            "won_cards": list(state.won),
            "scores": list(state.scores),
            "target_score": state.options.target_score,
            "suit_cycle": list(SUIT_CYCLE),
            "winner": state.winner,
        }
        if seat is not None:
            out["hand"] = DECK.texts(state.hands[seat])
            out["legal"] = [a["card"] for a in self.legal_actions(state, seat)]
        return out

    def outcome(self, state: CoinsState) -> Outcome | None:
        """Scores and placements once someone has reached the target."""
        if state.phase is not Phase.OVER:
            return None
        return Outcome(state.scores, placements_by(state.scores))

    def hidden_cards(self, state: CoinsState, seat: int | None) -> frozenset[str]:
        """The cards in the other seats' hands."""
        mask = 0
        for other, hand in enumerate(state.hands):
            if other != seat:
                mask |= hand
        return frozenset(DECK.texts(mask))


GAME = Coins()
