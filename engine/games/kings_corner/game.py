"""The Kings in the Corner ruleset object: the Game interface over the rules modules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import snapshots
from engine.core.errors import BadOptions, RefusalCode
from engine.core.events import Event
from engine.core.rules import Action, Outcome, Replays, SplitViews
from engine.core.seats import first_dealer
from engine.core.settings import parse_options
from engine.games.kings_corner.deal import new_hand
from engine.games.kings_corner.options import MAX_PLAYERS, SETTINGS, KingsOptions
from engine.games.kings_corner.phases import apply_action, legal_actions
from engine.games.kings_corner.scoring import outcome
from engine.games.kings_corner.state import JSON, KingsState, Phase, evolve
from engine.games.kings_corner.view import NAME, TITLE, hidden_cards, own_view, public_view

MIN_PLAYERS = 2
_BOUNDARIES = ("turn_ended", "hand_over")
_NOBODY: frozenset[int] = frozenset()
_TURN_SETS = tuple(frozenset((seat,)) for seat in range(MAX_PLAYERS))


def _public(events: list[Event]) -> list[JSON]:
    return [e.for_seat(None) for e in events]


def remember(old: KingsState, new: KingsState, events: list[Event]) -> KingsState:
    """``new`` with the recent public events: the last finished turn and the current one so far."""
    if len(events) == 1 and events[0].to is None and events[0].data["type"] not in _BOUNDARIES:
        return evolve(new, this_turn=(*old.this_turn, events[0].data))  # one card played: the common case
    shown = _public(events)
    dealt = [i for i, e in enumerate(shown) if e["type"] == "hand_over"]
    if dealt and new.hand_no != old.hand_no:
        # A new hand: of the old one only its summary stays, its plays would name cards dealt again.
        return evolve(new, last_turn=(shown[dealt[-1]],), this_turn=tuple(shown[dealt[-1] + 1 :]))
    cut = max((i for i, e in enumerate(shown) if e["type"] in _BOUNDARIES), default=-1)
    if cut < 0:
        return evolve(new, this_turn=old.this_turn + tuple(shown))
    return evolve(new, last_turn=old.this_turn + tuple(shown[: cut + 1]), this_turn=tuple(shown[cut + 1 :]))


class KingsCorner(SplitViews, Replays):
    """The Kings in the Corner ruleset (RULES.md), 2 to 4 players."""

    name = NAME
    title = TITLE
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    settings = SETTINGS
    multi_action_turns = True  # a turn is many actions ended by end_turn (RULES.md §3.3)

    def parse_options(self, raw: Mapping[str, Any] | KingsOptions | None) -> KingsOptions:
        """Validated options; raises BadOptions (also for draw_until_playable with draw_timing start)."""
        return parse_options(KingsOptions, SETTINGS, raw)

    def _start(self, options: Mapping[str, Any] | KingsOptions | None, players: int, seed: str) -> tuple[
        KingsState, list[Event]
    ]:
        opts = self.parse_options(options)
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise BadOptions(RefusalCode.PLAYER_COUNT_RANGE, game=TITLE, minimum=MIN_PLAYERS, maximum=MAX_PLAYERS,
                             players=repr(players))
        dealer = first_dealer(opts.first_dealer, players, seed)
        zeros = (0,) * players
        state, events = new_hand(opts, seed, players, 1, dealer, zeros, zeros)
        return evolve(state, this_turn=tuple(_public(events))), events

    def new_game(self, options: Mapping[str, Any] | KingsOptions | None, players: int, seed: str) -> KingsState:
        """Hand 1 dealt and laid out, the first player's turn begun (§3.2)."""
        return self._start(options, players, seed)[0]

    def start_events(self, state: KingsState) -> list[Event]:
        """The events of the first deal: high-card draw, hands (private), layout, any draw at turn start."""
        return self._start(state.options, state.n, state.seed)[1]

    def to_act(self, state: KingsState) -> frozenset[int]:
        """The seat whose turn it is."""
        return _NOBODY if state.phase is Phase.OVER else _TURN_SETS[state.turn]

    legal_actions = staticmethod(legal_actions)  # the rules function itself (phases.py)

    def apply(self, state: KingsState, seat: int, action: Action) -> tuple[KingsState, list[Event]]:
        """The next state and what happened; raises IllegalAction."""
        new, events = apply_action(state, seat, action)
        return remember(state, new, events), events

    def public_view(self, state: KingsState) -> dict[str, Any]:
        """Every pile card by card, counts of hands and stock, scores, the turn."""
        return public_view(state)

    def own_view(self, state: KingsState, seat: int) -> dict[str, Any]:
        """The seat's own hand, its moves and the card it drew and must play."""
        return own_view(state, seat)

    def outcome(self, state: KingsState) -> Outcome | None:
        """Scores and placements once the game is over."""
        return outcome(state)

    def hidden_cards(self, state: KingsState, seat: int | None) -> frozenset[str]:
        """The other seats' hands and the stock."""
        return hidden_cards(state, seat)

    def snapshot(self, state: KingsState) -> dict[str, Any]:
        """The state as JSON-ready data for the store (hidden cards included: never for a view)."""
        return snapshots.snapshot(self.name, state)

    def restore(self, options: Mapping[str, Any] | KingsOptions | None, players: int, seed: str,
                data: Mapping[str, Any]) -> KingsState:
        """The state ``snapshot`` wrote, at a table of these options, players and seed; raises BadSnapshot."""
        state = snapshots.restore(self.name, KingsState, data, self.parse_options(options), seed)
        snapshots.check_players(state.n, players, TITLE)
        return state


GAME = KingsCorner()
