"""The record in a browser: History, a replay with every hand and its seed checked, leaderboards, spectators."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page, ViewportSize, expect

from engine import games
from tests.browser.conftest import BOT_USERNAME, SHORT_NAME, Phone, Server, open_phone, screenshot_path
from tests.service.helpers import play_out

ANN: dict[str, Any] = {"id": 5301, "first_name": "Ann", "language_code": "en"}
BOB: dict[str, Any] = {"id": 5302, "first_name": "Bob", "language_code": "en"}
DAN: dict[str, Any] = {"id": 5304, "first_name": "Dan", "language_code": "en"}
GROUP = -100_777_000_123
SMALL: ViewportSize = {"width": 360, "height": 640}
NOT_IN_GROUP = "Only people who have played in that group can see its leaderboard."


async def finished_coins(server: Server) -> str:
    """A Coins game to 1 point in the group, Ann and Bob against an AI, played out through the service."""
    service = server.service
    info = await service.create_table("coins", ANN["id"], "Ann", {"target_score": 1}, chat_id=GROUP)
    await service.join(info.id, BOB["id"], "Bob")
    await service.add_ai(info.id, ANN["id"])
    await service.start_game(info.id, ANN["id"])
    await play_out(service, info.id)
    assert (await service.info(info.id)).status == "finished"
    return info.id


async def rules_hands(server: Server, table_id: str, seq: int) -> list[list[str]]:
    """Every seat's hand after ``seq`` moves, from the rules' own replay of the stored log."""
    row = await server.service.store.tables.load_table(table_id)
    assert row is not None
    game = games.get(row.game)
    log = await server.service.store.tables.load_actions(table_id)
    state = game.replay(game.parse_options(row.options), row.size, row.seed, [(a.seat, a.action) for a in log[:seq]])
    return [sorted(game.view(state, seat)["hand"]) for seat in range(row.size)]


async def shown_hands(page: Page) -> list[list[str]]:
    """Every seat's hand as the replay shows it."""
    texts: list[str] = await page.locator(".rp-seat .rp-hand").evaluate_all("els => els.map(e => e.dataset.cards)")
    return [sorted(text.split()) if text else [] for text in texts]


async def at_step(page: Page) -> int:
    return int(await page.locator(".replay-screen").get_attribute("data-step") or "-1")


async def shot(phone: Phone, name: str) -> None:
    """Screenshots at 390×844 and 360×640, the whole scrolled page."""
    page = phone.page
    await page.screenshot(path=str(screenshot_path(f"{name}-390x844.png")), full_page=True)
    await page.set_viewport_size(SMALL)
    await page.wait_for_timeout(150)
    overflow = await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name} spills sideways at 360 px"
    await page.screenshot(path=str(screenshot_path(f"{name}-360x640.png")), full_page=True)
    await page.set_viewport_size({"width": 390, "height": 844})


