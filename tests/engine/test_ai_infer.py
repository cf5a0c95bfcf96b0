"""Soft inference from the play (engine.ai.sergeant_major.infer): a last player who lost to a plain card it
could have beaten, or who did not ruff one, probably lacks those cards; weighted deals still meet every hard
constraint and hold every hand at its size."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai.sergeant_major import EasySergeantMajor
from engine.ai.sergeant_major.infer import likely_lacks, weighted_draw
from engine.ai.sergeant_major.seen import FULL, SUIT_MASK, Sampler, read_view
from engine.core.cards import FRENCH
from engine.games.sergeant_major import GAME as SM


def _in_play(seed: str) -> tuple[Any, dict[str, Any]]:
    """A classic hand 1 after its first trick, played by easy players."""
    state = SM.new_game({"variant": "classic", "first_dealer": "seat:0"}, 3, seed)
    easy = EasySergeantMajor()
    for move in range(40):
        (seat,) = SM.to_act(state)
        view = SM.view(state, seat)
        if view["phase"] == "play" and view.get("played"):
            return state, view
        state, _ = SM.apply(state, seat, easy.choose(view, SM.legal_actions(state, seat), f"{seed}:{move}"))
    raise AssertionError("no trick finished")


def _lacks_after(trick: list[tuple[int, str]], trump: str = "hearts", call: str | None = None) -> list[int]:
    _state, view = _in_play("infer-worked")
    view = {**view, "played": [[{"seat": s, "card": c} for s, c in trick]], "trump": trump, "call": call}
    seen = read_view(view)
    seen.unseen = FULL
    return likely_lacks(view, seen)


def _m(*texts: str) -> int:
    return sum(1 << FRENCH.parse(t) for t in texts)


def test_ai_sm_last_player_that_lost_to_a_plain_card_probably_has_nothing_above_it() -> None:
    lacks = _lacks_after([(0, "10-spades"), (1, "Q-spades"), (2, "3-spades")])
    assert lacks[2] == _m("K-spades", "A-spades") and lacks[0] == lacks[1] == 0


def test_ai_sm_last_player_that_threw_off_instead_of_ruffing_probably_has_no_trump() -> None:
    lacks = _lacks_after([(0, "10-spades"), (1, "Q-spades"), (2, "4-clubs")])
    assert lacks[2] == SUIT_MASK[FRENCH.suits.index("hearts")]


def test_ai_sm_nothing_is_inferred_from_a_trick_won_by_a_trump_or_in_a_misere() -> None:
    assert not any(_lacks_after([(0, "10-spades"), (1, "2-hearts"), (2, "3-spades")]))
    assert not any(_lacks_after([(0, "10-spades"), (1, "Q-spades"), (2, "3-spades")], call="misere"))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_ai_sm_weighted_deals_keep_every_hard_constraint(seed: int) -> None:
    _state, view = _in_play(f"infer:{seed}")
    seen = read_view(view)
    sampler = Sampler(seen)
    draw = weighted_draw(sampler, likely_lacks(view, seen))
    rnd = random.Random(seed).random
    a, b = seen.others
    for _ in range(20):
        hands = draw(rnd).hands
        assert hands[seen.seat] == seen.hand
        for s in (a, b):
            assert hands[s].bit_count() == seen.counts[s]
            assert not hands[s] & seen.not_in[s]
        assert not hands[a] & hands[b]
