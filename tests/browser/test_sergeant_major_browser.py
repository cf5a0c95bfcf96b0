"""The Sergeant Major table in a real browser: a whole classic game against two AI players, by tapping."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.async_api import Page, expect

from engine.games.sergeant_major import trick_winner
from engine.store import Store, database_url
from engine.tables import TableService
from tests.browser.conftest import Phone, Server, open_phone, screenshot_path

ANN = {"id": 5201, "first_name": "Ann", "language_code": "en"}
OPTIONS = {"first_dealer": "host"}  # Ann deals hand 1, so she names trumps and discards to the kitty
MAX_HANDS = 5
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("hearts", "diamonds", "clubs", "spades")
TURN_OR_OVER = "() => document.querySelector('.status.mine') || document.querySelector('.sheet.game-over')"


def rank(card: str) -> int:
    """Play strength of a card, 0 for a 2 up to 12 for an Ace (sergeant-major.md §1.1)."""
    return RANKS.index(card.split("-")[0])


def suit(card: str) -> str:
    """The suit of a wire card name."""
    return card.split("-")[1]


def decide(state: dict[str, Any]) -> dict[str, Any]:
    """A plain player: trumps in the longest suit, away the lowest side cards, win tricks as cheaply as possible."""
    phase, hand, trump = state["phase"], state["hand"], state["trump"]
    if phase == "trump":
        best = max(SUITS, key=lambda s: (sum(suit(c) == s for c in hand), sum(rank(c) for c in hand if suit(c) == s)))
        return {"type": "name_trump", "suit": best}
    if phase in ("kitty", "exchange"):
        choice = state["choose"]
        cards = sorted(hand, key=lambda c: (suit(c) == trump, rank(c), c))[: choice["count"]]
        return {"type": choice["type"], "cards": cards}
    assert phase == "play", f"a classic game asks nothing else of Ann, not {phase!r}"
    legal = state["legal"]
    played = [p["card"] for p in state["trick"]]

    def strength(card: str) -> tuple[bool, int]:
        return suit(card) == trump, rank(card)

    if not played:
        trumps = [c for c in legal if suit(c) == trump]
        return {"type": "play", "card": max(trumps or legal, key=strength)}
    winning = [c for c in legal if trick_winner([*played, c], trump) == len(played)]
    return {"type": "play", "card": min(winning, key=strength) if winning else min(legal, key=strength)}


async def seq_of(page: Page) -> int:
    """The seq the page's table view is at."""
    return int(await page.locator(".table-screen").get_attribute("data-seq") or "-1")


async def wait_past(page: Page, seq: int) -> None:
    """Wait until the page has a view newer than ``seq``."""
    await page.wait_for_function("s => Number(document.querySelector('.table-screen').dataset.seq) > s", arg=seq)


