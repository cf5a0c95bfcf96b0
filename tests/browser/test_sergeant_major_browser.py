"""The Sergeant Major table in a real browser: a whole classic game against two AI players, by tapping."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, expect

from engine.games.sergeant_major import trick_winner
from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.browser.conftest import Phone, Server, open_phone, screenshot_path

ANN_ID, ANN_NAME = 5201, "Ann"
ANN = {"id": ANN_ID, "first_name": ANN_NAME, "language_code": "en"}
OPTIONS = {"first_dealer": "host"}  # Ann deals hand 1, so she names trumps and discards to the kitty
MAX_HANDS = 5
SEEDS = 80
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("hearts", "diamonds", "clubs", "spades")
TURN_OR_OVER = "() => document.querySelector('.status.mine') || document.querySelector('.sheet.game-over')"
DECISIONS = ("trump", "kitty", "exchange", "play", "dimmed")
SEQ_IS = "s => Number(document.querySelector('.table-screen').dataset.seq) === s"
SEQ_PAST = "s => Number(document.querySelector('.table-screen').dataset.seq) > s"


def rank(card: str) -> int:
    """Play strength of a card, 0 for a 2 up to 12 for an Ace (sergeant_major/RULES.md §1.1)."""
    return RANKS.index(card.split("-")[0])


def suit(card: str) -> str:
    """The suit of a wire card name."""
    return card.split("-")[1]


def cards_n(n: int) -> str:
    """"1 card", "2 cards"."""
    return "1 card" if n == 1 else f"{n} cards"


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


async def rehearse(service: TableService, seed: str) -> bool:
    """Play a seed's game as ``decide`` would, with no browser: True if it ends within MAX_HANDS and Ann gives."""
    info = await service.create_table("sergeant_major", ANN_ID, ANN_NAME, OPTIONS, seed=seed)
    for _ in range(2):
        await service.add_ai(info.id, ANN_ID)
    await service.start_game(info.id, ANN_ID)
    gave = False
    while True:
        await service.autoplay.idle()
        view = await service.view(info.id, ANN_ID)
        state = view["state"]
        if state["over"] or state["hand_no"] > MAX_HANDS:
            return bool(state["over"]) and gave
        gave = gave or state["phase"] == "exchange"
        await service.act(info.id, ANN_ID, decide(state), view["seq"])


async def short_game_seed(folder: Path) -> str:
    """A seed whose game against the AI players ends within MAX_HANDS hands, with an exchange Ann gives in.

    The AI players and ``decide`` are both deterministic for a seed, so the browser replays the
    rehearsed game move for move, however the AI players change.
    """
    store = Store(database_url(None, folder))
    await store.open()
    service = TableService(store, ai_delay=0.0)
    await service.start()
    try:
        for n in range(SEEDS):
            if await rehearse(service, f"sergeant-major-browser-{n}"):
                return f"sergeant-major-browser-{n}"
    finally:
        await service.close()
        await store.close()
    raise AssertionError(f"none of {SEEDS} seeds gives a game of at most {MAX_HANDS} hands")


async def seq_of(page: Page) -> int:
    """The seq the page's table view is at."""
    return int(await page.locator(".table-screen").get_attribute("data-seq") or "-1")


