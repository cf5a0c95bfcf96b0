"""The Kings in the Corner table in a real browser: a whole two-player game against an AI, by tapping."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import Page, Position, expect

from engine.service import lobby
from tests.browser.conftest import Phone, Server, open_phone, screenshot_path

VISIBLE_EDGE: Position = {"x": 6, "y": 24}  # where a fanned card shows from under its neighbour

ANN_ID = 5301
ANN = {"id": ANN_ID, "first_name": "Ann", "language_code": "en"}
# The whole game's deal, fixed: with a random one Ann could be out-played before a card of hers ever had a place
# (no mid-game screenshot to take), as one run under load was.
GAME_SEED = "4b1c" * 16
SPACES = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")
SETTLED = "() => ['mine', 'over'].includes(document.querySelector('.kc-table')?.dataset.turn)"
BOARD_JS = """() => Object.fromEntries([...document.querySelectorAll('.kc-pile')].map(p => [p.dataset.space, {
  count: Number(p.dataset.count),
  bottom: p.querySelector('.kc-bottom')?.dataset.card ?? null,
  top: (p.querySelector('.kc-top') || p.querySelector('.kc-bottom'))?.dataset.card ?? null,
}]))"""
MAX_TURNS = 60  # 34 stock cards, one drawn per turn, then a round with no play blocks the game


async def seq_of(page: Page) -> int:
    """The seq the page's table view is at."""
    return int(await page.locator(".table-screen").get_attribute("data-seq") or "-1")


async def tap_and_wait(page: Page, selector: str) -> None:
    """Tap what ``selector`` finds and wait until the table has moved on."""
    before = await seq_of(page)
    await page.locator(selector).first.tap()
    await page.wait_for_function("s => Number(document.querySelector('.table-screen').dataset.seq) > s", arg=before)


async def board_of(page: Page) -> dict[str, dict[str, Any]]:
    """Each pile as the page shows it: its length, bottom card and top card."""
    board: dict[str, dict[str, Any]] = await page.evaluate(BOARD_JS)
    return board


