"""Sergeant Major properties over random legal play in every variant: cards conserved, someone can always
act, replay rebuilds the state, every view's ``played`` is the hand's finished tricks as the public events
showed them, and no hidden card reaches a seat through a view or an event."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.cards import FRENCH
from engine.core.events import Event, for_seat
from engine.core.rules import replay
from engine.games.sergeant_major import GAME, VARIANTS, SMState
from engine.games.sergeant_major.state import Phase

OPTION_SETS: list[dict[str, Any]] = [
    *({"variant": v} for v in VARIANTS),
    {"woburn_first_bid": True, "woburn_max_bleed": True, "kitty_order": "take_then_discard"},
    {"game_end": "all_sixteen", "exchange_ace": "high"},
    {"game_end": "target_plus_five", "first_dealer": "host"},
    {"variant": "alternate", "misere_trump": "dealer_names", "kitty_order": "take_then_discard"},
    {"variant": "six_three_eight", "removed_card": "random_each_hand"},
    {"variant": "nine_five_two", "win_score": 20, "woburn_max_bleed": True},
    {"variant": "three_five_nine_uhs", "game_end": "all_sixteen", "exchange_ace": "high"},
]
CARD_NAMES = frozenset(FRENCH.texts(FRENCH.full))
MOVE_CAP = 220


def card_names(value: Any) -> set[str]:
    """Every card name anywhere in a JSON-ready value, except in the table settings."""
    if isinstance(value, str):
        return {value} & CARD_NAMES
    if isinstance(value, dict):
        return set().union(*(card_names(v) for k, v in value.items() if k != "options"))
    if isinstance(value, list | tuple):
        return set().union(*(card_names(v) for v in value))
    return set()


class FinishedTricks:
    """The finished tricks of the current hand, followed from the public events alone."""

    def __init__(self) -> None:
        self.tricks: list[list[dict[str, Any]]] = []
        self.current: list[dict[str, Any]] = []
        self.winner: int | None = None  # who took the hand's latest finished trick

    def see(self, events: list[Event]) -> None:
        for data in for_seat(events, None):
            if data["type"] == "dealt":  # a new hand: nothing of it is played yet
                self.tricks, self.current, self.winner = [], [], None
            elif data["type"] == "played":
                self.current.append({"seat": data["seat"], "card": data["card"]})
            elif data["type"] == "trick_won":
                assert len(self.current) == 3 and data["seat"] in {t["seat"] for t in self.current}
                self.tricks.append(self.current)
                self.current, self.winner = [], data["seat"]


def assert_played_is_the_finished_tricks(state: SMState, finished: FinishedTricks) -> None:
    """Every seat and a spectator see the same ``played``: the hand's finished tricks, in order."""
    views = [GAME.view(state, seat) for seat in (0, 1, 2, None)]
    for view in views:
        assert view["played"] == finished.tricks
        assert view["trick"] == finished.current
    if state.phase is Phase.PLAY:
        tricks = views[0]["played"]
        assert len(tricks) == views[0]["trick_no"]
        if tricks:
            assert tricks[-1] == views[0]["last_trick"]
        # who took the hand's latest trick, from the events; before the hand's first trick, not said
        assert all(view["last_trick_winner"] == finished.winner for view in views)
        cards = [t["card"] for trick in tricks for t in trick]
        assert len(set(cards)) == len(cards) == 3 * len(tricks)


def played_mask(state: SMState) -> int:
    """The cards of the hand's finished tricks."""
    return sum(1 << card for trick in state.played for _, card in trick)


def assert_cards_conserved(state: SMState) -> None:
    deal = state.deal
    places = [*state.hands, deal.kitty, deal.discards, deal.face_up, deal.removed, played_mask(state),
              *(given for _, _, given in deal.escrow), *(1 << card for _, card in state.trick)]
    seen = 0
    for mask in places:
        assert not seen & mask, "a card is in two places"
        seen |= mask
    assert seen == FRENCH.full, "a card went missing"


