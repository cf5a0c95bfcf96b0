"""The search levels of Sergeant Major and Kings in the Corner: only legal actions in every variant, deals
sampled only where the seat's knowledge allows, and a small fixed-seed tournament against the easy level."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.ai import Tally, play_game
from engine.ai import player_for
from engine.ai.kings_corner import EasyKingsCorner
from engine.ai.kings_corner.easy import Rules, read_board
from engine.ai.kings_corner.seen import read_seen, sample
from engine.ai.kings_corner.strong import judged, plans
from engine.ai.sergeant_major import EasySergeantMajor, StrongSergeantMajor
from engine.ai.sergeant_major.seen import AWAY, SUIT_MASK, WIDTH, Sampler, read_view
from engine.core.cards import FRENCH
from engine.games.kings_corner import GAME as KINGS
from engine.games.kings_corner import position
from engine.games.sergeant_major import GAME as SM

SM_OPTIONS: list[dict[str, Any]] = [
    {"variant": "classic"},
    {"variant": "classic", "woburn_first_bid": True, "kitty_order": "take_then_discard"},
    {"variant": "classic", "exchange_ace": "high", "woburn_max_bleed": True, "game_end": "target_plus_five"},
    {"variant": "alternate"},
    {"variant": "alternate", "misere_trump": "dealer_names"},
    {"variant": "six_three_eight", "removed_card": "random_each_hand"},
    {"variant": "nine_five_two"},
    {"variant": "nine_five_two_variation"},
    {"variant": "three_five_nine_uhs"},
    {"variant": "nine_five_three_single_kitty"},
]
KINGS_OPTIONS: list[dict[str, Any]] = [
    {},
    {"pass_rule": "draw_until_playable"},
    {"king_compulsory": False, "king_on_empty_side": True, "layout_kings": "auto_corner"},
    {"draw_timing": "start", "draw_count": 2, "scoring": "corners"},
    {"scoring": "penalty", "penalty_limit": 25},
]
FAST = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def tiny(player: Any) -> Any:
    """A search player with a budget of a few playouts and no clock."""
    player.playouts = 4
    player.seconds = None
    if hasattr(player, "samples"):
        player.samples = 2
    return player


def assert_accepted(view: dict[str, Any], legal: Sequence[Mapping[str, Any]], action: Mapping[str, Any]) -> None:
    choice = view.get("choose")
    if choice and action not in legal:
        assert action["type"] == choice["type"]
        assert len(set(action["cards"])) == len(action["cards"]) == choice["count"]
        assert set(action["cards"]) <= set(choice["from"])
    else:
        assert action in legal


def sm_moves(options: dict[str, Any], seed: str, players: list[Any], hands: int = 2, cap: int = 160) -> Any:
    """Play a Sergeant Major game from ``seed`` for ``hands`` hands (or ``cap`` moves), checking every action."""
    state = SM.new_game(options, 3, seed)
    for move in range(cap):
        if SM.outcome(state) is not None or state.match.hand_no > hands:
            break
        (seat,) = SM.to_act(state)
        view, legal = SM.view(state, seat), SM.legal_actions(state, seat)
        action = players[seat].choose(view, legal, f"{seed}:{move}")
        assert_accepted(view, legal, action)
        state, _ = SM.apply(state, seat, action)
    return state


@pytest.mark.parametrize("options", SM_OPTIONS, ids=[str(o) for o in SM_OPTIONS])
@FAST
@given(seed=st.integers(0, 10**6))
def test_ai_sm_every_level_plays_only_legal_actions(options: dict[str, Any], seed: int) -> None:
    players = [EasySergeantMajor(), tiny(player_for("sergeant_major", "strong")),
               tiny(player_for("sergeant_major", "expert"))]
    rot = seed % 3
    sm_moves(options, f"legal:{seed}", players[rot:] + players[:rot], hands=2, cap=70)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", KINGS_OPTIONS, ids=[str(o) for o in KINGS_OPTIONS])
@FAST
@given(seed=st.integers(0, 10**6))
def test_ai_kings_every_level_plays_only_legal_actions(options: dict[str, Any], players: int, seed: int) -> None:
    levels = ["easy", "strong", "expert", "strong"]
    seats = [tiny(p) if hasattr(p, "playouts") else p
             for p in (player_for("kings_corner", levels[(seed + s) % 4]) for s in range(players))]
    state = KINGS.new_game(options, players, f"legal:{seed}")
    for move in range(120):
        if KINGS.outcome(state) is not None:
            break
        (seat,) = KINGS.to_act(state)
        view, legal = KINGS.view(state, seat), KINGS.legal_actions(state, seat)
        action = seats[seat].choose(view, legal, f"{seed}:{move}")
        assert action in legal
        state, _ = KINGS.apply(state, seat, action)


def _random_position(variant_index: int, seed: int, moves: int) -> Any:
    """A Sergeant Major position reached by easy players after ``moves`` moves (hand 2 has exchanges)."""
    options = SM_OPTIONS[variant_index]
    state = SM.new_game(options, 3, f"pos:{seed}")
    easy = EasySergeantMajor()
    for move in range(moves):
        if SM.outcome(state) is not None:
            break
        (seat,) = SM.to_act(state)
        state, _ = SM.apply(state, seat, easy.choose(SM.view(state, seat), SM.legal_actions(state, seat), str(move)))
    return state


@settings(max_examples=25, deadline=None)
@given(variant=st.integers(0, len(SM_OPTIONS) - 1), seed=st.integers(0, 10**6), moves=st.integers(0, 160))
def test_ai_sm_samples_never_put_a_card_where_the_seat_knows_it_is_not(variant: int, seed: int, moves: int) -> None:
    state = _random_position(variant, seed, moves)
    if SM.outcome(state) is not None:
        return
    (seat,) = SM.to_act(state)
    view = SM.view(state, seat)
    seen = read_view(view)
    hidden = 0
    for text in SM.hidden_cards(state, seat):
        hidden |= 1 << FRENCH.parse(text)
    a, b = seen.others
    # The knowledge is sound: the real deal agrees with it.
    assert not state.hands[seat] & seen.unseen
    assert not hidden & ~seen.unseen
    assert not (state.hands[a] | state.hands[b]) & ~seen.unseen
    for other in (a, b):
        assert not state.hands[other] & seen.not_in[other], (other, view)
    assert not seen.not_away & ~(state.hands[a] | state.hands[b])
    # Every card of the hand's finished tricks is counted out of play.
    played = [FRENCH.parse(item["card"]) for trick in view["played"] for item in trick]
    assert not seen.unseen & sum(1 << card for card in played)
    # A seat that did not follow suit in a trick of this hand holds none of that suit.
    for trick in (view["trick"], *view["played"]):
        led = FRENCH.parse(trick[0]["card"]) // WIDTH if trick else -1
        for item in trick[1:]:
            if FRENCH.parse(item["card"]) // WIDTH != led and item["seat"] != seat:
                assert seen.not_in[item["seat"]] & SUIT_MASK[led] == seen.unseen & SUIT_MASK[led]
    # Every sample keeps to it.
    sampler = Sampler(seen)
    draws = iter([(i * 0.6180339887 + seed * 1e-6) % 1.0 for i in range(100_000)])
    for _ in range(5):
        sample = sampler.sample(lambda: next(draws))
        assert sample.hands[seat] == state.hands[seat]
        assert [sample.hands[o].bit_count() for o in (a, b)] == [state.hands[o].bit_count() for o in (a, b)]
        away = sum(1 << c for c in sample.away)
        assert len(sample.away) == seen.away_count()
        assert sample.hands[a] | sample.hands[b] | away == seen.unseen
        assert not sample.hands[a] & sample.hands[b] and not (sample.hands[a] | sample.hands[b]) & away
        for other in (a, b):
            assert not sample.hands[other] & seen.not_in[other]
        assert not away & seen.not_away
    assert AWAY == 2


def _kings_position(variant_index: int, players: int, seed: int, moves: int) -> Any:
    """A Kings in the Corner position reached by easy players after ``moves`` moves."""
    state = KINGS.new_game(KINGS_OPTIONS[variant_index], players, f"pos:{seed}")
    easy = EasyKingsCorner()
    for move in range(moves):
        if KINGS.outcome(state) is not None:
            break
        (seat,) = KINGS.to_act(state)
        view = KINGS.view(state, seat)
        state, _ = KINGS.apply(state, seat, easy.choose(view, KINGS.legal_actions(state, seat), str(move)))
    return state


KINGS_POSITIONS = {"variant": st.integers(0, len(KINGS_OPTIONS) - 1), "players": st.integers(2, 4),
                   "seed": st.integers(0, 10**6), "moves": st.integers(0, 150)}


def _kings_turn(variant: int, players: int, seed: int, moves: int) -> tuple[Any, int, dict[str, Any]] | None:
    """A random position reached by easy players, the seat to act and its view (None once the game is over)."""
    state = _kings_position(variant, players, seed, moves)
    if KINGS.outcome(state) is not None:
        return None
    (seat,) = KINGS.to_act(state)
    return state, seat, KINGS.view(state, seat)


@settings(max_examples=40, deadline=None)
@given(**KINGS_POSITIONS)
def test_ai_kings_samples_never_put_a_card_where_the_seat_knows_it_is_not(
    variant: int, players: int, seed: int, moves: int,
) -> None:
    turn = _kings_turn(variant, players, seed, moves)
    if turn is None:
        return
    state, seat, view = turn
    piles, hand = read_board(view)
    seen = read_seen(view, piles, hand, Rules(view["options"]))
    others = [q for q in range(players) if q != seat]
    # The knowledge is sound against easy players: every hidden card is in the pool, and each hand
    # holds barred cards only among its latest draws.
    stock = sum(1 << c for c in state.stock)
    assert not hand & seen.pool
    assert not (stock | sum(state.hands[q] for q in others)) & ~seen.pool
    for q in others:
        assert (state.hands[q] & seen.barred[q]).bit_count() <= seen.free[q], (q, view["recent"])
    draws = iter([(i * 0.6180339887 + seed * 1e-6) % 1.0 for i in range(100_000)])
    for _ in range(5):
        hands, dealt = sample(seen, lambda: next(draws))
        assert hands[seat] == 0 and len(dealt) == len(state.stock) == len(set(dealt))
        used = sum(1 << c for c in dealt)
        for q in others:
            assert hands[q].bit_count() == state.hands[q].bit_count()
            assert not hands[q] & used
            assert (hands[q] & seen.barred[q]).bit_count() <= seen.free[q]
            used |= hands[q]
        assert not used & ~seen.pool


@settings(max_examples=30, deadline=None)
@given(**KINGS_POSITIONS)
def test_ai_kings_judged_plans_lead_with_the_best_of_each_number_of_cards_played(
    variant: int, players: int, seed: int, moves: int,
) -> None:
    turn = _kings_turn(variant, players, seed, moves)
    if turn is None:
        return
    _, _, view = turn
    piles, hand = read_board(view)
    found = plans(piles, hand, Rules(view["options"]))
    order = judged(found)
    counts = {plan.played for plan in found}
    head = order[: len(counts)]
    # Every plan once; first one per number of cards played, each the best of its count by the easy score.
    assert sorted(map(id, order)) == sorted(map(id, found))
    assert {plan.played for plan in head} == counts
    for plan in head:
        assert plan.easy == max(p.easy for p in found if p.played == plan.played)
    assert [p.easy for p in head] == sorted((p.easy for p in head), reverse=True)


def test_ai_kings_strong_judges_stopping_even_when_many_turns_play_more() -> None:
    # Four builds are open (the 8 of Hearts or Diamonds on the 9 of Spades or Clubs, the 5 of Clubs on the
    # 6 of Hearts, the 2 of Spades on the 3 of Diamonds): more than eight ways to play some of them
    # rank above stopping by the easy score, yet stopping (nothing played) is among the judged few.
    state = position(2, hands=[["8-hearts", "8-diamonds", "5-clubs", "2-spades", "Q-hearts"], ["3-hearts"]],
                     piles={"N": ["9-spades"], "E": ["9-clubs"], "S": ["6-hearts"], "W": ["3-diamonds"]},
                     stock=["4-clubs", "A-hearts"])
    view = KINGS.view(state, 0)
    piles, hand = read_board(view)
    found = plans(piles, hand, Rules(view["options"]))
    stop = [i for i, plan in enumerate(found) if plan.first is None]
    assert stop and stop[0] >= 8
    assert any(plan.first is None for plan in judged(found)[:8])


def test_ai_kings_reads_that_the_last_player_kept_no_card_it_could_play() -> None:
    # Seat 1 built the 8 of Hearts on the 9 of Spades and drew one card: besides that card it holds
    # nothing that fits on the board it left (a red 7 on the 8 of Clubs, a black 7 on the 8 of Hearts).
    state = position(2, hands=[["2-clubs", "5-hearts"], ["8-hearts", "3-spades", "4-hearts"]],
                     piles={"N": ["9-spades"], "E": ["8-clubs"], "S": ["J-clubs"], "W": ["6-diamonds"]},
                     stock=["Q-hearts", "A-clubs", "7-spades", "7-hearts"], turn=1)
    state, _ = KINGS.apply(state, 1, {"type": "build", "card": "8-hearts", "space": "N"})
    state, _ = KINGS.apply(state, 1, {"type": "end_turn"})
    view = KINGS.view(state, 0)
    piles, hand = read_board(view)
    seen = read_seen(view, piles, hand, Rules(view["options"]))
    barred = set(FRENCH.texts(seen.barred[1]))
    assert {"7-hearts", "7-diamonds", "7-clubs", "7-spades", "10-hearts", "10-diamonds"} <= barred
    assert "3-spades" not in barred and "4-hearts" not in barred
    assert seen.free[1] == 1 and seen.barred[0] == 0


def test_ai_sm_strong_finds_the_only_winning_card() -> None:
    # Trump Hearts, seat 0 plays last to the 10 and Q of Spades; only the K of Spades takes the trick.
    view = {"seat": 0, "variant": "classic", "phase": "play", "dealer": 0, "hand": ["K-spades", "2-spades"],
            "trump": "hearts", "call": None, "targets": [8, 5, 3], "tricks": [7, 4, 3], "trick_no": 14,
            "tricks_per_hand": 16, "trick": [{"seat": 1, "card": "10-spades"}, {"seat": 2, "card": "Q-spades"}],
            "last_trick": [], "hand_counts": [2, 1, 1], "kitty_count": 0, "discard_count": 4, "options": {}}
    legal = [{"type": "play", "card": "2-spades"}, {"type": "play", "card": "K-spades"}]
    assert StrongSergeantMajor(playouts=40, seconds=None).choose(view, legal, "w") == legal[1]


def test_ai_sm_strong_is_deterministic_for_a_seed_and_budget() -> None:
    state = _random_position(0, 5, 40)
    (seat,) = SM.to_act(state)
    view, legal = SM.view(state, seat), SM.legal_actions(state, seat)
    picks = {str(StrongSergeantMajor(playouts=60, seconds=None).choose(view, legal, "same")) for _ in range(3)}
    assert len(picks) == 1


SMOKE = [  # game, table size, options, deals (each played once per seat), playouts of the strong player
    ("coins", 3, {"first_dealer": "seat:0"}, 8, 200),
    ("sergeant_major", 3, {"variant": "classic", "first_dealer": "seat:0"}, 8, 64),
    ("kings_corner", 2, {"first_dealer": "seat:0"}, 12, 128),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "size", "options", "deals", "playouts"), SMOKE, ids=[g for g, *_ in SMOKE])
def test_ai_strong_beats_easy_in_a_fixed_seed_smoke_tournament(
    game: str, size: int, options: dict[str, Any], deals: int, playouts: int
) -> None:
    """The bench's own tournament, small and without a clock: strong in each seat of every deal in turn.

    Easy against easy wins one game in ``size`` on the same deals; strong must win clearly more
    (measured at full budget: 70-76 %; here, with a small budget, 58-71 %).
    """
    total = Tally()
    for deal in range(deals):
        for rot in range(size):
            total.add(play_game((game, "strong", "easy", f"smoke:{game}:{deal}", rot, size, options, playouts, True)))
    assert total.games == deals * size
    par = 1 / size
    assert total.wins / total.games >= par + 0.15, (total.wins, total.games)
