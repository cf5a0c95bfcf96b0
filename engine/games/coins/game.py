"""The Coins ruleset object: the Game interface over the rules modules (RULES.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import snapshots
from engine.core.cards import Card
from engine.core.errors import BadOptions, MalformedAction, RefusalCode
from engine.core.events import Event
from engine.core.rules import Replays, SplitViews
from engine.core.seats import first_dealer
from engine.core.settings import parse_options
from engine.games.coins import phases, view
from engine.games.coins.deal import deal_hands, dealt_events
from engine.games.coins.options import SETTINGS, CoinsOptions
from engine.games.coins.state import CREDIT, DECK, CoinsState, N, Phase

_TURN_SETS = tuple(frozenset((seat,)) for seat in range(N))
_NOBODY: frozenset[int] = frozenset()


def trick_winner(cards: list[str]) -> int:
    """The index (0..2, in play order) of the card that wins a trick of three cards."""
    if len(cards) != 3:
        raise MalformedAction(RefusalCode.TRICK_NOT_THREE, count=len(cards))
    parsed: list[Card] = [DECK.parse(c) for c in cards]
    if len(set(parsed)) != 3:
        raise MalformedAction(RefusalCode.TRICK_REPEATS_CARD)
    return phases.winner_index(parsed)


class Coins(SplitViews, Replays):
    """The Coins ruleset (RULES.md)."""

    name = view.NAME
    title = view.TITLE
    credit = CREDIT
    min_players = N
    max_players = N
    multi_action_turns = False  # every action is a turn of its own
    settings = SETTINGS

    def parse_options(self, raw: Mapping[str, Any] | CoinsOptions | None) -> CoinsOptions:
        """Validated options; raises BadOptions."""
        return parse_options(CoinsOptions, SETTINGS, raw)

    def new_game(self, options: Mapping[str, Any] | CoinsOptions | None, players: int, seed: str) -> CoinsState:
        """Hand 1 dealt (RULES.md §3.2 SETUP, DEAL)."""
        opts = self.parse_options(options)
        if players != N:
            raise BadOptions(RefusalCode.PLAYER_COUNT_FIXED, game=self.title, count=N, players=repr(players))
        dealer = first_dealer(opts.first_dealer, N, seed)
        return CoinsState(
            opts, seed, Phase.PLAY, 1, dealer, deal_hands(seed, 1, dealer), (), (dealer + 1) % N, 1,
            (0, 0, 0), (0, 0, 0), (), None,
        )

    def start_events(self, state: CoinsState) -> list[Event]:
        """The events that announce the first deal."""
        return dealt_events(state)

    def to_act(self, state: CoinsState) -> frozenset[int]:
        """The seat whose turn it is."""
        return _NOBODY if state.phase is Phase.OVER else _TURN_SETS[state.turn]

    # the rules functions themselves (phases.py)
    legal_actions = staticmethod(phases.legal_actions)
    apply = staticmethod(phases.apply)
    outcome = staticmethod(view.outcome)

    def public_view(self, state: CoinsState) -> dict[str, Any]:
        """The trick, counts and scores (RULES.md §3.4)."""
        return view.public_view(state)

    def own_view(self, state: CoinsState, seat: int) -> dict[str, Any]:
        """The seat's own hand and the cards it may play."""
        return view.own_view(state, seat)

    def memory(self, state: CoinsState, seat: int) -> dict[str, Any]:
        """The cards played in this hand's finished tricks, which the view no longer shows (RULES.md D11)."""
        return view.memory(state)

    def hidden_cards(self, state: CoinsState, seat: int | None) -> frozenset[str]:
        """The cards in the other seats' hands."""
        return view.hidden_cards(state, seat)

    def snapshot(self, state: CoinsState) -> dict[str, Any]:
        """The state as JSON-ready data for the store (hidden cards included: never for a view)."""
        return snapshots.snapshot(self.name, state)

    def restore(self, options: Mapping[str, Any] | CoinsOptions | None, players: int, seed: str,
                data: Mapping[str, Any]) -> CoinsState:
        """The state ``snapshot`` wrote, at a table of these options, players and seed; raises BadSnapshot."""
        snapshots.check_players(N, players, self.title)
        return snapshots.restore(self.name, CoinsState, data, self.parse_options(options), seed)


GAME = Coins()
