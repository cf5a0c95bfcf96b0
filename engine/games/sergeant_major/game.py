"""The Sergeant Major ruleset object: new games, turns, views, outcomes and snapshots.

Legal actions and their application, phase by phase, are in ``phases``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import snapshots
from engine.core.errors import N_, BadOptions, RefusalCode
from engine.core.events import Event
from engine.core.rules import Outcome, Replays, SplitViews, placements_by
from engine.core.seats import first_dealer
from engine.games.sergeant_major import flow
from engine.games.sergeant_major.options import SETTINGS, SMOptions, parse
from engine.games.sergeant_major.phases import N, apply, legal_actions
from engine.games.sergeant_major.state import Match, Phase, SMState, texts
from engine.games.sergeant_major.view import hidden_mask, own_view, public_view

_TURNS = tuple(frozenset((s,)) for s in range(N))
_NOBODY: frozenset[int] = frozenset()


class SergeantMajor(SplitViews, Replays):
    """The Sergeant Major (3-5-8) ruleset with its variants (RULES.md)."""

    name = "sergeant_major"
    title = N_("Sergeant Major (3-5-8)")  # translated where it is shown (engine.words.game_title)
    min_players = N
    max_players = N
    multi_action_turns = False  # every action is a turn of its own
    settings = SETTINGS

    def parse_options(self, raw: Mapping[str, Any] | SMOptions | None) -> SMOptions:
        """Validated options; raises BadOptions for a bad value or combination."""
        return parse(raw)

    def new_game(self, options: Mapping[str, Any] | SMOptions | None, players: int, seed: str) -> SMState:
        """Hand 1 dealt and run on to the first decision (§3.2 START, DEAL)."""
        opts = self.parse_options(options)
        if players != N:
            raise BadOptions(RefusalCode.PLAYER_COUNT_FIXED, game=self.title, count=N, players=repr(players))
        match = Match(1, 1, first_dealer(opts.first_dealer, N, seed), (0,) * N, None, (-1,) * N, (0,) * N, (), (), (),
                      False, ())
        return flow.new_hand(opts, seed, match, [])

    def start_events(self, state: SMState) -> list[Event]:
        """The events that announce the first deal, as ``new_game`` made it."""
        events: list[Event] = []
        flow.new_hand(state.options, state.seed, state.match, events)
        return events

    def to_act(self, state: SMState) -> frozenset[int]:
        """The seat whose turn it is (every phase has one actor)."""
        return _NOBODY if state.phase is Phase.OVER else _TURNS[state.turn]

    # the rules functions themselves (phases.py)
    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply)

    def public_view(self, state: SMState) -> dict[str, Any]:
        """What everyone at the table may know."""
        return public_view(state, self.name, self.title)

    def own_view(self, state: SMState, seat: int) -> dict[str, Any]:
        """The seat's hand, its moves and choices, and what was shown or given to it."""
        return own_view(state, seat)

    def outcome(self, state: SMState) -> Outcome | None:
        """Totals and placements once the game is over; a trick-count win places the winner alone first.

        The others follow by their stakes (§6 SM-D30); two with equal stakes share their place. The unfinished
        last hand (SM-D28) breaks no tie: its seats stand at targets of 8, 5 and 3 and a few tricks into it the
        dealer is always further below target than the others, so counting it would favour a seat for its target.
        """
        if state.phase is not Phase.OVER:
            return None
        totals = state.match.totals
        rules = state.options.rules
        if rules.running or rules.calls:
            return Outcome(totals, placements_by(totals))
        winners = state.match.winners
        others = [totals[s] for s in range(N) if s not in winners]
        return Outcome(totals, tuple(
            1 if s in winners else 1 + len(winners) + sum(1 for o in others if o > totals[s]) for s in range(N)))

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