async def hand_of(page: Page) -> list[str]:
    """The cards shown in the page's hand."""
    cards: list[str] = await page.locator(".hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    return cards


async def choose_and_confirm(phone: Phone, cards: list[str], label: str) -> None:
    """Tap each card once (it lifts), check the count, then press Telegram's main button."""
    page = phone.page
    for n, card in enumerate(cards, 1):
        await page.locator(f'.hand .card[data-card="{card}"]').tap()
        await expect(page.locator(f'.hand .card[data-card="{card}"]')).to_have_attribute("aria-pressed", "true")
        await expect(page.locator(".sm-count")).to_have_text(f"{n}/{len(cards)} chosen")
    assert await page.evaluate("window.Telegram.WebApp.MainButton.isVisible")
    assert await page.evaluate("window.Telegram.WebApp.MainButton.text") == label
    before = await seq_of(page)
    await page.evaluate("window.Telegram.WebApp.MainButton.handler()")
    await wait_past(page, before)


async def rehearse(service: TableService, seed: str) -> bool:
    """Play a seed's game as ``decide`` would, with no browser: True if it ends within MAX_HANDS and Ann gives."""
    info = await service.create_table("sergeant_major", ANN["id"], ANN["first_name"], OPTIONS, seed=seed)
    for _ in range(2):
        await service.add_ai(info.id, ANN["id"])
    await service.start_game(info.id, ANN["id"])
    gave = False
    while True:
        await service.autoplay.idle()
        view = await service.view(info.id, ANN["id"])
        state = view["state"]
        if state["over"] or state["hand_no"] > MAX_HANDS:
            return bool(state["over"]) and gave
        gave = gave or state["phase"] == "exchange"
        await service.act(info.id, ANN["id"], decide(state), view["seq"])


async def short_game_seed(folder: Path) -> str:
    """A seed whose game, against today's AI players, ends in a few hands with an exchange Ann gives in.

    The AI players and Ann's moves are both deterministic for a seed, so the browser replays
    the rehearsed game move for move.
    """
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(database_url(None, folder))
    await store.open()
    service = TableService(store, ai_delay=0.0)
    await service.start()
    try:
        for n in range(80):
            if await rehearse(service, f"sergeant-major-browser-{n}"):
                return f"sergeant-major-browser-{n}"
    finally:
        await service.close()
        await store.close()
    raise AssertionError(f"no seed of 80 gives a game of at most {MAX_HANDS} hands")


async def start_table(browser: Any, server: Server, seed: str) -> tuple[Phone, str]:
    """Ann's table with ``seed``, opened from Telegram; she adds two AI players and starts."""
    info = await server.service.create_table("sergeant_major", ANN["id"], ANN["first_name"], OPTIONS, seed=seed)
    ann = await open_phone(browser, server, ANN, start_param=info.id)
    page = ann.page
    await expect(page.locator(".lobby")).to_be_visible()
    for n in (1, 2):
        await page.locator(".add-ai-btn").tap()
        await expect(page.locator(".seats li.ai")).to_have_count(n)
    await page.locator(".start-btn").tap()
    await expect(page.locator(".sm-table")).to_be_visible()
    return ann, info.id


async def check_exchange_notes(page: Page, state: dict[str, Any], names: list[str]) -> None:
    """Exchanges this hand: Ann sees her own cards, and only "X gave Y k cards" for the others'."""
    for x in state["exchanges"]:
        if 0 in (x["seat"], x["to"]):
            assert "gave" in x and "returned" in x
            continue
        assert "gave" not in x
        await expect(page.locator(".sm-notes")).to_contain_text(f"{names[x['seat']]} gave {names[x['to']]} {x['count']} cards")


async def test_sergeant_major_whole_classic_game_by_tapping(browser: Any, server: Server, tmp_path: Path) -> None:
    seed = await short_game_seed(tmp_path / "rehearsal")
    ann, table_id = await start_table(browser, server, seed)
    page = ann.page
    names = ["You", *[s.name for s in (await server.service.info(table_id)).seats[1:]]]
    shots: set[str] = set()
    gave = named = 0
    illegal_checked = False
    while True:
        await page.wait_for_function(TURN_OR_OVER)
        if await page.locator(".sheet.game-over").count():
            break
        view = await server.service.view(table_id, ANN["id"])
        await page.wait_for_function("s => Number(document.querySelector('.table-screen').dataset.seq) === s",
                                     arg=view["seq"])
        state = view["state"]
        assert sorted(await hand_of(page)) == sorted(state["hand"])
        await expect(page.locator('.me .sm-pos')).to_have_text(state["positions"][0])
        action = decide(state)
        phase = state["phase"]
        if phase == "trump":
            named += 1
            assert state["dealer"] == 0 and len(state["hand"]) == 16
            await expect(page.locator(".sm-suit-btn")).to_have_count(4)
            await expect(page.locator(".me .sm-tricks")).to_have_text("0/8 tricks")
            await expect(page.locator(".sm-trump")).to_contain_text("–")
            await check_exchange_notes(page, state, names)
            if "trump" not in shots:
                await page.screenshot(path=str(screenshot_path("sergeant-major-trump-390x844.png")))
                shots.add("trump")
            before = await seq_of(page)
            await page.locator(f'.sm-suit-btn[data-suit="{action["suit"]}"]').tap()
            await wait_past(page, before)
            await expect(page.locator(".sm-trump")).to_contain_text(action["suit"].capitalize())
        elif phase == "kitty":
            await expect(page.locator(".sm-panel h2")).to_have_text("Discard 4 cards to the kitty")
            await expect(page.locator(".sm-kitty .card")).to_have_count(4)
            await choose_and_confirm(ann, action["cards"], "Discard 4 cards")
            after = (await server.service.view(table_id, ANN["id"]))["state"]
            assert sorted(after["discards"]) == sorted(action["cards"]) and len(after["hand"]) == 16
        elif phase == "exchange":
            choice = state["choose"]
            receiver = names[choice["to"]]
            await expect(page.locator(".sm-panel h2")).to_have_text(f"Give {choice['count']} cards to {receiver}")
            if "exchange" not in shots and choice["count"] > 1:
                await page.locator(f'.hand .card[data-card="{action["cards"][0]}"]').tap()
                await page.screenshot(path=str(screenshot_path("sergeant-major-exchange-390x844.png")))
                await page.locator(f'.hand .card[data-card="{action["cards"][0]}"]').tap()
                shots.add("exchange")
            await choose_and_confirm(ann, action["cards"], f"Give {choice['count']} cards")
            mine = [x for x in (await server.service.view(table_id, ANN["id"]))["state"]["exchanges"] if x["seat"] == 0]
            assert sorted(mine[-1]["gave"]) == sorted(action["cards"])
            await expect(page.locator(".sm-notes")).to_contain_text(f"You gave {receiver}:")
            gave += 1
        else:
            legal = state["legal"]
            shown = await page.locator(".hand .card:not(.illegal)").evaluate_all("els => els.map(e => e.dataset.card)")
            assert sorted(shown) == sorted(legal), "exactly the legal cards are tappable"
            illegal = [c for c in state["hand"] if c not in legal]
            before = await seq_of(page)
            if illegal and not illegal_checked:
                await expect(page.locator(f'.hand .card[data-card="{illegal[0]}"]')).to_be_disabled()
                await page.locator(f'.hand .card[data-card="{illegal[0]}"]').tap(force=True)  # a dimmed card
                await expect(page.locator("#toast")).to_have_text("You must follow suit.")
                await expect(page.locator(f'.hand .card[data-card="{illegal[0]}"]')).to_have_attribute("aria-pressed", "false")
                assert await seq_of(page) == before
                illegal_checked = True
            card = action["card"]
            await page.locator(f'.hand .card[data-card="{card}"]').tap()
            await expect(page.locator(f'.hand .card[data-card="{card}"]')).to_have_attribute("aria-pressed", "true")
            if "trick" not in shots and state["trick"] and state["trick_no"] >= 3:
                await page.screenshot(path=str(screenshot_path("sergeant-major-mid-trick-390x844.png")))
                shots.add("trick")
            await page.locator(f'.hand .card[data-card="{card}"]').tap()
            await wait_past(page, before)
        assert state["hand_no"] <= MAX_HANDS, "the browser replays the rehearsed game"

    assert shots >= {"trump", "trick"}, shots
    assert named >= 1 and gave >= 1 and illegal_checked, (named, gave, illegal_checked)
    info = await server.service.info(table_id)
    assert info.status == "finished" and info.result is not None and info.seed == seed
    final = (await server.service.view(table_id, ANN["id"]))["state"]
    (winner,) = final["winners"]
    assert final["tricks"][winner] == 12, "a classic game ends the moment someone has 12 tricks in a hand"
    sheet = page.locator(".sheet.game-over")
    await expect(sheet.locator(".winner")).to_contain_text(names[winner])
    await expect(sheet.locator(".seed-value")).to_have_text(seed)
    await expect(sheet).to_contain_text(info.seed_hash)
    await page.screenshot(path=str(screenshot_path("sergeant-major-game-over-390x844.png")))

    await sheet.get_by_role("button", name="View table").tap()
    await expect(page.locator(".sm-panel.over .sm-winner")).to_contain_text(names[winner])
    await expect(page.locator(f'.player[data-seat="{winner}"]')).to_have_class(re.compile(r"\bwinner\b"))
    await page.screenshot(path=str(screenshot_path("sergeant-major-end-table-390x844.png")))
    await page.locator(".sm-result-btn").tap()
    await page.locator(".play-again").tap()
    await expect(page.locator(".lobby")).to_be_visible()
    new_id = await page.locator(".table-screen").get_attribute("data-table")
    assert new_id and new_id != table_id
    again = await server.service.info(new_id)
    assert again.game == "sergeant_major" and again.options["first_dealer"] == "host"
    assert ann.errors == []
