"""Coming back to a table that ends while the socket opens shows the table as it ended: no error, nothing logged.

The socket looks at the table (still playing, the person seated) and then asks the service
to take the seat off autopilot; in between, the last move (an AI's, or another process's)
may end the game, or the host may abandon it. The service then refuses ``back`` for the
table's status, which is no failure: there is nothing left to come back to.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from engine.config import Settings
from engine.service.tables import TableService
from tests.service.helpers import ANN, BOB, CAT, play_out
from tests.web.conftest import ClientFactory
from tests.web.sockets import connect
from webapp.keys import VERIFIER


async def _abandon(service: TableService, table_id: str) -> None:
    await service.abandon(table_id, ANN)


ENDINGS: dict[str, tuple[Callable[[TableService, str], Awaitable[None]], str]] = {
    "finished": (play_out, "finished"),
    "abandoned": (_abandon, "abandoned"),
}


@pytest.mark.parametrize("ending", ENDINGS, ids=list(ENDINGS))
async def test_a_table_that_ends_between_the_sockets_look_and_its_coming_back_is_shown_ended(
    make_client: ClientFactory, settings: Settings, service: TableService, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture, ending: str,
) -> None:
    end, status = ENDINGS[ending]
    client = await make_client(settings)
    info = await service.create_table("coins", ANN, "Ann", {"target_score": 1})
    await service.join(info.id, BOB, "Bob")
    await service.join(info.id, CAT, "Cat")
    await service.start_game(info.id, ANN)
    await service.autoplay.idle()
    back, raced = service.back, []

    async def ends_first(table_id: str, user_id: int) -> Any:  # the table ends just before the seat comes back
        raced.append(table_id)
        await end(service, table_id)
        assert (await service.info(table_id)).status == status
        return await back(table_id, user_id)

    monkeypatch.setattr(service, "back", ends_first)
    caplog.set_level(logging.WARNING)
    peer, welcome = await connect(client, info.id, str(client.app[VERIFIER].sign({"id": ANN, "first_name": "Ann"})))
    assert raced == [info.id]
    assert welcome["you"] == 0 and welcome["view"]["table"]["status"] == status
    await peer.send({"type": "ping", "t": 1})
    pong = await peer.receive()  # the socket stays, nothing else came, and the welcome showed the table as it is
    assert pong["type"] == "pong" and pong["t"] == 1 and pong.get("seq", welcome["seq"]) == welcome["seq"]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    await peer.close()
