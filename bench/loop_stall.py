"""How long AI thinking holds the table service's event loop: Sergeant Major tables of strong players.

Starts the table service over a SQLite file in a temp dir, seats strong AI players in every seat of
``--tables`` Sergeant Major tables (so hands 2 on have gives, and every hand a kitty discard), and lets them
play for ``--seconds`` while a heartbeat task sleeps 5 ms at a time on the same loop: the longest gap past
its sleep is the longest stall any socket or table of that process would have suffered, and the loop thread's
own CPU within one beat tells what the process itself held the loop for (on a shared machine the wall gap also
counts time the process was not scheduled at all). Also printed: each
phase's longest decision made on the loop itself (CPU of ``choose`` in the service's process) and how many
decisions went to the worker process.

``--rule count`` puts back the service's earlier rule (think in the worker only when more than one action
is listed, so the give and the discard, which list one canonical action, searched on the loop) for a
before/after comparison.

    python -m bench.loop_stall --tables 4 --seconds 60
    python -m bench.loop_stall --tables 4 --seconds 60 --rule count
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import engine.service.autoplay as autoplay_module
from engine.service.autoplay import Autoplay
from engine.service.tables import TableService
from engine.store.database import Store, database_url

BEAT = 0.005
WARM = 3.0


def _quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


async def run(tables: int, seconds: float, rule: str, options: dict[str, Any]) -> int:
    """Play the tables for a while and print the loop's stalls."""
    inline: dict[str, list[float]] = {}

    real_think = Autoplay.think

    async def timed_think(self: Autoplay, game: str, level: str, view: dict[str, Any],
                          legal: Sequence[Mapping[str, Any]], seed: str) -> dict[str, Any]:
        pooled, t0 = self.pooled, time.process_time()
        action = await real_think(self, game, level, view, legal, seed)
        if self.pooled == pooled:  # decided on the loop: no await in between, so this CPU is the loop's
            inline.setdefault(str(view.get("phase")), []).append(time.process_time() - t0)
        return action

    setattr(Autoplay, "think", timed_think)  # noqa: B010 - the bench times what the service runs
    if rule == "count":
        def by_count(game: str, level: str, view: dict[str, Any], legal: Sequence[Mapping[str, Any]]) -> bool:
            return level != "easy" and len(legal) > 1
        setattr(autoplay_module, "is_costly", by_count)  # noqa: B010
    with tempfile.TemporaryDirectory(prefix="cardroom-stall-") as tmp:
        store = Store(database_url(None, Path(tmp)))
        await store.open()
        service = TableService(store, ai_delay=0.0, heal_every=None)
        await service.start()
        gaps: list[float] = []
        busy: list[float] = []  # the loop thread's own CPU within each gap (a loaded machine adds wall time only)
        stop = asyncio.Event()

        async def heartbeat() -> None:
            while not stop.is_set():
                t0, c0 = time.perf_counter(), time.thread_time()
                await asyncio.sleep(BEAT)
                gaps.append(time.perf_counter() - t0 - BEAT)
                busy.append(time.thread_time() - c0)

        async def table(i: int) -> None:
            info = await service.create_table("sergeant_major", 0, "Bench", {**options, "ai_level": "strong"},
                                              seed=f"stall:{i}")
            live = service.live(info.id)
            assert live is not None
            live.row.seats[0].is_ai = True
            await service.start_game(info.id, 0)

        started = time.perf_counter()
        await asyncio.gather(*(table(i) for i in range(tables)))
        await asyncio.sleep(WARM)  # the worker process starts (once) before the heartbeat counts
        beat = asyncio.create_task(heartbeat())
        await asyncio.sleep(seconds)
        stop.set()
        await beat
        await service.close()
        await store.close()
    elapsed = time.perf_counter() - started
    print(f"rule {rule!r}: {tables} Sergeant Major tables of strong players, {elapsed:.0f} s, "
          f"{service.autoplay.pooled} decisions thought in the worker")
    print(f"  event-loop stall past a {BEAT * 1000:.0f} ms heartbeat: max {max(gaps) * 1000:.1f} ms, "
          f"p99 {_quantile(gaps, 0.99) * 1000:.1f} ms, p50 {_quantile(gaps, 0.5) * 1000:.1f} ms ({len(gaps)} beats)")
    print(f"  the loop thread's own CPU within one heartbeat: max {max(busy) * 1000:.1f} ms, "
          f"p99 {_quantile(busy, 0.99) * 1000:.1f} ms (the rest of a stall is the machine's other load)")
    for phase in sorted(inline):
        times = inline[phase]
        print(f"  decided on the loop, {phase:9}: {len(times):5} decisions, max {max(times) * 1000:6.1f} ms CPU, "
              f"p95 {_quantile(times, 0.95) * 1000:6.1f} ms")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rule", choices=("cost", "count"), default="cost",
                        help="cost: the player says which decisions search (now); count: more than one action listed")
    parser.add_argument("--variant", default="classic")
    args = parser.parse_args(argv)
    return asyncio.run(run(args.tables, args.seconds, args.rule, {"variant": args.variant}))


if __name__ == "__main__":
    sys.exit(main())