def assert_nothing_hidden_leaks(before: SMState, after: SMState, events: list[Event]) -> None:
    # events up to a hand's end belong to the old hand (its last card left the hand in this move)
    kinds = [e.data["type"] for e in events]
    cut = kinds.index("hand_over") + 1 if "hand_over" in kinds else 0
    for seat in (0, 1, 2, None):
        old_hidden = GAME.hidden_cards(before, seat) - card_names([e.data for e in events[:cut]
                                                                  if e.data["type"] == "played"])
        assert not card_names(for_seat(events[:cut], seat)) & old_hidden, f"seat {seat}: hidden card in an event"
        hidden = GAME.hidden_cards(after, seat)
        assert not card_names(for_seat(events[cut:], seat)) & hidden, f"seat {seat}: hidden card in an event"
        view = GAME.view(after, seat)
        json.dumps(view)
        assert not card_names(view) & hidden, f"seat {seat}: hidden card in the view"
        assert ("hand" in view) is (seat is not None)


def random_action(state: SMState, seat: int, rnd: random.Random) -> dict[str, Any]:
    legal = GAME.legal_actions(state, seat)
    assert legal, "a seat to act has no legal action"
    action = dict(rnd.choice(legal))
    choose = GAME.view(state, seat)["choose"]
    if choose is not None and rnd.random() < 0.8:
        action = {"type": choose["type"], "cards": rnd.sample(choose["from"], choose["count"])}
    return action


def play_randomly(options: dict[str, Any], seed: str, rnd: random.Random, cap: int, *, audit: bool) -> SMState:
    state = GAME.new_game(options, 3, seed)
    assert_cards_conserved(state)
    finished = FinishedTricks()
    finished.see(GAME.start_events(state))
    if audit:
        assert_nothing_hidden_leaks(state, state, GAME.start_events(state))
        assert_played_is_the_finished_tricks(state, finished)
    log: list[tuple[int, dict[str, Any]]] = []
    for _ in range(cap):
        if GAME.outcome(state) is not None:
            assert GAME.to_act(state) == frozenset()
            break
        to_act = GAME.to_act(state)
        assert len(to_act) == 1, "one seat acts at a time"
        (seat,) = to_act
        for idle in {0, 1, 2} - to_act:
            assert GAME.legal_actions(state, idle) == []
        action = random_action(state, seat, rnd)
        before = state
        state, events = GAME.apply(state, seat, action)
        log.append((seat, action))
        assert_cards_conserved(state)
        finished.see(events)
        if audit:
            assert_played_is_the_finished_tricks(state, finished)
            json.dumps([e.data for e in events])
            assert_nothing_hidden_leaks(before, state, events)
    assert replay(GAME, options, 3, seed, log) == state
    return state


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(str(v) for v in o.values()))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=8), choices=st.integers(0, 2**32))
def test_random_play_conserves_cards_hides_secrets_and_replays(options: dict[str, Any], seed: str,
                                                               choices: int) -> None:
    play_randomly(options, seed, random.Random(choices), MOVE_CAP, audit=True)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=8), choices=st.integers(0, 2**32))
def test_random_play_alternate_always_ends_after_eighteen_hands(seed: str, choices: int) -> None:
    state = play_randomly({"variant": "alternate"}, seed, random.Random(choices), 18 * 60, audit=False)
    outcome = GAME.outcome(state)
    assert outcome is not None and state.match.hand_no == 18 and len(state.match.history) == 18
    assert all(used == 0b111111 for used in state.match.calls_used)
    assert sum(outcome.scores) == 0


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "alternate"])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=8), choices=st.integers(0, 2**32))
def test_random_play_long_games_keep_invariants(variant: str, seed: str, choices: int) -> None:
    state = play_randomly({"variant": variant}, seed, random.Random(choices), 2500, audit=False)
    if GAME.outcome(state) is None:
        assert state.match.hand_no > 1
    else:
        assert state.match.winners
