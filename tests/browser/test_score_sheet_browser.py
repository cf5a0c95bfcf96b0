"""The score sheet comes from the table's view, so a second phone opened mid-game and a watcher read the same rows
as the phone that saw every hand (DESIGN.md: the server is the truth; the page keeps only preferences)."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page, ViewportSize, expect

from tests.browser.conftest import Phone, Server, open_phone, screenshot_path

SEED = "5c0e" * 16
SMALL: ViewportSize = {"width": 360, "height": 640}
ANN = 5801


def person(uid: int, name: str) -> dict[str, Any]:
    return {"id": uid, "first_name": name, "language_code": "en"}


async def sheet_rows(phone: Phone) -> list[list[str]]:
    """The score sheet as the page shows it: each body row's cells, then the foot's."""
    page = phone.page
    await page.locator(".score-btn").first.tap()
    sheet = page.locator(".sheet.scores-sheet")
    await expect(sheet).to_be_visible()
    rows: list[list[str]] = await sheet.evaluate(
        "el => [...el.querySelectorAll('tbody tr, tfoot tr')].map(tr => [...tr.children].map(c => c.textContent))")
    return rows


async def play_into_hand_two(server: Server, table_id: str) -> dict[str, Any]:
    """Ann plays her first legal card through the service until a trick of hand 2 is over and it is her turn."""
    service = server.service
    for _ in range(200):
        await service.autoplay.idle()
        view = await service.view(table_id, ANN)
        state: dict[str, Any] = view["state"]
        if state["turn"] != 0:
            continue
        if state["hand_no"] == 2 and state["trick_no"] >= 2:
            return state
        await service.act(table_id, ANN, {"type": "play", "card": state["legal"][0]}, view["seq"])
    raise AssertionError("hand 2 never came")


async def no_storage_of_hands(page: Page) -> None:
    keys: list[str] = await page.evaluate("Object.keys(localStorage)")
    assert not [k for k in keys if k.startswith(("cardroom.hands.", "cardroom.kc."))], keys


async def test_coins_sheet_is_the_same_on_a_second_phone_and_for_a_watcher(browser: Any, server: Server) -> None:
    info = await server.service.create_table("coins", ANN, "Ann", {"target_score": 20}, seed=SEED)
    for _ in range(2):
        await server.service.add_ai(info.id, ANN)
    await server.service.start_game(info.id, ANN)
    state = await play_into_hand_two(server, info.id)
    first = await open_phone(browser, server, person(ANN, "Ann"), start_param=info.id, viewport=SMALL)
    second = await open_phone(browser, server, person(ANN, "Ann"), start_param=info.id, viewport=SMALL)
    watcher = await open_phone(browser, server, person(5802, "Dan"), start_param=info.id, viewport=SMALL)
    seen = []
    for phone in (first, second, watcher):
        await expect(phone.page.locator(".table-screen")).to_be_visible()
        seen.append(await sheet_rows(phone))
    assert seen[0] == seen[1] == seen[2]
    *hands, foot = seen[0]
    assert [row[0] for row in hands] == ["Hand 1", "Hand 2"]
    assert foot[1:] == [str(n) for n in state["scores"]]
    # coins/RULES.md G12: a whole hand gives out the 12 Coins; each seat's hands add up to its total
    assert sum(int(n) for n in hands[0][1:]) == 12
    assert [sum(int(row[seat]) for row in hands) for seat in (1, 2, 3)] == state["scores"]
    await first.page.screenshot(path=str(screenshot_path("coins-score-sheet-360x640.png")))
    for phone in (first, second, watcher):
        await no_storage_of_hands(phone.page)
        assert phone.errors == []
        await phone.context.close()


async def test_sergeant_major_sheet_on_a_phone_opened_after_a_hand(browser: Any, server: Server) -> None:
    info = await server.service.create_table("sergeant_major", ANN, "Ann", {"first_dealer": "seat:1"}, seed=SEED)
    for _ in range(2):
        await server.service.add_ai(info.id, ANN)
    await server.service.start_game(info.id, ANN)
    service = server.service
    over = None
    for _ in range(400):  # Ann makes her first legal move until hand 1 is over
        await service.autoplay.idle()
        live = service.live(info.id)
        assert live is not None
        if live.state.match.hand_no == 2:
            over = live.state.match
            break
        if 0 in live.game.to_act(live.state):
            await service.act(info.id, ANN, live.game.legal_actions(live.state, 0)[0], live.seq)
    assert over is not None
    phone = await open_phone(browser, server, person(ANN, "Ann"), start_param=info.id, viewport=SMALL)
    await expect(phone.page.locator(".table-screen")).to_be_visible()
    rows = await sheet_rows(phone)
    tricks, targets, results = over.trick_history[0], over.target_history[0], over.history[0]
    # sergeant_major/RULES.md §3.2 step 9: each seat's result is its tricks less its target
    assert [t - g for t, g in zip(tricks, targets, strict=True)] == list(results)
    assert sum(tricks) == 16 and sorted(targets) == [3, 5, 8]
    minus = "\u2212"
    shown = [f"{t}/{g} ({'+' if r > 0 else minus if r < 0 else ''}{abs(r)})" for t, g, r in
             zip(tricks, targets, results, strict=True)]
    assert rows[0] == ["Hand 1", *shown]
    await phone.page.screenshot(path=str(screenshot_path("sergeant-major-score-sheet-360x640.png")))
    await no_storage_of_hands(phone.page)
    assert phone.errors == []
    await phone.context.close()