async def hand_of(page: Page) -> list[str]:
    """The cards shown in the page's hand."""
    cards: list[str] = await page.locator(".hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    return cards


async def start_table(browser: Any, server: Server, seed: str) -> tuple[Phone, str]:
    """Ann's table with ``seed``, opened from Telegram; she adds two AI players and starts."""
    info = await server.service.create_table("sergeant_major", ANN_ID, ANN_NAME, OPTIONS, seed=seed)
    ann = await open_phone(browser, server, ANN, start_param=info.id)
    page = ann.page
    await expect(page.locator(".lobby")).to_be_visible()
    for n in (1, 2):
        await page.locator(".add-ai-btn").tap()
        await expect(page.locator(".seats li.ai")).to_have_count(n)
    await page.locator(".start-btn").tap()
    await expect(page.locator(".sm-table")).to_be_visible()
    return ann, info.id


@dataclass
class Game:
    """Ann's page at her table, and what the game has shown so far."""

    page: Page
    server: Server
    table_id: str
    names: list[str]
    shots: set[str] = field(default_factory=set)
    done: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DECISIONS, 0))

    async def state(self) -> dict[str, Any]:
        """Ann's view of the game, as the server holds it."""
        state: dict[str, Any] = (await self.server.service.view(self.table_id, ANN_ID))["state"]
        return state

    def card(self, card: str) -> Any:
        """A card of Ann's hand on the page."""
        return self.page.locator(f'.hand .card[data-card="{card}"]')

    async def shot(self, name: str) -> None:
        """A phone-sized screenshot, once per name."""
        if name not in self.shots:
            await self.page.screenshot(path=str(screenshot_path(f"sergeant-major-{name}-390x844.png")))
            self.shots.add(name)

    async def confirm(self, cards: list[str], label: str) -> None:
        """Tap each card once (it lifts), check the count, then press Telegram's main button."""
        for n, card in enumerate(cards, 1):
            await self.card(card).tap()
            await expect(self.card(card)).to_have_attribute("aria-pressed", "true")
            await expect(self.page.locator(".sm-count")).to_have_text(f"{n}/{len(cards)} chosen")
        assert await self.page.evaluate("window.Telegram.WebApp.MainButton.isVisible")
        assert await self.page.evaluate("window.Telegram.WebApp.MainButton.text") == label
        before = await seq_of(self.page)
        await self.page.evaluate("window.Telegram.WebView.receiveEvent('main_button_pressed')")
        await self.page.wait_for_function(SEQ_PAST, arg=before)

    async def exchange_notes(self, state: dict[str, Any]) -> None:
        """Ann sees the cards of her own exchanges, and only "X gave Y k cards" of the others'."""
        for x in state["exchanges"]:
            if 0 in (x["seat"], x["to"]):
                assert "gave" in x and "returned" in x
                continue
            assert "gave" not in x
            line = f"{self.names[x['seat']]} gave {self.names[x['to']]} {cards_n(x['count'])}"
            await expect(self.page.locator(".sm-notes")).to_contain_text(line)

    async def name_trumps(self, state: dict[str, Any], suit_name: str) -> None:
        """Ann deals: four suit buttons, her target 8; she taps one and it becomes the trump."""
        assert state["dealer"] == 0 and len(state["hand"]) == 16
        await expect(self.page.locator(".sm-suit-btn")).to_have_count(4)
        await expect(self.page.locator(".me .sm-tricks")).to_have_text("0/8 tricks")
        await expect(self.page.locator(".sm-trump")).to_contain_text("–")
        await self.exchange_notes(state)
        await self.shot("trump")
        before = await seq_of(self.page)
        await self.page.locator(f'.sm-suit-btn[data-suit="{suit_name}"]').tap()
        await self.page.wait_for_function(SEQ_PAST, arg=before)
        await expect(self.page.locator(".sm-trump")).to_contain_text(suit_name.capitalize())

    async def discard(self, cards: list[str]) -> None:
        """Ann picks four cards and confirms; they are her discards and the kitty joins her hand."""
        await expect(self.page.locator(".sm-panel h2")).to_have_text("Discard 4 cards to the kitty")
        await expect(self.page.locator(".sm-kitty .card")).to_have_count(4)
        await self.confirm(cards, "Discard 4 cards")
        after = await self.state()
        assert sorted(after["discards"]) == sorted(cards) and len(after["hand"]) == 16

    async def give(self, state: dict[str, Any], cards: list[str]) -> None:
        """Ann was up: she picks exactly the cards she owes the named player and confirms."""
        choice = state["choose"]
        receiver = self.names[choice["to"]]
        isolated = f"\u2068{receiver}\u2069"  # a name in a sentence is isolated from the words around it
        await expect(self.page.locator(".sm-panel h2")).to_have_text(f"Give {cards_n(choice['count'])} to {isolated}")
        if "exchange" not in self.shots:
            await self.card(cards[0]).tap()
            await self.shot("exchange")
            await self.card(cards[0]).tap()
        await self.confirm(cards, f"Give {cards_n(choice['count'])}")
        mine = [x for x in (await self.state())["exchanges"] if x["seat"] == 0]
        assert sorted(mine[-1]["gave"]) == sorted(cards)
        await expect(self.page.locator(".sm-notes")).to_contain_text(f"You gave {receiver}:")

    async def play(self, state: dict[str, Any], card: str) -> None:
        """Only the legal cards are lit; a dimmed one refuses a tap; one tap on a lit card plays it."""
        legal = state["legal"]
        lit = await self.page.locator(".hand .card:not(.illegal)").evaluate_all("els => els.map(e => e.dataset.card)")
        assert sorted(lit) == sorted(legal), "exactly the legal cards are tappable"
        before = await seq_of(self.page)
        illegal = [c for c in state["hand"] if c not in legal]
        toast = bool(illegal and not self.done["dimmed"])
        if toast:
            dimmed = self.card(illegal[0])
            await expect(dimmed).to_be_disabled()
            await dimmed.tap(force=True)
            await expect(self.page.locator("#toast")).to_have_text("You must follow suit.")
            await expect(dimmed).to_have_attribute("aria-pressed", "false")
            assert await seq_of(self.page) == before
            self.done["dimmed"] += 1
        if state["trick"] and state["trick_no"] >= 3 and not toast:
            await self.shot("mid-trick")
        await self.card(card).tap()
        await self.page.wait_for_function(SEQ_PAST, arg=before)

    async def move(self) -> None:
        """Ann's next decision, checked against the server's view and made by tapping."""
        view = await self.server.service.view(self.table_id, ANN_ID)
        await self.page.wait_for_function(SEQ_IS, arg=view["seq"])
        state = view["state"]
        assert state["hand_no"] <= MAX_HANDS, "the browser replays the rehearsed game"
        assert sorted(await hand_of(self.page)) == sorted(state["hand"])
        await expect(self.page.locator(".me .sm-pos")).to_have_text(state["positions"][0])
        action = decide(state)
        phase = state["phase"]
        if phase == "trump":
            await self.name_trumps(state, action["suit"])
        elif phase == "kitty":
            await self.discard(action["cards"])
        elif phase == "exchange":
            await self.give(state, action["cards"])
        else:
            await self.play(state, action["card"])
        self.done[phase] += 1


