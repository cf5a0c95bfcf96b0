"""Two friends at the end of a game, each on their own phone: the game-over sheet takes both to the one rematch."""

from __future__ import annotations

from typing import Any

from playwright.async_api import expect

from tests.browser.conftest import Server, open_phone, screenshot_path
from tests.service.helpers import play_out

ANN_ID, BOB_ID = 6101, 6102
ANN: dict[str, Any] = {"id": ANN_ID, "first_name": "Ann", "language_code": "en"}
BOB: dict[str, Any] = {"id": BOB_ID, "first_name": "Bob", "language_code": "en"}


async def finished_game(server: Server) -> str:
    """A Coins game of Ann, Bob and an AI player, played to its end."""
    service = server.service
    info = await service.create_table("coins", ANN_ID, "Ann", {"target_score": 1})
    await service.join(info.id, BOB_ID, "Bob")
    await service.start_game(info.id, ANN_ID)
    await play_out(service, info.id)
    assert (await service.info(info.id)).status == "finished"
    return info.id


async def test_both_players_reach_the_same_rematch_from_the_game_over_sheet(browser: Any, server: Server) -> None:
    table_id = await finished_game(server)
    ann = await open_phone(browser, server, ANN, start_param=table_id)
    bob = await open_phone(browser, server, BOB, start_param=table_id)
    for phone in (ann, bob):
        await expect(phone.page.locator(".sheet.game-over .play-again")).to_have_text("Play again")

    await ann.page.locator(".sheet.game-over .play-again").tap()
    ann_screen = ann.page.locator(f".table-screen:not([data-table='{table_id}'])")
    await expect(ann_screen).to_have_attribute("data-status", "lobby")
    rematch_id = await ann_screen.get_attribute("data-table")
    assert rematch_id is not None
    assert await server.service.store.chats.rematch_of(table_id) == rematch_id

    # Bob's page is told while it shows the old table: his sheet now leads to Ann's rematch
    again = bob.page.locator(".sheet.game-over .play-again")
    await expect(again).to_have_text("Join rematch")
    await expect(again).to_have_attribute("data-rematch", rematch_id)
    await bob.page.screenshot(path=str(screenshot_path("rematch-join-390x844.png")))
    await again.tap()
    bob_screen = bob.page.locator(f".table-screen[data-table='{rematch_id}']")
    await expect(bob_screen).to_have_attribute("data-status", "lobby")

    fresh = await server.service.info(rematch_id)
    assert sorted(s.user_id for s in fresh.seats if s.user_id is not None) == [ANN_ID, BOB_ID]
    assert [t.id for t in await server.service.tables_of(BOB_ID)] == [rematch_id]  # one table, not two
    await expect(ann.page.locator(".lobby .seats li.taken .pname", has_text="Bob")).to_have_count(1)  # Ann sees him
    assert ann.errors == [] and bob.errors == []
