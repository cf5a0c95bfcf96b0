"""No AI search on the event loop: strong's Sergeant Major give and kitty discard (each lists one canonical
action, the choice being in the view) are thought in the worker process, like every other searched decision."""

from __future__ import annotations

from typing import Any

import pytest

from engine.ai.sergeant_major import EasySergeantMajor, StrongSergeantMajor
from engine.games.sergeant_major import GAME as SM
from engine.service.autoplay import Autoplay


async def _no_step(_table_id: str) -> bool:
    return False


def _choices() -> dict[str, tuple[dict[str, Any], list[dict[str, Any]]]]:
    """A kitty discard and a give (views and legal actions), reached by easy play of classic deals."""
    easy = EasySergeantMajor()
    found: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
    for seed in range(20):
        state = SM.new_game({"variant": "classic"}, 3, f"off-loop:{seed}")
        for move in range(200):
            if SM.outcome(state) is not None or state.match.hand_no > 2 or len(found) == 2:
                break
            (seat,) = SM.to_act(state)
            view, legal = SM.view(state, seat), SM.legal_actions(state, seat)
            if view.get("choose"):
                found.setdefault(str(view["phase"]), (view, [dict(a) for a in legal]))
            state, _ = SM.apply(state, seat, easy.choose(view, legal, f"{seed}:{move}"))
    assert set(found) == {"kitty", "exchange"}
    return found


async def test_ai_strong_give_and_discard_are_searched_in_the_worker_not_on_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searched_here: list[str] = []

    def on_the_loop(self: StrongSergeantMajor, view: dict[str, Any], *_: Any) -> Any:
        searched_here.append(str(view["phase"]))
        raise AssertionError("a strong search ran in the service's own process")

    # Patched in this process only: the worker is spawned fresh and imports the real player.
    monkeypatch.setattr(StrongSergeantMajor, "choose", on_the_loop)
    autoplay = Autoplay(_no_step)
    try:
        for phase, (view, legal) in _choices().items():
            action = await autoplay.think("sergeant_major", "strong", view, legal, f"seed:{phase}")
            choice = view["choose"]
            assert action["type"] == choice["type"]
            assert len(set(action["cards"])) == choice["count"] and set(action["cards"]) <= set(choice["from"])
    finally:
        await autoplay.close()
    assert searched_here == [] and autoplay.pooled == 2


async def test_ai_easy_and_forced_decisions_stay_on_the_loop() -> None:
    autoplay = Autoplay(_no_step)
    try:
        view, legal = _choices()["kitty"]
        action = await autoplay.think("sergeant_major", "easy", view, legal, "seed")
        assert action["type"] == "discard" and autoplay.pooled == 0
        state = SM.new_game({"variant": "classic"}, 3, "forced")
        (seat,) = SM.to_act(state)
        one = SM.legal_actions(state, seat)[:1]
        assert await autoplay.think("sergeant_major", "strong", SM.view(state, seat), one, "seed") == one[0]
        assert autoplay.pooled == 0 and autoplay._pool is None
    finally:
        await autoplay.close()
