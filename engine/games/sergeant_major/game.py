"""The Sergeant Major ruleset object: parses actions, dispatches them by phase, lists legal actions.

One ``_legal_<phase>`` and one ``_apply_<phase>`` per phase, behind one table per direction
keyed by phase (a dict, not a ``match``: on Python 3.11 each ``Phase.X`` a match reads costs
about 200 ns, see ``state.PLAY``). The play actions are shared and read-only, so ``apply``
knows one of them by its identity without parsing it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core import snapshots
from engine.core.actions import SharedAction, action_type, by_identity, shared
from engine.core.cards import Card, Mask, PerCard
from engine.core.errors import N_, BadOptions, IllegalAction, MalformedAction, RefusalCode, listed
from engine.core.events import Event
from engine.core.rules import Action, Outcome, Replays, placements_by
from engine.core.seats import first_dealer
from engine.games.sergeant_major import flow, phases, play
from engine.games.sergeant_major.options import SETTINGS, SMOptions, parse
from engine.games.sergeant_major.state import (
    CALLS,
    DECK,
    OVER,
    SUITS,
    TEXT,
    Match,
    Phase,
    SMState,
    by_rank,
    texts,
)
from engine.games.sergeant_major.view import hidden_mask, view

N = 3
PLAY_ACTIONS: tuple[SharedAction, ...] = tuple(shared({"type": "play", "card": TEXT[c]}) for c in range(DECK.size))
_PLAYS = PerCard(PLAY_ACTIONS)
_CARD_OF = by_identity(dict(enumerate(PLAY_ACTIONS)))
TRUMP_ACTIONS: tuple[dict[str, str], ...] = tuple({"type": "name_trump", "suit": s} for s in SUITS)
CALL_ACTIONS: tuple[dict[str, str], ...] = tuple({"type": "call", "call": c} for c in CALLS)
BID_ACTIONS: dict[int, dict[str, Any]] = {n: {"type": "bid", "tricks": n} for n in range(phases.MIN_BID, 17)}
PASS: dict[str, str] = {"type": "pass"}
SWAP_ACTIONS: tuple[dict[str, str], ...] = ({"type": "swap"}, {"type": "decline_swap"})
KINDS = ("play", "bid", "pass", "give", "call", "name_trump", "discard", "swap", "decline_swap")
_TURNS = tuple(frozenset((s,)) for s in range(N))
_NOBODY: frozenset[int] = frozenset()
EXAMPLE = '{"type": "play", "card": "Q-spades"}'


def _cards(action: Action) -> Mask:
    raw = action.get("cards")
    if not isinstance(raw, list | tuple):
        raise MalformedAction(RefusalCode.CARDS_NOT_A_LIST)
    mask = 0
    for text in raw:
        card: Card = DECK.parse(text)
        if mask >> card & 1:
            raise MalformedAction(RefusalCode.DUPLICATE_CARD, card=TEXT[card])
        mask |= 1 << card
    return mask


def _text(action: Action, key: str) -> str:
    value = action.get(key)
    if not isinstance(value, str):
        raise MalformedAction(RefusalCode.FIELD_NOT_A_WORD, field=key)
    return value


def _lowest(hand: Mask, k: int) -> list[str]:
    return [TEXT[c] for c in by_rank(hand)[:k]]


# one _legal_<phase> and one _apply_<phase> per phase where someone acts --------------

def _legal_play(state: SMState, seat: int) -> list[Action]:
    return _PLAYS.of(play.legal_mask(state, seat))  # type: ignore[return-value]


def _apply_play(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    _expect(state, kind, "play")
    card = _CARD_OF.get(id(action))  # one of PLAY_ACTIONS: read-only, so already parsed
    if card is None:
        card = DECK.parse(action.get("card"))
    play.check_play(state, seat, card)
    new, played = play.play(state, seat, card)
    events.extend(played)
    return new


def _legal_bid(state: SMState, seat: int) -> list[Action]:
    return [*(BID_ACTIONS[n] for n in range(phases.lowest_bid(state), phases.MAX_BID + 1)), PASS]


def _apply_bid(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    if kind == "pass":
        return phases.pass_bid(state, seat, events)
    _expect(state, kind, "bid")
    tricks = action.get("tricks")
    if not isinstance(tricks, int) or isinstance(tricks, bool):
        raise MalformedAction(RefusalCode.BID_NOT_A_NUMBER)
    phases.check_bid(state, tricks)
    return phases.bid(state, seat, tricks, events)


def _legal_exchange(state: SMState, seat: int) -> list[Action]:
    return [{"type": "give", "cards": _lowest(state.hands[seat], phases.give_count(state)[1])}]


def _apply_exchange(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    _expect(state, kind, "give")
    cards = _cards(action)
    phases.check_cards(state, seat, cards, phases.give_count(state)[1], "give")
    return phases.give(state, seat, cards, events)


def _legal_kitty(state: SMState, seat: int) -> list[Action]:
    return [{"type": "discard", "cards": _lowest(state.hands[seat], phases.KITTY_DISCARDS)}]


def _apply_kitty(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    _expect(state, kind, "discard")
    cards = _cards(action)
    phases.check_cards(state, seat, cards, phases.KITTY_DISCARDS, "discard")
    return phases.discard(state, seat, cards, events)


def _legal_call(state: SMState, seat: int) -> list[Action]:
    used = state.match.calls_used[seat]
    return [CALL_ACTIONS[i] for i in range(len(CALLS)) if not used >> i & 1]


def _apply_call(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    _expect(state, kind, "call")
    word = _text(action, "call")
    phases.check_call(state, seat, word)
    return phases.call(state, seat, word, events)


def _legal_trump(state: SMState, seat: int) -> list[Action]:
    return list(TRUMP_ACTIONS)


def _apply_trump(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    _expect(state, kind, "name_trump")
    word = _text(action, "suit")
    if word in ("no_trump", "misere"):
        raise IllegalAction(RefusalCode.TRUMP_SUIT_ONLY, suits=listed(SUITS))
    return phases.name_trump(state, seat, phases.check_suit(word), events)


def _legal_swap(state: SMState, seat: int) -> list[Action]:
    return list(SWAP_ACTIONS)


def _apply_swap(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    if kind == "decline_swap":
        return phases.decline_swap(state, seat, events)
    _expect(state, kind, "swap")
    return phases.swap(state, seat, events)


def _expect(state: SMState, kind: str, wanted: str) -> None:
    """Refuse any action type but the one this phase takes (RULES.md §3.2: one decision at a time)."""
    if kind != wanted:
        raise IllegalAction(RefusalCode.WRONG_PHASE, action=kind, phase=state.phase.value)


_LEGAL: dict[Phase, Callable[[SMState, int], list[Action]]] = {
    Phase.PLAY: _legal_play,
    Phase.BID: _legal_bid,
    Phase.EXCHANGE: _legal_exchange,
    Phase.KITTY: _legal_kitty,
    Phase.CALL: _legal_call,
    Phase.TRUMP: _legal_trump,
    Phase.SWAP: _legal_swap,
}
_APPLY: dict[Phase, Callable[[SMState, int, str, Action, list[Event]], SMState]] = {
    Phase.PLAY: _apply_play,
    Phase.BID: _apply_bid,
    Phase.EXCHANGE: _apply_exchange,
    Phase.KITTY: _apply_kitty,
    Phase.CALL: _apply_call,
    Phase.TRUMP: _apply_trump,
    Phase.SWAP: _apply_swap,
}
_PLAY_KIND = {id(action): "play" for action in PLAY_ACTIONS}


def legal_actions(state: SMState, seat: int) -> list[Action]:
    """Every single-card or simple action; one canonical choice for a multi-card give or discard."""
    if state.phase is OVER or seat != state.turn:
        return []
    return _LEGAL[state.phase](state, seat)


def apply(state: SMState, seat: int, action: Action) -> tuple[SMState, list[Event]]:
    """The next state and its events; raises IllegalAction (nothing changes)."""
    kind = _PLAY_KIND.get(id(action)) or action_type(action, KINDS, EXAMPLE)
    if state.phase is OVER:
        raise IllegalAction(RefusalCode.GAME_OVER)
    if seat != state.turn:
        raise IllegalAction(RefusalCode.NOT_YOUR_TURN)
    events: list[Event] = []
    return _APPLY[state.phase](state, seat, kind, action, events), events


class SergeantMajor(Replays):
    """The Sergeant Major (3-5-8) ruleset with its variants (RULES.md)."""

    name = "sergeant_major"
    title = N_("Sergeant Major (3-5-8)")  # translated where it is shown (engine.words.game_title)
    min_players = N
    max_players = N
    settings = SETTINGS

    def parse_options(self, raw: Mapping[str, Any] | SMOptions | None) -> SMOptions:
        """Validated options; raises BadOptions for a bad value or combination."""
        return parse(raw)

    def new_game(self, options: Mapping[str, Any] | SMOptions | None, players: int, seed: str) -> SMState:
        """Hand 1 dealt and run on to the first decision (§3.2 START, DEAL)."""
        opts = self.parse_options(options)
        if players != N:
            raise BadOptions(RefusalCode.PLAYER_COUNT_FIXED, game=self.title, count=N, players=repr(players))
        match = Match(1, 1, first_dealer(opts.first_dealer, N, seed), (0,) * N, None, (-1,) * N, (0,) * N, (),
                      False, ())
        return flow.new_hand(opts, seed, match, [])

    def start_events(self, state: SMState) -> list[Event]:
        """The events that announce the first deal, as ``new_game`` made it."""
        events: list[Event] = []
        flow.new_hand(state.options, state.seed, state.match, events)
        return events

    def to_act(self, state: SMState) -> frozenset[int]:
        """The seat whose turn it is (every phase has one actor)."""
        return _NOBODY if state.phase is OVER else _TURNS[state.turn]

    # The AI's hot path calls these once a move: the rules functions themselves, no wrapper between.
    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply)

    def view(self, state: SMState, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know, JSON-ready."""
        return view(state, seat, self.name, self.title)

    def outcome(self, state: SMState) -> Outcome | None:
        """Totals and placements once the game is over; a trick-count win places the winner alone first."""
        if state.phase is not OVER:
            return None
        totals = state.match.totals
        rules = state.options.rules
        if rules.running or rules.calls:
            return Outcome(totals, placements_by(totals))
        winners = state.match.winners
        return Outcome(totals, tuple(1 if s in winners else 2 for s in range(N)))

    def hidden_cards(self, state: SMState, seat: int | None) -> frozenset[str]:
        """Other hands, the kitty, others' discards, cards in transit: all not shown to ``seat``."""
        return frozenset(texts(hidden_mask(state, seat)))

    def snapshot(self, state: SMState) -> dict[str, Any]:
        """The state as JSON-ready data for the store (hidden cards included: never for a view)."""
        return snapshots.snapshot(self.name, state)

    def restore(self, options: Mapping[str, Any] | SMOptions | None, players: int, seed: str,
                data: Mapping[str, Any]) -> SMState:
        """The state ``snapshot`` wrote, at a table of these options, players and seed; raises BadSnapshot."""
        snapshots.check_players(N, players, self.title)
        return snapshots.restore(self.name, SMState, data, self.parse_options(options), seed)


GAME = SergeantMajor()
