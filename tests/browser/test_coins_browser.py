"""The Coins table in a real browser: a whole game by tapping, refusals, reloads, and no leaks between seats."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.async_api import Page, WebSocketRoute, expect

from tests.browser.conftest import Phone, Server, open_phone, screenshot_path

ANN: dict[str, Any] = {"id": 5101, "first_name": "Ann", "language_code": "en"}
BOB: dict[str, Any] = {"id": 5102, "first_name": "Bob", "language_code": "en"}
TURN_OR_OVER = "() => document.querySelector('.status.mine') || document.querySelector('.sheet.game-over')"
MY_TURN = "() => document.querySelector('.status.mine')"


async def seq_of(page: Page) -> int:
    """The seq the page's table view is at."""
    return int(await page.locator(".table-screen").get_attribute("data-seq") or "-1")


async def hand_of(page: Page) -> list[str]:
    """The cards shown in the page's hand, in display order."""
    cards: list[str] = await page.locator(".hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    return cards


async def tap_select(page: Page, card: str) -> None:
    """Tap a card once: it is selected, nothing is sent."""
    await page.locator(f'.hand .card[data-card="{card}"]').tap()
    await expect(page.locator(f'.hand .card[data-card="{card}"]')).to_have_attribute("aria-pressed", "true")


async def play_first_card(page: Page, *, confirm: bool = False) -> str:
    """Play the first card of the hand and wait until the table has moved on: one tap (the default), or with each
    card confirmed (``confirm``: one-tap play turned off) a tap that picks it and one that plays it."""
    before = await seq_of(page)
    card = (await hand_of(page))[0]
    if confirm:
        await tap_select(page, card)
    await page.locator(f'.hand .card[data-card="{card}"]').tap()
    await page.wait_for_function("s => Number(document.querySelector('.table-screen').dataset.seq) > s", arg=before)
    return card


async def start_against_ai(phone: Phone) -> str:
    """From home: open a Coins table for friends, add two AI players, start; the table id."""
    page = phone.page
    await page.locator(".game-card[data-game='coins'] .options-btn").tap()
    await page.locator(".options-sheet .create-btn").tap()
    await expect(page.locator(".lobby")).to_be_visible()
    for n in (1, 2):
        await page.locator(".add-ai-btn").tap()
        await expect(page.locator(".seats li.ai")).to_have_count(n)
    await page.locator(".start-btn").tap()
    await expect(page.locator(".coins-table")).to_be_visible()
    table_id = await page.locator(".table-screen").get_attribute("data-table")
    assert table_id
    return table_id


def hands_in(value: Any) -> list[list[str]]:
    """Every list stored under a "hand" key anywhere inside a decoded frame."""
    found: list[list[str]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "hand" and isinstance(item, list):
                found.append(item)
            found.extend(hands_in(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(hands_in(item))
    return found


def dealt_cards_of_others(value: Any, me: int) -> list[dict[str, Any]]:
    """Every "dealt" event about another seat that carries its cards."""
    found: list[dict[str, Any]] = []
    if isinstance(value, dict):
        if value.get("type") == "dealt" and value.get("seat") != me and "cards" in value:
            found.append(value)
        for item in value.values():
            found.extend(dealt_cards_of_others(item, me))
    elif isinstance(value, list):
        for item in value:
            found.extend(dealt_cards_of_others(item, me))
    return found


async def test_coins_whole_game_by_tapping_ends_with_winner_and_seed(browser: Any, server: Server) -> None:
    ann = await open_phone(browser, server, ANN)
    page = ann.page
    table_id = await start_against_ai(ann)
    await expect(page.locator(".hand .card")).to_have_count(16)
    await expect(page.locator(".credit")).to_have_text("Coins by Mark Steere")
    await expect(page.locator(".cycle")).to_contain_text("Cups")
    plays, shot = 0, False
    while True:
        await page.wait_for_function(TURN_OR_OVER)
        if await page.locator(".sheet.game-over").count():
            break
        if not shot and plays >= 5 and await page.locator(".trick:not(.done) .card").count():
            await page.screenshot(path=str(screenshot_path("coins-mid-game-390x844.png")))
            shot = True
        await play_first_card(page)  # one tap a card, as the page plays by default
        plays += 1
        assert plays <= 80, "a game to 10 points lasts at most 3 hands of 16 tricks"
    assert shot, "the screenshot of a trick in progress was taken"

    info = await server.service.info(table_id)
    assert info.status == "finished" and info.result is not None and info.seed
    winner = info.result["winners"][0]
    winner_name = "You" if winner == 0 else info.seats[winner].name
    await expect(page.locator(".sheet .winner")).to_contain_text(winner_name)
    await expect(page.locator(".sheet .seed-value")).to_have_text(info.seed)
    await expect(page.locator(".sheet")).to_contain_text(info.seed_hash)
    wanted = sorted("1 pt" if score == 1 else f"{score} pts" for score in info.result["scores"])  # never "1 pts"
    assert sorted(await page.locator(".placements .pscore").all_text_contents()) == wanted
    await page.screenshot(path=str(screenshot_path("coins-game-over-390x844.png")))
    names = [c[0] for c in await ann.tg_calls()]
    assert "web_app_ready" in names and "web_app_expand" in names

    await page.locator(".play-again").tap()  # alone with AI players: the new game starts at once
    await expect(page.locator(".table-screen")).to_have_attribute("data-status", "playing")
    new_id = await page.locator(".table-screen").get_attribute("data-table")
    assert new_id and new_id != table_id
    assert (await server.service.info(new_id)).game == "coins"
    assert ann.errors == []


async def test_coins_refused_move_shows_the_servers_message(browser: Any, server: Server) -> None:
    ann = await open_phone(browser, server, ANN, confirm_cards=True)  # each card picked, then played
    page = ann.page
    tamper = {"armed": False}
    refusals: list[dict[str, Any]] = []

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "act" and tamper["armed"]:
                tamper["armed"] = False
                frame["seq"] -= 1  # a move made against a position the table has left
            upstream.send(json.dumps(frame))

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "refused":
                refusals.append(frame)
            ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)

    await page.route_web_socket(re.compile(r"/ws/"), route)
    await start_against_ai(ann)
    await page.wait_for_function(MY_TURN)
    await play_first_card(page, confirm=True)
    await page.wait_for_function(MY_TURN)

    seq, hand = await seq_of(page), await hand_of(page)
    tamper["armed"] = True
    card = hand[0]
    await tap_select(page, card)
    assert (await page.evaluate("window.Telegram.WebApp.MainButton.text")).startswith("Play ")
    assert ["web_app_trigger_haptic_feedback", {"type": "selection_change"}] in await ann.tg_calls()
    await page.locator(f'.hand .card[data-card="{card}"]').tap()
    await expect(page.locator("#toast.show")).to_be_visible()
    assert [r["code"] for r in refusals] == ["stale"]
    await expect(page.locator("#toast")).to_have_text(refusals[0]["message"])
    assert await seq_of(page) == seq
    assert await hand_of(page) == hand
    assert ["web_app_trigger_haptic_feedback", {"type": "notification", "notification_type": "error"}] \
        in await ann.tg_calls()

    await expect(page.locator(f'.hand .card[data-card="{card}"]')).to_have_attribute("aria-pressed", "true")
    await page.locator(f'.hand .card[data-card="{card}"]').tap()  # still selected: one more tap plays it
    await page.wait_for_function("s => Number(document.querySelector('.table-screen').dataset.seq) > s", arg=seq)
    await expect(page.locator(f'.hand .card[data-card="{card}"]')).to_have_count(0)
    assert len(refusals) == 1
    assert ann.errors == []


async def test_coins_reload_returns_to_the_same_hand_and_seq(browser: Any, server: Server) -> None:
    ann = await open_phone(browser, server, ANN)
    page = ann.page
    table_id = await start_against_ai(ann)
    for _ in range(2):
        await page.wait_for_function(MY_TURN)
        await play_first_card(page)
    await page.wait_for_function(MY_TURN)
    seq, hand = await seq_of(page), await hand_of(page)
    assert len(hand) == 14

    await page.reload()
    await expect(page.locator(".hand .card")).to_have_count(14)
    assert await seq_of(page) == seq
    assert await hand_of(page) == hand
    view = await server.service.view(table_id, ANN["id"])
    assert view["seq"] == seq and sorted(view["state"]["hand"]) == sorted(hand)
    await expect(page.locator(".status.mine")).to_be_visible()
    assert ann.errors == []


async def test_coins_two_seats_never_see_each_others_hands(browser: Any, server: Server) -> None:
    ann = await open_phone(browser, server, ANN)
    frames: dict[str, list[Any]] = {"ann": [], "bob": []}

    def record(who: str, page: Page) -> None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames[who].append(json.loads(payload))))

    record("ann", ann.page)
    await ann.page.locator(".game-card[data-game='coins'] .options-btn").tap()
    await ann.page.locator(".options-sheet .create-btn").tap()
    await expect(ann.page.locator(".lobby")).to_be_visible()
    table_id = await ann.page.locator(".table-screen").get_attribute("data-table")
    assert table_id

    bob = await open_phone(browser, server, BOB, start_param=table_id)
    record("bob", bob.page)
    await bob.page.reload()  # the recorder is in place before the socket opens
    await bob.page.locator(".join-btn").tap()
    await expect(ann.page.locator(".seats")).to_contain_text("Bob")
    await ann.page.locator(".start-btn").tap()
    for phone in (ann, bob):
        await expect(phone.page.locator(".hand .card")).to_have_count(16)

    seats = {"ann": 0, "bob": 1}
    dealt = {who: set((await server.service.view(table_id, p.user["id"]))["state"]["hand"])
             for who, p in (("ann", ann), ("bob", bob))}
    assert len(dealt["ann"]) == 16 and not dealt["ann"] & dealt["bob"]

    phones = {0: ann, 1: bob}
    assert (await server.service.view(table_id, BOB["id"]))["you"] == 1
    for _ in range(6):
        await server.service.autoplay.idle()
        seat = (await server.service.info(table_id)).to_act[0]
        await phones[seat].page.wait_for_function(MY_TURN)
        await play_first_card(phones[seat].page)
    await server.service.autoplay.idle()

    for me, other in (("ann", "bob"), ("bob", "ann")):
        page = ann.page if me == "ann" else bob.page
        other_now = set((await server.service.view(table_id, (BOB if other == "bob" else ANN)["id"]))["state"]["hand"])
        html = await page.evaluate("document.body.outerHTML")  # the page's head only holds translations
        shown = set(await page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
        assert not shown & other_now, f"{me}'s page shows {other}'s cards"
        leaks = [html[max(0, html.index(c) - 200):html.index(c) + 50] for c in other_now if c in html]
        assert not leaks, f"{me}'s page holds {other}'s cards"
        hands = [h for f in frames[me] for h in hands_in(f)]
        assert hands, f"{me} received its own hand"
        assert all(not set(h) & dealt[other] for h in hands), f"{me} received {other}'s cards in a hand"
        assert any(set(h) <= dealt[me] and len(h) == 16 for h in hands)
        assert dealt_cards_of_others(frames[me], seats[me]) == []
    assert ann.errors == [] and bob.errors == []


async def test_local_mode_sign_in_lobby_link_and_second_profile_takes_a_seat(
    browser: Any, local_server: Server
) -> None:
    cleo = await open_phone(browser, local_server)
    page = cleo.page
    await page.locator("#signin-name").fill("Cleo")
    await page.locator(".signin button[type=submit]").tap()
    await expect(page.locator(".game-picker")).to_be_visible()
    await page.screenshot(path=str(screenshot_path("local-home-390x844.png")))
    await page.locator(".game-card[data-game='coins'] .options-btn").tap()  # the table's options wait behind it
    await page.locator("#opt-timer").select_option("live")
    await page.locator(".options-sheet .create-btn").tap()
    await expect(page.locator(".lobby")).to_be_visible()
    link = await page.locator(".share-link").input_value()
    table_id = await page.locator(".table-screen").get_attribute("data-table")
    assert table_id is not None
    assert link == f"{local_server.url}/?table={table_id}"

    dan = await open_phone(browser, local_server, path=f"/?table={table_id}")
    await dan.page.locator("#signin-name").fill("Dan")
    await dan.page.locator(".signin button[type=submit]").tap()
    await dan.page.locator(".join-btn").tap()
    await expect(page.locator(".seats")).to_contain_text("Dan")
    await page.screenshot(path=str(screenshot_path("local-lobby-390x844.png")))
    await page.locator(".start-btn").tap()
    for phone in (cleo, dan):
        await expect(phone.page.locator(".hand .card")).to_have_count(16)
        await expect(phone.page.locator(".status .clock")).to_have_text(re.compile(r"^(1:00|0:[0-5]\d)$"))
    await page.screenshot(path=str(screenshot_path("local-table-390x844.png")))
    info = await local_server.service.info(table_id)
    assert [s.name for s in info.seats][:2] == ["Cleo", "Dan"] and info.seats[2].is_ai
    assert cleo.errors == [] and dan.errors == []
