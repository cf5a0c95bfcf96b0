"""The deal of the day's decisions, pure: days and their close, seeds and hashes, matchpoints, standings, streaks."""

from __future__ import annotations

import hashlib
import hmac
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from engine.service.daily_rules import (
    FORFEIT,
    Entry,
    closes_at,
    counted,
    daily_hash,
    daily_seed,
    day_of,
    is_closed,
    mark_from_sheet,
    mark_of,
    matchpoints,
    mine_first,
    parse_day,
    percent,
    result_line,
    standings,
    streak,
)

DEC_2 = date(2026, 12, 2)
MIDNIGHT = 1_796_169_600.0  # 2026-12-02 00:00 UTC


def test_day_of_a_time_is_its_utc_day_and_closes_at_the_next_midnight() -> None:
    assert day_of(MIDNIGHT) == DEC_2
    assert day_of(MIDNIGHT - 1) == date(2026, 12, 1)
    assert closes_at(DEC_2) == MIDNIGHT + 86_400
    assert not is_closed(DEC_2, MIDNIGHT + 86_399.9) and is_closed(DEC_2, MIDNIGHT + 86_400)


def test_daily_seed_is_the_hmac_of_game_and_date_and_its_hash_the_sha256_of_the_seed() -> None:
    seed = daily_seed(b"secret", "coins", DEC_2)
    assert seed == hmac.new(b"secret", b"coins:2026-12-02", hashlib.sha256).hexdigest()
    assert daily_hash(b"secret", "coins", DEC_2) == hashlib.sha256(seed.encode()).hexdigest()
    assert daily_seed(b"secret", "kings_corner", DEC_2) != seed
    assert daily_seed(b"other", "coins", DEC_2) != seed


def test_parse_day_takes_only_a_real_iso_date() -> None:
    assert parse_day("2026-12-02") == DEC_2
    assert parse_day("2026-02-30") is None and parse_day("yesterday") is None and parse_day("2026-12-2") is None


def test_matchpoints_counts_the_others_beaten_or_tied() -> None:
    assert matchpoints(5, [5]) == 1.0  # alone: the whole field
    assert matchpoints(5, [5, 3, 7, 5]) == 2 / 3  # beat 3, tied 5, lost to 7
    assert matchpoints(7, [5, 3, 7, 5]) == 1.0
    assert matchpoints(3, [5, 3, 7, 5]) == 0.0


@given(st.lists(st.integers(-20, 20), min_size=1, max_size=30))
def test_matchpoints_are_shares_that_never_rank_a_worse_result_higher(marks: list[int]) -> None:
    shares = [matchpoints(m, marks) for m in marks]
    assert all(0.0 <= s <= 1.0 for s in shares)
    assert shares[marks.index(max(marks))] == 1.0
    for a, sa in zip(marks, shares, strict=True):
        for b, sb in zip(marks, shares, strict=True):
            if a < b:
                assert sa < sb
            if a == b:
                assert sa == sb


def test_standings_rank_by_share_ties_share_a_place_and_the_asker_comes_first() -> None:
    rows = standings([Entry(1, "Ann", 4, 10.0), Entry(2, "Bob", 9, 20.0), Entry(3, "Cat", 4, 5.0)])
    assert [(r.place, r.name, r.percent) for r in rows] == [(1, "Bob", 100), (2, "Cat", 50), (2, "Ann", 50)]
    assert [r.name for r in mine_first(rows, 1)] == ["Ann", "Bob", "Cat"]


def test_streak_counts_days_in_a_row_up_to_today_or_yesterday() -> None:
    days = [date(2026, 11, 29), date(2026, 11, 30), date(2026, 12, 1)]
    assert streak(days, DEC_2) == 3  # today not played yet: the run up to yesterday still counts
    assert streak([*days, DEC_2], DEC_2) == 4
    assert streak(days, date(2026, 12, 3)) == 0
    assert streak([date(2026, 11, 28), DEC_2], DEC_2) == 1


def test_mark_is_the_first_hand_for_trick_games_and_the_cards_left_for_kings_in_the_corner() -> None:
    assert mark_of("coins", [{"type": "played"}]) is None
    assert mark_of("coins", [{"type": "hand_over", "hand_no": 1, "scores": [6, 2, 4]}]) == 6
    assert mark_of("coins", [{"type": "hand_over", "hand_no": 2, "scores": [9, 2, 4]}]) is None
    assert mark_of("sergeant_major", [{"type": "hand_over", "hand_no": 1, "results": [-2, 1, 1]}]) == -2
    assert mark_of("kings_corner", [{"type": "finished", "scores": [3, 0]}]) == -3
    # sergeant_major/RULES.md §3.2: twelve tricks end the game mid-hand; the result is the tricks over target then
    won = [{"type": "game_over", "winners": [0]}, {"type": "finished", "scores": [0, 0, 0]}]
    assert mark_of("sergeant_major", won, 0, {"tricks": [12, 1, 0], "targets": [8, 5, 3]}) == 4


def test_result_line_names_game_day_share_and_streak_and_no_card() -> None:
    assert result_line("Coins", DEC_2, 0.734, 3) == "Cardroom · Coins · 2026-12-02 · 73% · 🔥3"
    assert percent(2 / 3) == 66 and percent(1.0) == 100


def test_mark_from_the_score_sheet_once_the_first_hand_is_done() -> None:
    coins = [{"hand_no": 1, "points": [5, 5, 2], "done": True}, {"hand_no": 2, "points": [0, 0, 0], "done": False}]
    assert mark_from_sheet("coins", coins) == 5
    assert mark_from_sheet("coins", [{"hand_no": 1, "points": [3, 0, 0], "done": False}]) is None
    sm = [{"hand_no": 1, "tricks": [10, 4, 2], "targets": [8, 5, 3], "results": [2, -1, -1], "done": True}]
    assert mark_from_sheet("sergeant_major", sm, 1) == -1
    assert mark_from_sheet("kings_corner", [{"hand_no": 1, "done": True}]) is None


def test_a_deal_finished_after_its_day_closed_counts_as_a_forfeit() -> None:
    assert counted(4, DEC_2, MIDNIGHT + 86_399) == 4
    assert counted(4, DEC_2, MIDNIGHT + 86_400) == FORFEIT  # the seed is public from the close on
    assert FORFEIT < -16 * 11  # below any hand's result in any game
