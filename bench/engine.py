"""Engine benchmark: the rules through the Game interface, a long replay, and the table service.

Run: ``python -m bench.engine`` (``--help`` for sizes). Prints figures; asserts nothing.
1. Coins through the public rules interface (``to_act``, ``legal_actions``, ``apply``, ``outcome``
   on the Game object) against the bitmask reference loop of ``bench.coins_reference``: the
   same seeds and the same random choices, run in alternating slices in this one process, so
   the ratio holds on a busy machine; each figure is CPU time (``time.process_time``), the
   median of ``--repeat`` rounds.
2. Sergeant Major and Kings in the Corner through the same interface, moves per second.
3. Replaying a long Sergeant Major game (9-5-3, ``--hands`` hands) from its action log.
4. The table service with SQLite on disk: ``--tables`` concurrent tables of people moving
   flat out, every move durably stored (group commits), reported as stored moves per second.

``--profile GAME`` prints instead the top lines of a cProfile of random play of that game.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.coins_reference import play_game
from engine import games
from engine.core.rules import Action, Game, replay
from engine.service.tables import TableService
from engine.store.database import Store, database_url

COINS_TARGET = 10
MOVE_CAP = 5000


def random_game(game: Game[Any], players: int, seed: str, pick: Callable[[int], int],
                options: Any = None) -> int:
    """One game of uniformly random legal play through the public interface; the number of moves."""
    state = game.new_game(options, players, seed)
    moves = 0
    while game.outcome(state) is None and moves < MOVE_CAP:
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[pick(len(legal))])
        moves += 1
    return moves


def _picker(seed: int) -> Callable[[int], int]:
    rnd = random.Random(seed).random
    return lambda n: int(rnd() * n)


def coins_against_reference(seconds: float, slice_games: int = 40) -> tuple[float, float]:
    """Moves per CPU second of Coins through the interface and of the reference, in alternating slices."""
    game = games.get("coins")
    options = {"target_score": COINS_TARGET}
    spent = [0.0, 0.0]
    moves = [0, 0]
    first = 0
    while spent[0] + spent[1] < seconds:
        seeds = [f"bench-{first + i}" for i in range(slice_games)]
        first += slice_games
        t = time.process_time()
        pick = _picker(first)
        moves[0] += sum(random_game(game, 3, s, pick, options) for s in seeds)
        spent[0] += time.process_time() - t
        t = time.process_time()
        pick = _picker(first)
        moves[1] += sum(play_game(s, COINS_TARGET, pick)[1] for s in seeds)
        spent[1] += time.process_time() - t
    return moves[0] / spent[0], moves[1] / spent[1]


def rules_rate(name: str, seconds: float) -> float:
    """Moves per CPU second of uniformly random play through the public interface."""
    game = games.get(name)
    n = game.max_players if game.min_players == game.max_players else game.min_players
    pick = _picker(7)
    moves = played = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        moves += random_game(game, n, f"bench-{played}", pick)
        played += 1
    return moves / (time.process_time() - start)


LONG_OPTIONS = {"variant": "nine_five_three_single_kitty"}


def long_log(hands: int) -> tuple[str, list[tuple[int, Action]]]:
    """A seed and the log of a 9-5-3 game played at random until hand ``hands`` is over."""
    game = games.get("sergeant_major")
    for attempt in range(1000):
        seed = f"long-{attempt}"
        pick = _picker(attempt)
        state = game.new_game(LONG_OPTIONS, 3, seed)
        log: list[tuple[int, Action]] = []
        while game.outcome(state) is None:
            if state.match.hand_no > hands:
                return seed, log
            (seat,) = game.to_act(state)
            legal = game.legal_actions(state, seat)
            action = legal[pick(len(legal))]
            state, _ = game.apply(state, seat, action)
            log.append((seat, action))
    raise RuntimeError("no seed gave a game that long")


def replay_seconds(seed: str, log: list[tuple[int, Action]]) -> float:
    """CPU seconds to rebuild the state from the log."""
    game = games.get("sergeant_major")
    start = time.process_time()
    replay(game, LONG_OPTIONS, 3, seed, log)
    return time.process_time() - start


def profile(name: str, seconds: float, lines: int) -> str:
    """The top ``lines`` of a cProfile (by own time) of about ``seconds`` of random play of one game."""
    game = games.get(name)
    n = game.max_players if game.min_players == game.max_players else game.min_players
    count = max(1, round(seconds * rules_rate(name, 1.0) / random_game(game, n, "bench-0", _picker(7))))
    profiler = cProfile.Profile()
    pick = _picker(7)
    profiler.enable()
    for played in range(count):  # a fixed number of games: no clock read inside the profile
        random_game(game, n, f"bench-{played}", pick)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(lines)
    return f"{name}: {count} games\n" + out.getvalue()


def rules_figures(seconds: float, repeat: int, hands: int) -> None:
    """Print the rules figures: the Coins ratio, SM and Kings rates, the long replay (medians)."""
    ratios, ours, refs, sm, kings, replays = [], [], [], [], [], []
    seed, log = long_log(hands)
    for _ in range(repeat):
        rate, ref = coins_against_reference(seconds)
        ours.append(rate)
        refs.append(ref)
        ratios.append(rate / ref)
        sm.append(rules_rate("sergeant_major", seconds))
        kings.append(rules_rate("kings_corner", seconds))
        replays.append(replay_seconds(seed, log))
    med = statistics.median
    print(f"rules interface, uniformly random play (CPU time, median of {repeat}):")
    print(f"  coins            {med(ours):10,.0f} moves/s through the Game interface")
    print(f"  coins reference  {med(refs):10,.0f} moves/s bitmask loop (bench.coins_reference)")
    print(f"  coins ratio      {med(ratios):10.3f}  (each round: {', '.join(f'{r:.3f}' for r in ratios)})")
    print(f"  sergeant_major   {med(sm):10,.0f} moves/s")
    print(f"  kings_corner     {med(kings):10,.0f} moves/s  (2 players)")
    print(f"  long replay      {med(replays) * 1000:10,.1f} ms  (9-5-3, {hands} hands, {len(log)} moves)")


async def service_rate(tables: int, moves_per_table: int, url: str) -> tuple[float, int, int]:
    """Stored moves per second with ``tables`` tables of three people moving concurrently."""
    store = Store(url)
    await store.open()
    service = TableService(store)
    await service.start()
    ids = []
    for t in range(tables):
        base = 1000 + 10 * t
        info = await service.create_table("coins", base, "A", {"target_score": 99})
        await service.join(info.id, base + 1, "B")
        await service.join(info.id, base + 2, "C")
        await service.start_game(info.id, base)
        ids.append((info.id, base))
    commits_before = store.writer.commits

    async def drive(table_id: str, base: int) -> int:
        done = 0
        table = service.live(table_id)
        assert table is not None
        while done < moves_per_table and table.row.status == "playing":
            (seat,) = table.game.to_act(table.state)
            legal = table.game.legal_actions(table.state, seat)
            await service.act(table_id, base + seat, legal[0], table.seq)
            done += 1
        return done

    start = time.perf_counter()
    done = sum(await asyncio.gather(*(drive(t, b) for t, b in ids)))
    elapsed = time.perf_counter() - start
    commits = store.writer.commits - commits_before
    await service.close()
    await store.close()
    return done / elapsed, done, commits


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of random play per figure and round")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the median is printed")
    parser.add_argument("--hands", type=int, default=75, help="hands of the long Sergeant Major game")
    parser.add_argument("--profile", choices=games.names(), help="print a profile of one game's random play")
    parser.add_argument("--lines", type=int, default=8, help="profile lines")
    parser.add_argument("--no-service", action="store_true", help="only the rules figures")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60, help="moves per table in the service run")
    parser.add_argument("--database-url", default=None, help="a PostgreSQL URL instead of SQLite")
    args = parser.parse_args()
    if args.profile:
        print(profile(args.profile, args.seconds, args.lines))
        return
    rules_figures(args.seconds, args.repeat, args.hands)
    if args.no_service:
        return
    with tempfile.TemporaryDirectory() as tmp:
        url = database_url(args.database_url, Path(tmp))
        rate, done, commits = asyncio.run(service_rate(args.tables, args.moves, url))
    backend = "PostgreSQL" if args.database_url else "SQLite (WAL, synchronous=FULL)"
    print(f"table service, {args.tables} concurrent tables, {backend}:")
    print(f"  {rate:10,.0f} durably stored moves/s  ({done} moves in {commits} group commits, "
          f"{done / max(commits, 1):.1f} moves per commit)")


if __name__ == "__main__":
    main()