async def test_history_opens_a_replay_whose_hands_are_the_rules_and_whose_seed_is_verified(
    browser: Any, server: Server
) -> None:
    table_id = await finished_coins(server)
    ann = await open_phone(browser, server, ANN)
    page = ann.page
    await page.locator("#tab-history").tap()
    record = page.locator(f'.record[data-table="{table_id}"]')
    await expect(record).to_be_visible()
    await expect(record.locator(".record-game")).to_have_text("Coins")
    await expect(record.locator(".record-variant")).to_have_text("First to 1")
    await expect(record.locator(".record-seats li")).to_have_count(3)
    await expect(record.locator(".record-seats li.you .pname")).to_have_text("You")
    await expect(record.locator(".record-seats")).to_contain_text("Bob")
    await shot(ann, "record-history")

    await record.locator(".replay-btn").tap()
    screen = page.locator(".replay-screen")
    await expect(screen).to_have_attribute("data-seed", "verified")
    await expect(page.locator(".rp-verify")).to_contain_text("Verified")
    await expect(screen).to_have_attribute("data-step", "0")
    assert await shown_hands(page) == await rules_hands(server, table_id, 0)
    assert all(len(hand) == 16 for hand in await shown_hands(page))

    for _ in range(3):
        await page.locator(".rp-forward").tap()
    await expect(screen).to_have_attribute("data-step", "3")
    await expect(page.locator(".rp-trick .card")).to_have_count(3)
    assert await shown_hands(page) == await rules_hands(server, table_id, 3)
    await page.locator(".rp-back").tap()
    await expect(screen).to_have_attribute("data-step", "2")
    assert await shown_hands(page) == await rules_hands(server, table_id, 2)
    played = (await server.service.store.tables.load_actions(table_id))[1]
    await expect(page.locator(".rp-what")).to_contain_text("played")
    await expect(page.locator(f'.rp-trick .card.just[data-card="{played.action["card"]}"]')).to_have_count(1)

    moves = len(await server.service.store.tables.load_actions(table_id))
    await expect(screen).to_have_attribute("data-loaded", str(moves + 1))
    middle = moves // 2
    await page.locator(".rp-slider").evaluate(
        "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', {bubbles: true})); }", middle)
    await expect(screen).to_have_attribute("data-step", str(middle))
    assert await shown_hands(page) == await rules_hands(server, table_id, middle)
    await shot(ann, "record-replay")

    await page.locator(".rp-next-hand").tap()  # a game to 1 point: one hand, so the last move
    await expect(screen).to_have_attribute("data-step", str(moves))
    assert await shown_hands(page) == await rules_hands(server, table_id, moves)
    await page.locator(".rp-prev-hand").tap()
    await expect(screen).to_have_attribute("data-step", "0")

    # Coins, three players: a trick is three moves, and the third card's step begins the next trick
    for button, step in ((".rp-next-trick", 3), (".rp-next-trick", 6), (".rp-prev-trick", 3), (".rp-prev-trick", 0)):
        await page.locator(button).tap()
        await expect(screen).to_have_attribute("data-step", str(step))
    await expect(page.locator(".rp-caption .rp-where")).to_contain_text("Trick 1")
    jumps = page.locator(".rp-jumps")
    await expect(jumps).to_have_attribute("aria-label", "Jump to a hand or trick")
    await expect(jumps.locator(".rp-next-trick")).to_have_attribute("aria-label", "Next trick")
    for box in [await b.bounding_box() for b in await jumps.locator("button").all()]:
        assert box is not None and box["width"] >= 44 and box["height"] >= 44

    await page.locator(".rp-speed").select_option(label="4×")
    await page.locator(".rp-toggle").tap()
    await expect(screen).to_have_attribute("data-playing", "true")
    await page.wait_for_function("() => Number(document.querySelector('.replay-screen').dataset.step) >= 3")
    await page.locator(".rp-toggle").tap()
    await expect(screen).to_have_attribute("data-playing", "false")
    paused = await at_step(page)
    await page.wait_for_timeout(700)
    assert await at_step(page) == paused
    assert ann.errors == []


async def test_a_replay_opens_from_its_link_and_from_telegrams_start_parameter(browser: Any, server: Server) -> None:
    table_id = await finished_coins(server)
    dan = await open_phone(browser, server, DAN, start_param=f"r_{table_id}")  # anyone signed in may open a replay
    await expect(dan.page.locator(".replay-screen")).to_have_attribute("data-seed", "verified")
    assert "replay=" in dan.page.url
    await dan.page.locator(".rp-forward").tap()
    assert await shown_hands(dan.page) == await rules_hands(server, table_id, 1)
    await dan.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    await dan.page.locator(".rp-share button").tap()
    shared = await dan.page.evaluate("navigator.clipboard.readText()")
    assert shared == f"https://t.me/{BOT_USERNAME}/{SHORT_NAME}?startapp=r_{table_id}"  # as the bot's Links.replay
    bob = await open_phone(browser, server, BOB, path=f"/?replay={table_id}")
    await expect(bob.page.locator(".replay-screen")).to_have_attribute("data-step", "0")
    assert dan.errors == [] and bob.errors == []


