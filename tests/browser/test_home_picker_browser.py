"""Home as a game picker: your open tables first (your turn on top), then a card per game with Play (a started game
against AI players in one tap), Learn (the lesson in one tap) and Table options (remembered per game, summed up
under the game's name, with a table for friends that waits in the lobby)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import Page, ViewportSize, expect

from tests.browser.conftest import PHONE, Phone, Server, in_view, open_phone, screenshot_path

SMALL: ViewportSize = {"width": 360, "height": 640}
COINS = ".game-card[data-game='coins']"
SERGEANT = ".game-card[data-game='sergeant_major']"
KINGS = ".game-card[data-game='kings_corner']"
# every tap and click the page receives, counted across the sign-in and the screens after it (the page never reloads)
TAP_COUNTER = """() => {
  window.__taps = 0;
  document.addEventListener("click", () => { window.__taps += 1; }, true);
}"""
TEXT: dict[str, dict[str, str]] = {
    "en": {"play": "Play", "learn": "Learn", "standard": "Standard rules", "changed": "First to 15 · Strong AI",
           "target": "First to 15", "blurb": "3 players · Win the Coins in tricks"},
    "ko": {"play": "플레이", "learn": "배우기", "standard": "기본 규칙", "changed": "15점 선승 · 강한 AI",
           "target": "15점 선승", "blurb": "3명 · 트릭에서 코인을 모아요"},
    "ru": {"play": "Играть", "learn": "Обучение", "standard": "Стандартные правила",
           "changed": "Играем до 15 · Сильный ИИ", "target": "Играем до 15",
           "blurb": "3 игрока · Собирай монеты во взятках"},
    "lv": {"play": "Spēlēt", "learn": "Mācīties", "standard": "Standarta noteikumi",
           "changed": "Spēle līdz 15 · Spēcīgs MI", "target": "Spēle līdz 15",
           "blurb": "3 spēlētāji · Iegūsti monētas stiķos"},
}
# whatever a card holds stays inside it: no button's words cut, no line wider than the card, nothing scrolling sideways
FITS_JS = """() => {
  const bad = [];
  for (const card of document.querySelectorAll(".game-card")) {
    const box = card.getBoundingClientRect();
    for (const el of card.querySelectorAll(".btn, .game-name, .game-blurb")) {
      if (!el.getClientRects().length) continue; // not drawn (a blurb while tables are open)
      const r = el.getBoundingClientRect();
      if (el.scrollWidth > el.clientWidth + 1 || r.left < box.left - 0.5 || r.right > box.right + 0.5) {
        bad.push(`${card.dataset.game}: ${el.className} "${el.textContent}"`);
      }
    }
  }
  if (document.scrollingElement.scrollWidth > window.innerWidth) bad.push("the page scrolls sideways");
  return bad;
}"""


def user(n: int, lang: str = "en", name: str = "Ann") -> dict[str, Any]:
    """A Telegram user speaking ``lang``."""
    return {"id": 9300 + n, "first_name": name, "language_code": lang}


async def taps(page: Page) -> int:
    count: int = await page.evaluate("window.__taps")
    return count


async def table_on_screen(page: Page) -> str:
    """The id of the table the page shows."""
    table_id = await page.locator(".table-screen").get_attribute("data-table")
    assert table_id
    return table_id


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_home_picker_first_time_player_is_at_a_running_game_in_two_taps_and_at_the_lesson_in_one(
    browser: Any, local_server: Server, lang: str
) -> None:
    phone = await open_phone(browser, local_server, path=f"/?lang={lang}", viewport=SMALL)
    page = phone.page
    await expect(page.locator("html")).to_have_attribute("lang", lang)
    await page.evaluate(TAP_COUNTER)
    await page.locator("#signin-name").fill("Ann")
    await page.locator(".signin button[type=submit]").tap()
    await expect(page.locator(".game-card")).to_have_count(3)
    await expect(page.locator(".game-card").first).to_have_attribute("data-game", "coins")
    await expect(page.locator(f"{COINS} .game-blurb")).to_have_text(TEXT[lang]["blurb"])
    await expect(page.locator(f"{COINS} .game-summary")).to_be_hidden()  # the standard rules need no words
    await expect(page.locator(f"{COINS} .play-btn")).to_have_text(TEXT[lang]["play"])
    await expect(page.locator(f"{COINS} .learn-btn")).to_have_text(TEXT[lang]["learn"])
    await in_view(page, f"{COINS} .play-btn")
    await in_view(page, f"{COINS} .learn-btn")
    assert await page.evaluate(FITS_JS) == []

    await page.locator(f"{COINS} .play-btn").tap()
    # a started game, not a lobby: the hand is dealt and nobody waits for a Start
    await expect(page.locator(".table-screen[data-status='playing'] .hand .card")).to_have_count(16)
    await expect(page.locator(".lobby")).to_have_count(0)
    assert await taps(page) == 2  # Sign in, then Play
    info = await local_server.service.info(await table_on_screen(page))
    assert info.status == "playing" and not info.lesson
    assert [s.is_ai for s in info.seats] == [False, True, True]
    assert info.options["target_score"] == 10 and info.timer == "none" and info.ai_level == "easy"

    await page.locator(".home-btn").tap()
    await expect(page.locator(".my-tables .table-link")).to_have_count(1)
    await page.evaluate("window.__taps = 0")
    await page.locator(f"{COINS} .learn-btn").tap()
    await expect(page.locator(".coach[data-step='welcome']")).to_be_visible()
    assert await taps(page) == 1
    lesson = await local_server.service.info(await table_on_screen(page))
    assert lesson.lesson and lesson.status == "playing" and lesson.game == "coins"
    assert phone.errors == []
    await phone.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_home_picker_table_options_are_summed_up_remembered_and_played(
    browser: Any, server: Server, lang: str
) -> None:
    ann = user(1 + ["en", "ru"].index(lang), lang)
    phone = await open_phone(browser, server, ann, viewport=SMALL)
    page = phone.page
    summary = page.locator(f"{COINS} .game-summary")
    await expect(page.locator(f"{COINS} .play-btn")).to_be_visible()
    await expect(summary).to_be_hidden()
    await page.locator(f"{COINS} .options-btn").tap()
    sheet = page.locator(".sheet.options-sheet")
    await expect(sheet.locator(".options-now")).to_have_text(TEXT[lang]["standard"])
    await expect(sheet.locator(".reset-options")).to_be_hidden()
    await sheet.locator("#opt-target_score").select_option("15")
    await sheet.locator("#opt-ai_level").select_option("strong")
    await expect(sheet.locator(".options-now")).to_have_text(TEXT[lang]["changed"])
    await expect(summary).to_have_text(TEXT[lang]["changed"])  # the card says so while the sheet is open
    await sheet.locator(".sheet-close").tap()
    await expect(sheet).to_have_count(0)
    await expect(summary).to_have_text(TEXT[lang]["changed"])

    await page.reload()  # remembered on this device, for this game only
    await expect(summary).to_have_text(TEXT[lang]["changed"])
    await expect(page.locator(f"{SERGEANT} .game-summary")).to_be_hidden()
    await page.locator(f"{COINS} .play-btn").tap()
    await expect(page.locator(".table-screen[data-status='playing'] .hand .card")).to_have_count(16)
    await expect(page.locator(".coins-table .target")).to_have_text(TEXT[lang]["target"])
    info = await server.service.info(await table_on_screen(page))
    assert info.options["target_score"] == 15 and info.ai_level == "strong" and info.timer == "none"
    view = await server.service.view(info.id, ann["id"])
    assert view["table"]["options"]["target_score"] == 15
    assert phone.errors == []
    await phone.context.close()


async def test_home_picker_shows_only_the_variants_settings_and_opens_a_lobby_for_friends(
    browser: Any, server: Server
) -> None:
    ann = user(10)
    phone = await open_phone(browser, server, ann, viewport=SMALL)
    page = phone.page
    await page.locator(f"{SERGEANT} .options-btn").tap()
    sheet = page.locator(".sheet.options-sheet")
    await expect(sheet.locator("#opt-kitty_order")).to_be_visible()
    await expect(sheet.locator("#opt-win_score")).to_be_hidden()
    await sheet.locator("#opt-variant").select_option("nine_five_two")
    await expect(sheet.locator("#opt-kitty_order")).to_be_hidden()
    await sheet.locator("#opt-win_score").select_option("20")
    summary = page.locator(f"{SERGEANT} .game-summary")
    await expect(summary).to_have_text("9-5-2 · Winning score: 20")
    # back to the standard rules in one tap: the summary goes, the variant's own settings with it
    await sheet.locator(".reset-options").tap()
    await expect(sheet.locator("#opt-variant")).to_have_value("classic")
    await expect(sheet.locator("#opt-win_score")).to_be_hidden()
    await expect(summary).to_be_hidden()
    assert await page.evaluate("localStorage.getItem('cardroom.choices.sergeant_major')") is None
    await sheet.locator("#opt-variant").select_option("six_three_eight")
    await expect(sheet.locator("#opt-removed_card")).to_be_visible()
    await sheet.locator(".sheet-close").tap()

    await page.locator(f"{KINGS} .options-btn").tap()
    await expect(sheet.locator("#opt-players option")).to_have_text(["2", "3", "4"])
    await expect(sheet.locator("#opt-players")).to_have_value("2")  # a first game where you act every other turn
    await sheet.locator("#opt-players").select_option("3")
    await sheet.locator("#opt-timer").select_option("relaxed")
    await expect(sheet.locator(".options-now")).to_have_text("3 players · 24 h a move")
    await sheet.locator(".create-btn").tap()
    lobby = page.locator(".table-screen[data-status='lobby'] .lobby")
    await expect(lobby).to_be_visible()
    await expect(lobby.locator(".seats li")).to_have_count(3)
    await expect(lobby.locator(".seats li.free")).to_have_count(2)
    await expect(lobby.locator(".start-btn")).to_be_visible()
    info = await server.service.info(await table_on_screen(page))
    assert info.status == "lobby" and info.game == "kings_corner" and info.size == 3 and info.timer == "relaxed"
    assert [s.user_id for s in info.seats] == [ann["id"], None, None]

    await phone.deliver("back_button_pressed")  # Telegram's own Back button leads home
    await expect(page.locator(f"{KINGS} .game-summary")).to_have_text("3 players · 24 h a move")
    # the variant chosen last stays for Sergeant Major's next table
    await expect(page.locator(f"{SERGEANT} .game-summary")).to_have_text("6-3-8")
    assert phone.errors == []
    await phone.context.close()


async def new_tables(server: Server, uid: int) -> dict[str, str]:
    """Ann's open tables, oldest first: a started one waiting for her move, a lobby, and a started one where Bob,
    her only opponent, is to move."""
    mine = await server.service.create_table("sergeant_major", uid, "Ann", {"first_dealer": "host"}, seed="picker 1")
    for _ in range(2):
        await server.service.add_ai(mine.id, uid)
    await server.service.start_game(mine.id, uid)  # Ann deals and names trumps: her move
    lobby = await server.service.create_table("coins", uid, "Ann")
    bobs = await server.service.create_table("kings_corner", uid, "Ann", {"players": 2, "first_dealer": "seat:0"},
                                             seed="picker 2")
    await server.service.join(bobs.id, uid + 1, "Bob")
    await server.service.start_game(bobs.id, uid)  # the player left of the dealer, Bob, moves first
    for table_id in (mine.id, bobs.id):
        await server.service.autoplay.idle()
        info = await server.service.info(table_id)
        assert info.status == "playing", table_id
    assert (await server.service.info(mine.id)).to_act == (0,)
    assert (await server.service.info(bobs.id)).to_act == (1,)
    return {"mine": mine.id, "lobby": lobby.id, "bobs": bobs.id}


async def test_home_picker_lists_your_tables_first_with_your_turn_on_top(browser: Any, server: Server) -> None:
    ann = user(20)
    await new_tables(server, ann["id"])
    phone = await open_phone(browser, server, ann, viewport=SMALL)
    page = phone.page
    links = page.locator(".my-tables .table-link")
    await expect(links).to_have_count(3)
    before = await page.evaluate("""() => Boolean(document.querySelector('.my-tables').compareDocumentPosition(
        document.querySelector('.game-picker')) & Node.DOCUMENT_POSITION_FOLLOWING)""")
    assert before, "your tables come before the games"
    # the table waiting for Ann first, though it is the oldest; then the others, newest first
    await expect(links.locator(".table-link-title .pname")).to_have_text(
        ["Sergeant Major (3-5-8)", "Kings in the Corner", "Coins"])
    await expect(links.nth(0)).to_have_class(re.compile(r"\bmy-turn\b"))
    await expect(links.nth(0).locator(".badge.turn")).to_have_text("Your turn")
    await expect(links.locator(".badge.turn")).to_have_count(1)
    await in_view(page, ".my-tables .badge.turn")
    await in_view(page, f"{COINS} .play-btn")  # the games stay on the first screen
    await in_view(page, f"{COINS} .learn-btn")

    # five open: one shelf that scrolls sideways (the page does not), the table waiting for Ann first, the games
    # where they were
    for _ in range(2):
        await server.service.create_table("coins", ann["id"], "Ann")
    await page.reload()
    await expect(links).to_have_count(5)
    await expect(links.nth(0)).to_have_class(re.compile(r"\bmy-turn\b"))
    shelf = await page.locator(".my-tables .shelf").evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert shelf[0] > shelf[1], "the shelf scrolls sideways"
    assert await page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), "the page does not"
    await in_view(page, f"{COINS} .play-btn")
    await links.nth(4).scroll_into_view_if_needed()
    await in_view(page, ".my-tables li:last-child .table-link")
    await links.nth(0).tap()
    await expect(page.locator(".table-screen[data-status='playing']")).to_be_visible()
    assert phone.errors == []
    await phone.context.close()


async def shoot(phone: Phone, name: str) -> None:
    await phone.page.wait_for_timeout(300)  # the fonts and the cards' art painted
    await phone.page.screenshot(path=str(screenshot_path(name)))


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_home_picker_screens_in_both_sizes_and_schemes(browser: Any, server: Server, scheme: str) -> None:
    n = 30 + ["light", "dark"].index(scheme)
    ann = user(n)
    await new_tables(server, ann["id"])
    for size in (SMALL, PHONE):
        phone = await open_phone(browser, server, ann, viewport=size, scheme=scheme)
        page = phone.page
        await expect(page.locator(".my-tables .table-link")).to_have_count(3)
        await page.evaluate("localStorage.setItem('cardroom.choices.coins', JSON.stringify({target_score: 15}))")
        await page.reload()
        await expect(page.locator(f"{COINS} .game-summary")).to_have_text("First to 15")
        assert await page.evaluate(FITS_JS) == []
        where = f"{size['width']}x{size['height']}"
        await shoot(phone, f"home-picker-{where}-{scheme}.png")
        await page.locator(f"{SERGEANT} .options-btn").tap()
        sheet = page.locator(".sheet.options-sheet")
        await expect(sheet.locator(".create-btn")).to_be_visible()
        # Play and the table for friends stay at the sheet's foot, in view, however long its options
        for button in (".play-btn", ".create-btn"):
            box = await sheet.locator(button).bounding_box()
            assert box is not None and box["y"] + box["height"] <= size["height"], (button, box)
        await shoot(phone, f"home-picker-options-{where}-{scheme}.png")
        assert phone.errors == []
        await phone.context.close()


@pytest.mark.parametrize("lang", ["ru", "ko", "lv"])
async def test_home_picker_words_fit_their_cards_in_every_language(browser: Any, server: Server, lang: str) -> None:
    ann = user(40 + ["ru", "ko", "lv"].index(lang), lang)
    await new_tables(server, ann["id"])
    phone = await open_phone(browser, server, ann, viewport=SMALL)
    page = phone.page
    await expect(page.locator("html")).to_have_attribute("lang", lang)
    await expect(page.locator(f"{COINS} .game-blurb")).to_have_text(TEXT[lang]["blurb"])
    await page.evaluate("localStorage.setItem('cardroom.choices.coins', JSON.stringify({target_score: 15, "
                        "ai_level: 'strong'}))")
    await page.reload()
    await expect(page.locator(f"{COINS} .game-summary")).to_have_text(TEXT[lang]["changed"])
    await expect(page.locator(f"{COINS} .play-btn")).to_have_text(TEXT[lang]["play"])
    assert await page.evaluate(FITS_JS) == []
    await in_view(page, f"{COINS} .learn-btn")
    await shoot(phone, f"home-picker-{lang}-360x640.png")
    await page.locator(f"{KINGS} .options-btn").tap()
    sheet = page.locator(".sheet.options-sheet")
    await expect(sheet.locator(".create-btn")).to_be_visible()
    cut = await sheet.locator(".btn").evaluate_all("els => els.filter((e) => e.scrollWidth > e.clientWidth + 1)"
                                                   ".map((e) => e.textContent)")
    assert cut == []
    await shoot(phone, f"home-picker-options-{lang}-360x640.png")
    assert phone.errors == []
    await phone.context.close()


@pytest.mark.parametrize("lang", ["en", "ru", "ko", "lv"])
@pytest.mark.parametrize("tables", [0, 3])
async def test_every_games_play_and_learn_are_on_a_small_phones_first_screen(browser: Any, server: Server,
                                                                            lang: str, tables: int) -> None:
    """With no open table and with three, each game's Play and Learn are in view at 360×640 without scrolling, in
    every language (the third game's used to start below the fold, and below the second with three tables open):
    Table options and How to play sit beside them as icons, an open table takes one line."""
    ann = user(50 + 10 * tables + ["en", "ru", "ko", "lv"].index(lang), lang)
    for game, start, options in (("coins", False, {}), ("sergeant_major", True, {"first_dealer": "host"}),
                                 ("kings_corner", True, {})):
        if tables:  # a lobby, a game waiting for Ann (she names trumps) and one waiting for the AI players
            info = await server.service.create_table(game, ann["id"], "Ann", options)
            for _ in range(info.size - 1):
                await server.service.add_ai(info.id, ann["id"])
            if start:
                await server.service.start_game(info.id, ann["id"])
    phone = await open_phone(browser, server, ann, viewport=SMALL)
    page = phone.page
    await expect(page.locator("html")).to_have_attribute("lang", lang)
    await expect(page.locator(".my-tables .table-link")).to_have_count(tables)
    if tables:
        await in_view(page, ".my-tables li:first-child .badge.turn")
    for game in (COINS, SERGEANT, KINGS):
        await in_view(page, f"{game} .play-btn")
        await in_view(page, f"{game} .learn-btn")
        for icon in (".options-btn", ".rules-btn"):  # named for screen readers, 44 px to tap
            assert await page.locator(f"{game} {icon}").get_attribute("aria-label")
            box = await page.locator(f"{game} {icon}").bounding_box()
            assert box is not None and box["width"] >= 44 and box["height"] >= 44, (game, icon, box)
    await page.screenshot(path=str(screenshot_path(f"home-games-{tables}-tables-{lang}-360x640.png")))
    assert phone.errors == []
    await phone.context.close()