async def hand_of(page: Page) -> list[str]:
    """The cards shown in the page's hand."""
    cards: list[str] = await page.locator(".kc-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    return cards


async def start_two_player_game(phone: Phone) -> str:
    """From home: a Kings in the Corner table for two, one AI added, started; the table id."""
    page = phone.page
    await page.locator(".game-card[data-game='kings_corner'] .options-btn").tap()  # the game's Table options
    await expect(page.locator("#opt-players")).to_have_value("2")  # two unless chosen otherwise, of 2, 3 or 4
    await expect(page.locator("#opt-players option")).to_have_text(["2", "3", "4"])
    await expect(page.locator("#opt-scoring option:checked")).to_have_text("First out wins")
    await page.locator(".options-sheet .create-btn").tap()
    await expect(page.locator(".lobby")).to_be_visible()
    await expect(page.locator(".seats li")).to_have_count(2)
    await expect(page.locator('.options select[name="players"]')).to_have_value("2")
    await page.locator(".add-ai-btn").tap()
    await expect(page.locator(".seats li.ai")).to_have_count(1)
    await page.locator(".start-btn").tap()
    await expect(page.locator(".kc-table")).to_be_visible()
    table_id = await page.locator(".table-screen").get_attribute("data-table")
    assert table_id
    return table_id


async def check_board_matches_server(page: Page, server: Server, table_id: str) -> dict[str, Any]:
    """Once the replay has settled, every pile on the page is the server's pile; the server's state."""
    state: dict[str, Any] = (await server.service.view(table_id, ANN_ID))["state"]
    board = await board_of(page)
    for space in SPACES:
        pile = state["piles"][space]
        assert board[space]["count"] == len(pile), space
        assert board[space]["bottom"] == (pile[0] if pile else None), space
        assert board[space]["top"] == (pile[-1] if pile else None), space
    assert sorted(await hand_of(page)) == sorted(state["hand"])
    await expect(page.locator(".kc-stock-n")).to_have_text(f"{state['stock']} in stock")
    return state


async def play_my_turn(page: Page, state: dict[str, Any], shots: dict[str, bool]) -> int:
    """Play every card that has a place (Kings to corners included) and one pile move, by tapping; the plays."""
    plays = 0
    moved = False
    while True:
        await page.wait_for_function(SETTLED)
        if await page.locator(".kc-table[data-turn='over']").count():
            return plays
        playable = page.locator(".kc-hand .card.playable")
        if await playable.count():
            card = await playable.first.get_attribute("data-card")
            assert card
            await playable.first.tap(position=VISIBLE_EDGE)  # a fanned hand covers the rest of the card
            await expect(page.locator(f'.kc-hand .card[data-card="{card}"]')).to_have_attribute("aria-pressed", "true")
            targets = page.locator(".kc-pile.target")
            assert await targets.count() >= 1
            if not shots["mid"]:  # the first card chosen
                await page.screenshot(path=str(screenshot_path("kings-corner-mid-game-390x844.png")))
                shots["mid"] = True
            space = await targets.first.get_attribute("data-space")
            count = int(await targets.first.get_attribute("data-count") or "0")
            await tap_and_wait(page, f'.kc-pile[data-space="{space}"]')
            await page.wait_for_function(SETTLED)
            if await page.locator(".kc-table[data-turn='over']").count():
                return plays + 1
            pile = page.locator(f'.kc-pile[data-space="{space}"]')
            await expect(pile).to_have_attribute("data-count", str(count + 1))
            await expect(page.locator(f'.kc-hand .card[data-card="{card}"]')).to_have_count(0)
            plays += 1
            continue
        movable = page.locator(".kc-pile.movable")
        if not moved and await movable.count():
            src = await movable.first.get_attribute("data-space")
            await movable.first.tap()
            await expect(page.locator(f'.kc-pile[data-space="{src}"]')).to_have_class(re.compile(r"\bsource\b"))
            await tap_and_wait(page, ".kc-pile.target")
            await page.wait_for_function(SETTLED)
            await expect(page.locator(f'.kc-pile[data-space="{src}"]')).to_have_attribute("data-count", "0")
            moved = True
            continue
        end = page.locator(".kc-end-turn")
        await expect(end).to_be_enabled()
        await tap_and_wait(page, ".kc-end-turn")
        return plays


async def test_kings_corner_whole_two_player_game_by_tapping(
    browser: Any, server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby, "new_seed", lambda: GAME_SEED)
    ann = await open_phone(browser, server, ANN)
    page = ann.page
    table_id = await start_two_player_game(ann)
    info = await server.service.info(table_id)
    assert info.game == "kings_corner" and info.size == 2 and info.seats[1].is_ai
    ai_name = info.seats[1].name
    await expect(page.locator(".kc-seat")).to_have_count(1)
    await expect(page.locator(".kc-pile")).to_have_count(8)
    await expect(page.locator(".kc-scorebar")).to_contain_text("First to go out wins")

    shots = {"mid": False}
    turns = plays = 0
    saw_replay = False
    while True:
        await page.wait_for_function(SETTLED)
        if await page.locator(".kc-table[data-turn='over']").count():
            break
        turns += 1
        assert turns <= MAX_TURNS, "the stock runs out and a blocked round ends the game"
        state = await check_board_matches_server(page, server, table_id)
        await expect(page.locator(".status.mine")).to_contain_text("Your turn")
        await expect(page.locator(".kc-seat.turn")).to_have_count(0)
        if any(card.startswith("K-") for card in state["hand"]):
            # kings_corner/RULES.md §3.3 A6: no ending the turn while a King is held
            await expect(page.locator(".kc-end-turn")).to_be_disabled()
            await expect(page.locator(".kc-reason")).to_have_text("Place your King in an empty corner first.")
        plays += await play_my_turn(page, state, shots)
        if not saw_replay and state["stock"] > 0 and await page.locator(".kc-table[data-turn='over']").count() == 0:
            # the AI's turn is replayed: at least its draw flies from the stock to its seat
            await page.wait_for_selector(".kc-fly", state="attached", timeout=5000)
            await page.wait_for_function(SETTLED)
            await expect(page.locator(".kc-log")).to_contain_text(f"\u2068{ai_name}\u2069:")  # the name isolated
            saw_replay = True
    assert shots["mid"], "a mid-game screenshot with a card chosen and its piles glowing was taken"
    assert plays > 0

    info = await server.service.info(table_id)
    assert info.status == "finished" and info.result is not None
    state = (await server.service.view(table_id, ANN_ID))["state"]
    winners = info.result["winners"]
    await expect(page.locator(".sheet.game-over")).to_be_visible()
    scores = info.result["scores"]
    for seat in range(2):
        # first_out scores are the cards left in hand (kings_corner/RULES.md §4)
        left = "1 card left" if scores[seat] == 1 else f"{scores[seat]} cards left"
        await expect(page.locator(".placements")).to_contain_text(left)
    await page.screenshot(path=str(screenshot_path("kings-corner-game-over-390x844.png")))
    await page.locator(".sheet .btn", has_text="View table").tap()
    await expect(page.locator(".sheet-backdrop")).to_have_count(0)

    status = page.locator(".status.over")
    if state["went_out"] is not None and not state["blocked"]:
        assert winners == [state["went_out"]] and scores[state["went_out"]] == 0
        said = "You went out and won!" if winners == [0] else f"\u2068{ai_name}\u2069 went out and won"  # name isolated
        await expect(status).to_have_text(said)
    else:
        fewest = min(scores)
        assert winners == [s for s in range(2) if scores[s] == fewest]
        await expect(page.locator(".kc-how")).to_contain_text("Blocked")
    first = page.locator(".kc-places li").first
    await expect(first).to_have_class("first")
    await expect(first).to_contain_text("You" if 0 in winners else ai_name)
    await check_board_matches_server(page, server, table_id)
    await page.screenshot(path=str(screenshot_path("kings-corner-end-390x844.png")))

    await page.locator(".kc-again").tap()  # alone with an AI player: the new game starts at once
    await expect(page.locator(".table-screen")).to_have_attribute("data-status", "playing")
    new_id = await page.locator(".table-screen").get_attribute("data-table")
    assert new_id and new_id != table_id
    again = await server.service.info(new_id)
    assert again.game == "kings_corner" and again.size == 2
    assert ann.errors == []
