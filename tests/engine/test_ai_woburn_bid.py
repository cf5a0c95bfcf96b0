"""Strong's Woburn bid (sergeant_major/RULES.md §5.2.1): it bids only what it expects to make, weighed against
passing, and its bids are always ones the rules accept."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai.sergeant_major import StrongSergeantMajor
from engine.ai.sergeant_major.bid import CAP, expected_tricks, table_targets, woburn_bid
from engine.ai.sergeant_major.seen import read_view
from engine.core.cards import FRENCH
from engine.games.sergeant_major import GAME as SM
from engine.games.sergeant_major.options import WOBURN_TARGETS

WOBURN = {"variant": "classic", "woburn_first_bid": True, "first_dealer": "seat:0"}


def _dealt(first: list[str]) -> Any:
    """A Woburn hand 1 with ``first`` (16 cards) for seat 0, the nominal dealer who speaks first."""
    state = SM.new_game(WOBURN, 3, "woburn-bid")
    mine = sum(1 << FRENCH.parse(t) for t in first)
    rest = [c for c in range(52) if not mine >> c & 1]
    hands = (mine, sum(1 << c for c in rest[0:32:2]), sum(1 << c for c in rest[1:32:2]))
    return replace(state, hands=hands, deal=replace(state.deal, kitty=sum(1 << c for c in rest[32:])))


def _bid_of(state: Any, seed: str = "s") -> dict[str, Any]:
    (seat,) = SM.to_act(state)
    view, legal = SM.view(state, seat), SM.legal_actions(state, seat)
    action = dict(StrongSergeantMajor(playouts=120, seconds=None).choose(view, legal, seed))
    assert action in legal
    return action


def test_ai_sm_strong_bids_a_hand_that_takes_every_trick_and_passes_a_hand_that_takes_none() -> None:
    hearts = [f"{r}-hearts" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")]
    monster = [*hearts, "A-spades", "A-clubs", "A-diamonds"]
    low = [f"{r}-{s}" for s in ("spades", "clubs", "diamonds", "hearts") for r in ("2", "3", "4", "5")]
    assert _bid_of(_dealt(monster)) == {"type": "bid", "tricks": 8}
    assert _bid_of(_dealt(low)) == {"type": "pass"}


@settings(max_examples=60, deadline=None)
@given(st.floats(0, CAP), st.one_of(st.none(), st.floats(-8, 8)), st.integers(8, 16))
def test_ai_sm_strong_bids_exactly_when_it_expects_to_make_it_and_do_no_worse_than_passing(
    raw: float, passing: float | None, low: int,
) -> None:
    state = _dealt([f"{r}-hearts" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")]
                   + ["A-spades", "A-clubs", "A-diamonds"])
    view = SM.view(state, 0)
    holder_counts = passing is not None and low > 8  # a high bid of low - 1 stands, by seat 1
    if holder_counts:
        view = {**view, "bidding": {"by": 1, "high": low - 1}}
    seen = read_view(view)

    def search(_seen: Any, n: int, *_: Any) -> list[float]:
        assert n == (2 if holder_counts else 1)
        return [raw, passing if passing is not None else 0.0][:n]

    legal = [{"type": "bid", "tricks": b} for b in range(low, 17)] + [{"type": "pass"}]
    action = woburn_bid(seen, view, legal, search, lambda *_: None, lambda: 0.5, 0.0, 0.9)  # type: ignore[arg-type]
    expected = expected_tricks(raw) - low >= max(0.0, passing if holder_counts and passing is not None else 0.0)
    assert action == ({"type": "bid", "tricks": low} if expected else {"type": "pass"})


def test_ai_sm_bid_table_targets_add_up_to_sixteen_with_the_dealer_at_the_bid() -> None:
    for bid in WOBURN_TARGETS:
        for dealer in range(3):
            targets = table_targets(dealer, bid)
            assert sum(targets) == 16 and targets[dealer] == bid