async def test_sergeant_major_whole_classic_game_by_tapping(
    browser: Any, server: Server, tmp_path_factory: pytest.TempPathFactory
) -> None:
    seed = await short_game_seed(tmp_path_factory.mktemp("rehearsal"))
    ann, table_id = await start_table(browser, server, seed)
    page = ann.page
    names = ["You", *[s.name for s in (await server.service.info(table_id)).seats[1:]]]
    game = Game(page, server, table_id, names)
    while True:
        await page.wait_for_function(TURN_OR_OVER)
        if await page.locator(".sheet.game-over").count():
            break
        await game.move()
    assert game.shots >= {"trump", "mid-trick"}, game.shots
    assert all(game.done[k] >= 1 for k in ("trump", "kitty", "exchange", "dimmed")), game.done

    info = await server.service.info(table_id)
    assert info.status == "finished" and info.result is not None and info.seed == seed
    final = await game.state()
    (winner,) = final["winners"]
    assert final["tricks"][winner] == 12, "a classic game ends the moment someone has 12 tricks in a hand"
    sheet = page.locator(".sheet.game-over")
    await expect(sheet.locator(".winner")).to_contain_text(names[winner])
    await expect(sheet.locator(".seed-value")).to_have_text(seed)
    await expect(sheet).to_contain_text(info.seed_hash)
    await game.shot("game-over")

    await sheet.get_by_role("button", name="View table").tap()
    await expect(page.locator(".sm-panel.over .sm-winner")).to_contain_text(names[winner])
    await expect(page.locator(f'.player[data-seat="{winner}"]')).to_have_class(re.compile(r"\bwinner\b"))
    await expect(page.locator(".sm-final tr.win")).to_contain_text(f"12/{final['targets'][winner]}")
    await game.shot("end-table")
    await page.locator(".sm-result-btn").tap()
    await page.locator(".play-again").tap()  # alone with AI players: the new game starts at once
    await expect(page.locator(".table-screen")).to_have_attribute("data-status", "playing")
    new_id = await page.locator(".table-screen").get_attribute("data-table")
    assert new_id and new_id != table_id
    again = await server.service.info(new_id)
    assert again.game == "sergeant_major" and again.options["first_dealer"] == "host"
    assert ann.errors == []
