"""Ratings by hand: an update worked out from the Plackett-Luce formulas, the AI levels' weight, the rebuild command."""

from __future__ import annotations

import asyncio
import math
import os
import sys
from pathlib import Path

import pytest

from engine.service import ratings
from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.service.helpers import ANN, BOB, CAT, finished_game

# Weng & Lin (2011), "A Bayesian approximation method for online ranking", Algorithm 4 (Plackett-Luce), with
# openskill's defaults: beta = sigma0 / 2 = 25/6, the additive dynamics factor tau = 25/300 (added to every
# variance before the update), gamma_i = sigma_i / c, and kappa = 0.0001 as the floor of the variance factor.
BETA, TAU, KAPPA = 25 / 6, 25 / 300, 1e-4


def plackett_luce(players: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """Every player's (mu, sigma) after one game, from the paper's formulas (one player per team)."""
    variances = [sigma * sigma + TAU * TAU for _, sigma in players]
    c = math.sqrt(sum(v + BETA * BETA for v in variances))
    strength = [math.exp(mu / c) for mu, _ in players]
    n = len(players)
    # C_q: the players placed level with or below q; A_q: how many share q's place
    below = [sum(strength[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    level = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    updated = []
    for i, (mu, _) in enumerate(players):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = strength[i] / below[q]  # the chance i comes first among those from q's place down
                omega += ((1 - p) if q == i else -p) / level[q]
                delta += p * (1 - p) / level[q]
        gamma = math.sqrt(variances[i]) / c
        updated.append((mu + variances[i] / c * omega,
                        math.sqrt(variances[i] * max(1 - gamma * variances[i] / c ** 2 * delta, KAPPA))))
    return updated


def test_the_formulas_agree_with_a_first_game_worked_through_by_hand() -> None:
    # Three newcomers (25, 25/3), placed 2, 1, 3. Every strength is alike, so each chance is one over the field
    # left: 1/3 from the winner's place down, 1/2 from second place down, 1 for the last alone.
    s2 = (25 / 3) ** 2 + TAU ** 2
    c = math.sqrt(3 * (s2 + BETA ** 2))
    # the winner (rank 1) meets only its own place: omega = 1 - 1/3, delta = 1/3 * 2/3
    # second: omega = -1/3 (the winner's place) + (1 - 1/2) (its own); delta = 2/9 + 1/4
    # last: omega = -1/3 - 1/2 + (1 - 1) = -5/6; delta = 2/9 + 1/4 + 0
    by_hand = [(25 + s2 / c * omega, math.sqrt(s2 * (1 - math.sqrt(s2) / c * s2 / c ** 2 * delta)))
               for omega, delta in ((1 / 6, 2 / 9 + 1 / 4), (2 / 3, 2 / 9), (-5 / 6, 2 / 9 + 1 / 4))]
    for formulas, hand in zip(plackett_luce([(25.0, 25 / 3)] * 3, [2, 1, 3]), by_hand, strict=True):
        assert formulas == pytest.approx(hand)
    assert by_hand[1][0] == pytest.approx(27.869, abs=1e-3) and by_hand[2][0] == pytest.approx(21.414, abs=1e-3)


def test_a_rating_update_equals_the_formulas_worked_out_independently() -> None:
    # Ann (a regular: 28, 4) comes second behind the strong AI and ahead of Bob (a newcomer)
    current = {ANN: (28.0, 4.0)}
    fresh = ratings.rate([(ANN, ""), (None, "strong"), (BOB, "")], [2, 1, 3], current)
    strong = ratings.AI_SKILL["strong"]
    expected = plackett_luce([(28.0, 4.0), strong, ratings.START], [2, 1, 3])
    assert set(fresh) == {ANN, BOB}  # the AI's rating is fixed: it is never updated
    assert fresh[ANN] == pytest.approx(expected[0], rel=1e-12) and fresh[BOB] == pytest.approx(expected[2], rel=1e-12)


async def test_a_finished_games_stored_ratings_equal_the_formulas(service: TableService) -> None:
    table_id = await finished_game(service, -1, ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")))
    result = (await service.info(table_id)).result
    assert result is not None
    expected = plackett_luce([ratings.START] * 3, result["placements"])
    stored = await service.store.records.ratings_of("coins")
    for seat, user in enumerate((ANN, BOB, CAT)):
        assert stored[user][:2] == pytest.approx(expected[seat], rel=1e-12)


def test_beating_the_strong_ai_gains_more_than_beating_the_easy_one() -> None:
    gains = {}
    for level in ("easy", "strong", "expert"):
        fresh = ratings.rate([(ANN, ""), (None, level), (None, level)], [1, 2, 3], {})
        gains[level] = fresh[ANN][0] - ratings.START[0]
    assert 0 < gains["easy"] < gains["strong"] == gains["expert"]  # a seat stored at expert plays as strong
    losses = {level: ratings.rate([(ANN, ""), (None, level), (None, level)], [3, 1, 2], {})[ANN][0]
              for level in ("easy", "strong")}
    assert losses["easy"] < losses["strong"] < ratings.START[0]  # losing to the easy AI costs more


async def test_the_rebuild_command_restores_the_ratings_of_a_sqlite_database(tmp_path: Path) -> None:
    store = Store(database_url(None, tmp_path))
    await store.open()
    service = TableService(store, ai_delay=0.0, heal_every=None)
    await service.start()
    try:
        await finished_game(service, -1, ((ANN, "Ann"), (BOB, "Bob"), (CAT, "Cat")))
        await finished_game(service, -1, ((BOB, "Bob"), (CAT, "Cat")))
        kept = await store.records.ratings_of("coins")
        await store.records.replace_ratings("coins", {ANN: (1.0, 1.0, 9, 9)}, 0.0)  # lost or damaged
    finally:
        await service.close()
        await store.close()
    env = {**os.environ, "DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "engine.cli", "ratings", "--rebuild", env=env,
                                                   stdout=asyncio.subprocess.PIPE)
    printed, _ = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode == 0 and "Coins: 2 finished games rated" in printed.decode()
    store = Store(database_url(None, tmp_path))
    await store.open()
    try:
        rebuilt = await store.records.ratings_of("coins")
    finally:
        await store.close()
    assert set(rebuilt) == set(kept) == {ANN, BOB, CAT}
    for user, (mu, sigma, games, wins) in kept.items():
        assert rebuilt[user][:2] == pytest.approx((mu, sigma)) and rebuilt[user][2:] == (games, wins)
