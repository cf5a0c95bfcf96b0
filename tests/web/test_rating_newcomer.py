"""A newcomer who finishes last in their first game sees one number everywhere over HTTP: at or below 1500, never
below 0, provisional; the same at the end of the game, in their own figures and on both leaderboards."""

from __future__ import annotations

from engine.config import Settings
from engine.service.tables import TableService
from tests.service.newcomer import first_game_lost
from tests.web.conftest import Client, ClientFactory, tma

GROUP = -600


def headers(client: Client, user_id: int) -> dict[str, str]:
    from webapp.keys import VERIFIER

    return tma(client.app[VERIFIER].sign({"id": user_id, "first_name": "Ann"}))


async def test_a_newcomer_last_in_a_first_game_sees_the_same_provisional_rating_everywhere(
    make_client: ClientFactory, settings: Settings, service: TableService
) -> None:
    client = await make_client(settings)
    table_id, uid = await first_game_lost(service, 7500, GROUP, "Ann")
    ann = headers(client, uid)

    [change] = (await (await client.get(f"/api/tables/{table_id}/ratings", headers=ann)).json())["seats"]
    assert change["seat"] == 0 and change["before"] == 1500 and change["provisional"] is True
    rating = change["after"]
    assert isinstance(rating, int) and 0 <= rating <= 1500 and change["change"] == rating - 1500 <= 0

    stats = await (await client.get("/api/stats", headers=ann)).json()
    [coins] = stats["games"]
    assert (coins["rating"], coins["provisional"], coins["games"]) == (rating, True, 1)
    assert coins["best"] == rating and coins["trend"] == [rating]  # the one game left it there
    assert stats["provisional_games"] == 10

    query = {"game": "coins"}
    for board in (await (await client.get("/api/played-with", params=query, headers=ann)).json(),
                  await (await client.get("/api/leaderboard", params={**query, "chat": str(GROUP)},
                                          headers=ann)).json()):
        assert board["provisional_games"] == 10
        assert board["players"] == [{"place": 1, "name": "Ann", "rating": rating, "provisional": True, "games": 1,
                                     "wins": 0, "you": True}]
