"""The rating people see: 1500 for a newcomer on a chess-like scale, never negative, provisional at first, and a
result's change always has the result's sign (a last place never shows a rise, a first place never a fall)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import DAILY_LEVEL
from engine.service import ratings
from engine.service.rating_scale import PROVISIONAL_GAMES, Shown, shown
from engine.store.rows import Skill

PEOPLE = (1, 2, 3, 4)


def test_a_newcomer_sees_1500_marked_provisional() -> None:
    start = shown(ratings.kept(None), 0)
    assert start == Shown(1500, True) and start.text() == "1500?"
    assert ratings.START[0] == 25.0  # openskill's newcomer is the scale's


def test_the_scale_is_thirty_points_per_mu_in_whole_points() -> None:
    assert shown(26.0, 12).rating == 1530 and shown(24.0, 12).rating == 1470
    assert shown(20.0, 12).rating == 1350 and shown(27.0, 12).rating == 1560  # the easy and the strong AI
    assert shown(25.0 + 1 / 60, 12).rating == 1500 and shown(25.0 + 1 / 30 + 1e-9, 12).rating == 1501


def test_two_players_400_points_apart_have_about_chess_odds() -> None:
    # Plackett-Luce with known skills (sigma 0): the stronger finishes ahead with logistic(d / c), c = sqrt(2) * beta
    c = math.sqrt(2) * ratings.MODEL.beta
    mu_gap = 400 / 30
    chance = 1 / (1 + math.exp(-mu_gap / c))
    assert abs(chance - 10 / 11) < 0.01  # Elo: 400 points are 10-to-1


def test_no_rating_shown_is_negative() -> None:
    assert shown(-25.0, 3) == Shown(0, True)
    assert shown(-1000.0, 50) == Shown(0, False)
    assert shown(-24.99, 50).rating == 0 and shown(-24.9, 50).rating == 3


def test_the_mark_comes_off_after_the_tenth_game() -> None:
    assert PROVISIONAL_GAMES == 10
    assert [shown(25.0, g).provisional for g in (0, 1, 9, 10, 11)] == [True, True, True, False, False]
    assert shown(28.0, 10).text() == "1590"


def test_a_newcomer_last_in_a_first_game_drops_below_1500_and_stays_provisional() -> None:
    after = ratings.rate([(1, ""), (None, "easy"), (None, "strong")], [3, 1, 2], {})
    seen = shown(ratings.kept(after[1]), 1)
    assert 0 < seen.rating < 1500 and seen.provisional and seen.text().endswith("?")


def test_a_shared_last_place_never_rises_even_beside_a_much_stronger_player() -> None:
    # a weak player level last with a strong one: Plackett-Luce alone would raise the weak one's mu
    current: dict[int, Skill] = {1: (10.0, 3.0), 2: (40.0, 3.0)}
    after = ratings.rate([(1, ""), (2, ""), (None, "strong")], [2, 2, 1], current)
    assert after[1][0] == 10.0 and after[2][0] < 40.0
    # a game everyone tied moves nobody's mu (each is first and last at once); sigma still narrows
    level = ratings.rate([(1, ""), (2, "")], [1, 1], current)
    assert level[1][0] == 10.0 and level[2][0] == 40.0 and level[1][1] < 3.0


def test_the_deal_of_the_days_ai_is_rated_as_the_strong_player_it_is() -> None:
    assert ratings.AI_SKILL[DAILY_LEVEL] == ratings.AI_SKILL["strong"]  # not as easy, the fallback for a level


LEVELS = st.sampled_from(["easy", "strong", "expert", DAILY_LEVEL])


@st.composite
def game(draw: st.DrawFn) -> tuple[list[tuple[int | None, str]], list[int]]:
    """One table: two to four seats, at least one person, each person once; placements with any ties."""
    size = draw(st.integers(2, 4))
    people = draw(st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=size, unique=True))
    seats: list[tuple[int | None, str]] = [(p, "") for p in people]
    seats += [(None, draw(LEVELS)) for _ in range(size - len(people))]
    seats = draw(st.permutations(seats))
    placements = draw(st.lists(st.integers(1, size), min_size=size, max_size=size))
    # placements as the rules give them: the best is 1, and a place after a tie skips (1, 1, 3)
    ranked = [1 + sum(q < p for q in placements) for p in placements]
    return list(seats), ranked


@settings(max_examples=300, deadline=None)
@given(st.lists(game(), min_size=1, max_size=25))
def test_a_last_place_never_raises_the_shown_rating_and_a_first_place_never_lowers_it(
    games: list[tuple[list[tuple[int | None, str]], list[int]]],
) -> None:
    current: dict[int, Skill] = {}
    played: dict[int, int] = {}
    for seats, placements in games:
        fresh = ratings.rate(seats, placements, current)
        for (user, _), placement in zip(seats, placements, strict=True):
            if user is None:
                continue
            before = shown(ratings.kept(current.get(user)), played.get(user, 0))
            after = shown(ratings.kept(fresh[user]), played.get(user, 0) + 1)
            assert after.rating >= 0
            if placement == max(placements):
                assert after.rating <= before.rating, (seats, placements, before, after)
            if placement == min(placements):
                assert after.rating >= before.rating, (seats, placements, before, after)
        current.update(fresh)
        for user in fresh:
            played[user] = played.get(user, 0) + 1


@settings(max_examples=200, deadline=None)
@given(st.lists(game(), min_size=1, max_size=25))
def test_openskill_alone_never_raises_a_sole_last_place_nor_lowers_a_sole_first(
    games: list[tuple[list[tuple[int | None, str]], list[int]]],
) -> None:
    """The model itself, with no guard: a place of one's own moves mu only the result's way."""
    current: dict[int, tuple[float, float]] = {}
    for seats, placements in games:
        teams = [[ratings.MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in (
            ratings.AI_SKILL[level] if user is None else current.get(user, ratings.START) for user, level in seats)]
        rated = ratings.MODEL.rate(teams, ranks=[float(p) for p in placements])
        for (user, _), placement, team, old in zip(seats, placements, rated, teams, strict=True):
            if user is None:
                continue
            alone = placements.count(placement) == 1
            if alone and placement == max(placements):
                assert team[0].mu <= old[0].mu + 1e-12
            if alone and placement == min(placements):
                assert team[0].mu >= old[0].mu - 1e-12
            current[user] = (team[0].mu, team[0].sigma)
