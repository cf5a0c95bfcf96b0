"""An update's frame texts, the shared parts encoded once, say exactly what a whole frame per seat said."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.core.events import for_seat
from engine.service.bus import Update
from engine.service.kinds import UpdateKind
from engine.service.tables import TableService
from webapp.protocol import dump, update_frame
from webapp.public import PublicTables
from webapp.update_texts import UpdateTexts

TABLES = [("coins", 3, {"target_score": 99}), ("sergeant_major", 3, {"variant": "alternate"}),
          ("kings_corner", 2, {"players": 2}), ("kings_corner", 4, {"players": 4, "scoring": "penalty"})]


@pytest.mark.parametrize(("game", "size", "options"), TABLES, ids=[f"{g}-{n}" for g, n, _ in TABLES])
async def test_update_texts_parse_to_the_whole_frame_of_every_seat_and_spectator(
    service: TableService, game: str, size: int, options: dict[str, Any]
) -> None:
    names = ["Аня 안나", *(f"P{u}" for u in range(2, size + 1))]
    info = await service.create_table(game, 1, names[0], options, seed=f"update-texts:{game}:{size}")
    for user in range(2, size + 1):
        await service.join(info.id, user, names[user - 1])
    public, mismatches, kinds = PublicTables(), [], []

    async def check(update: Update) -> None:  # a listener's failure is only logged: collect, assert below
        texts = UpdateTexts(update, public, 2)
        for seat in (None, *range(size)):
            whole = update_frame(update.seq, update.kind, for_seat(update.events, seat),
                                 public.view(update.snapshot, seat), 2)
            if json.loads(texts.text(seat)) != json.loads(dump(whole)):
                mismatches.append((update.seq, seat))
        kinds.append(update.kind)

    await service.start_game(info.id, 1)
    live = service.live(info.id)
    assert live is not None
    if game == "coins":  # a game to 99 points, far from over: nothing stores the names again while it lasts
        live.row.seats[1].name = "Bob \ud800"  # a name stored before names were checked: no UTF-8 for it
    listening = service.listen(info.id, check)
    rng = random.Random(game)
    for _ in range(80):
        live = service.live(info.id)
        assert live is not None
        if live.row.status != "playing":
            break
        seat = min(live.game.to_act(live.state))
        action = rng.choice(live.game.legal_actions(live.state, seat))
        await service.act(info.id, seat + 1, action, live.seq)
    listening.close()
    assert mismatches == []
    assert kinds.count(UpdateKind.MOVED) >= 30


async def test_a_seats_own_half_is_joined_to_the_shared_half_once_each(service: TableService) -> None:
    info = await service.create_table("coins", 1, "Ann")
    for user in (2, 3):
        await service.join(info.id, user, f"P{user}")
    seen: list[Update] = []

    async def keep(update: Update) -> None:
        seen.append(update)

    listening = service.listen(info.id, keep)
    await service.start_game(info.id, 1)
    listening.close()
    texts = UpdateTexts(seen[-1], PublicTables(), 0)
    frames = [json.loads(texts.text(seat)) for seat in (0, 1, 2, None)]
    hands = [f["view"]["state"].get("hand") for f in frames]
    assert [len(h) for h in hands[:3]] == [16, 16, 16] and hands[3] is None  # each seat its own hand, no more
    assert len({json.dumps(f["view"]["table"], sort_keys=True) for f in frames}) == 1
    assert [f["view"]["state"]["seat"] for f in frames] == [0, 1, 2, None]