async def test_leaderboard_shows_a_groups_players_to_each_other_and_refuses_an_outsider_in_words(
    browser: Any, server: Server
) -> None:
    await finished_coins(server)
    ann = await open_phone(browser, server, ANN)
    await ann.page.locator("#tab-leaderboard").tap()
    rows = ann.page.locator(".board tbody tr")
    await expect(rows).to_have_count(2)  # people only: the AI seat has no rating
    await expect(ann.page.locator(".board tr.you .pname")).to_have_text("You")
    await expect(ann.page.locator(".board")).to_contain_text("Bob")
    # Bob's name isolated (U+2068 … U+2069): an <option> holds no <bdi>, and a right-to-left name would reorder it
    await expect(ann.page.locator("#lb-group option")).to_have_text(["Group 1: \u2068Bob\u2069",
                                                                    "People you played with"])
    handle = await ann.page.locator("#lb-group").input_value()
    assert str(GROUP) not in await ann.page.content()
    await shot(ann, "record-leaderboard")

    bob = await open_phone(browser, server, BOB, path="/?tab=leaderboard")
    await expect(bob.page.locator(".board tbody tr")).to_have_count(2)
    await expect(bob.page.locator(".board tr.you .pname")).to_have_text("You")
    await expect(bob.page.locator(".board")).to_contain_text("Ann")
    assert await bob.page.locator("#lb-group").input_value() == handle

    dan = await open_phone(browser, server, DAN, path=f"/?tab=leaderboard&group={handle}&game=coins")
    await expect(dan.page.locator(".leaderboard .refusal")).to_have_text(NOT_IN_GROUP)
    await expect(dan.page.locator(".board")).to_have_count(0)
    assert ann.errors == [] and bob.errors == []
    assert [e for e in dan.errors if "403" not in e] == []  # the browser logs the refused request itself


async def test_a_spectator_sees_no_hand_and_the_players_see_one_watching(browser: Any, server: Server) -> None:
    service = server.service
    info = await service.create_table("coins", ANN["id"], "Ann", chat_id=GROUP)
    await service.add_ai(info.id, ANN["id"])
    await service.add_ai(info.id, ANN["id"])
    await service.start_game(info.id, ANN["id"])
    ann = await open_phone(browser, server, ANN, start_param=info.id)
    await expect(ann.page.locator(".hand .card").first).to_be_visible()
    await expect(ann.page.locator(".watching-count")).to_be_hidden()

    dan = await open_phone(browser, server, DAN, start_param=info.id)
    await expect(dan.page.locator(".coins-table")).to_be_visible()
    await expect(dan.page.locator(".hand")).to_contain_text("You are watching this table.")
    await expect(dan.page.locator(".hand .card")).to_have_count(0)
    await expect(ann.page.locator(".watching-count")).to_have_text("1")
    await expect(ann.page.locator(".watching-count .eye svg")).to_be_visible()
    await expect(ann.page.locator(".watching-count")).to_have_attribute("aria-label", "1 person watching")
    await ann.page.screenshot(path=str(screenshot_path("record-watching-390x844.png")))
    await dan.context.close()
    await expect(ann.page.locator(".watching-count")).to_be_hidden()
    assert ann.errors == []


async def test_the_record_pages_speak_russian(browser: Any, server: Server) -> None:
    table_id = await finished_coins(server)
    russian = {**ANN, "language_code": "ru"}
    ann = await open_phone(browser, server, russian, path="/?tab=history&lang=ru", locale="ru-RU")
    page = ann.page
    await expect(page.locator(".tabs .tab")).to_have_text(["Столы", "История", "Рейтинг"])
    await expect(page.locator(".record-seats li.you .pname")).to_have_text("Ты")
    await page.locator(f'.record[data-table="{table_id}"] .replay-btn').tap()
    await expect(page.locator(".rp-verify")).to_have_text(
        "Проверено: отпечаток ключа (SHA-256) совпадает с показанным в начале.")
    await expect(page.locator(".rp-position")).to_contain_text(" из ")
    await shot(ann, "record-replay-ru")
    assert ann.errors == []
