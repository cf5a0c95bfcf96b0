"""The small things players notice: the title names the variant, options that do not apply are hidden, Your tables
marks your turn, sound on from the first tap until turned off, and the Kings in the Corner score sheet."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Locator, Page, ViewportSize, expect

from tests.browser.conftest import PHONE, Phone, Server, open_phone, screenshot_path

SEED = "5a11" * 16
SMALL: ViewportSize = {"width": 360, "height": 640}


def user(n: int) -> dict[str, Any]:
    """A Telegram user speaking English."""
    return {"id": 5700 + n, "first_name": "Ann", "language_code": "en"}


async def new_table(server: Server, game: str, uid: int, options: dict[str, Any] | None = None, *,
                    start: bool = True) -> str:
    """A table of ``game`` hosted by ``uid`` with AI players in the other seats, started unless ``start`` is off."""
    info = await server.service.create_table(game, uid, "Ann", options or {}, seed=SEED)
    for _ in range(info.size - 1):
        await server.service.add_ai(info.id, uid)
    if start:
        await server.service.start_game(info.id, uid)
    return info.id


async def shoot(page: Page, name: str, focus: Locator | None = None) -> None:
    """Screenshots of the page at 390×844 and at 360×640, scrolled to ``focus`` when given."""
    for size in (PHONE, SMALL):
        await page.set_viewport_size(size)
        if focus is not None:
            await focus.scroll_into_view_if_needed()
        await page.screenshot(path=str(screenshot_path(f"{name}-{size['width']}x{size['height']}.png")))
    await page.set_viewport_size(PHONE)


async def test_title_names_the_sergeant_major_variant(browser: Any, server: Server) -> None:
    table_id = await new_table(server, "sergeant_major", 5701, {"variant": "nine_five_two"})
    phone: Phone = await open_phone(browser, server, user(1), start_param=table_id)
    page = phone.page
    title = page.locator(".topbar .title")
    await expect(title.locator(".title-game")).to_have_text("Sergeant Major")
    await expect(title.locator(".title-variant")).to_have_text("9-5-2")
    await expect(page.locator(".table-body .hand")).to_be_visible()
    await shoot(page, "title-sm-variant")
    kings_id = await new_table(server, "kings_corner", 5701, {"scoring": "penalty", "penalty_limit": 50})
    await page.goto(f"{server.url}/?table={kings_id}")
    await expect(title.locator(".title-game")).to_have_text("Kings in the Corner")
    await expect(title.locator(".title-variant")).to_have_text("Penalty points to 50")
    await expect(page.locator(".kc-table")).to_be_visible()
    await shoot(page, "title-kings-scoring")
    await page.evaluate("window.Telegram.WebView.receiveEvent('back_button_pressed')")
    items = page.locator(".my-tables .table-link .pname")
    await expect(items).to_have_text(["Kings in the Corner · Penalty points to 50", "Sergeant Major · 9-5-2"])
    await shoot(page, "your-tables-titles", page.locator(".my-tables"))
    assert phone.errors == []


async def test_options_that_do_not_apply_to_the_variant_are_hidden(browser: Any, server: Server) -> None:
    phone = await open_phone(browser, server, user(2))
    page = phone.page
    await page.locator(".game-card[data-game='sergeant_major'] .options-btn").tap()  # the game's Table options
    removed, win_score = page.locator("#opt-removed_card"), page.locator("#opt-win_score")
    # sergeant_major/RULES.md §2.2: classic takes no removed card and no winning score; 6-3-8 removes a card
    await expect(removed).to_be_hidden()
    await expect(win_score).to_be_hidden()
    await expect(page.locator("#opt-kitty_order")).to_be_visible()
    await page.locator("#opt-variant").select_option("six_three_eight")
    await expect(removed).to_be_visible()
    await expect(page.locator("#opt-kitty_order")).to_be_hidden()
    await removed.select_option("2-hearts")
    await shoot(page, "new-game-applying-options", page.locator("#opt-removed_card"))
    await page.locator(".options-sheet .create-btn").tap()
    await expect(page.locator(".lobby")).to_be_visible()
    table_id = await page.locator(".table-screen").get_attribute("data-table")
    assert table_id
    info = await server.service.info(table_id)
    assert (info.options["variant"], info.options["removed_card"]) == ("six_three_eight", "2-hearts")
    options = page.locator(".lobby .options")
    await expect(options.locator('select[name="removed_card"]')).to_be_visible()
    await expect(options.locator('select[name="kitty_order"]')).to_have_count(0)
    # the host picks 9-5-2: the removed card stops applying (and goes back to its default), the winning score shows
    await options.locator('select[name="variant"]').select_option("nine_five_two")
    await expect(options.locator('select[name="win_score"]')).to_be_visible()
    await expect(options.locator('select[name="removed_card"]')).to_have_count(0)
    info = await server.service.info(table_id)
    assert (info.options["variant"], info.options["removed_card"]) == ("nine_five_two", "2-clubs")
    await shoot(page, "lobby-applying-options", options)
    assert phone.errors == []


async def test_your_tables_marks_the_tables_waiting_for_your_move(browser: Any, server: Server) -> None:
    ann = 5703
    # coins/RULES.md §3.2: the seat after the dealer leads: Ann (seat 0) at the first table, Bob (seat 1) at the second
    mine = await new_table(server, "coins", ann, {"first_dealer": "seat:2"})
    info = await server.service.create_table("coins", ann, "Ann", {"first_dealer": "seat:0"}, seed=SEED)
    await server.service.join(info.id, 5799, "Bob")
    await server.service.add_ai(info.id, ann)
    await server.service.start_game(info.id, ann)
    assert (await server.service.info(mine)).to_act == (0,)
    assert (await server.service.info(info.id)).to_act == (1,)
    lesson = await server.service.start_lesson("kings_corner", ann, "Ann")
    await server.service.autoplay.idle()
    phone = await open_phone(browser, server, user(3))
    page = phone.page
    links = page.locator(".my-tables .table-link")
    await expect(links).to_have_count(3)
    # the tables waiting for Ann first, newest first: the lesson (her move), marked as one, and the first table;
    # then Bob's turn at the second, though it is newer than the first
    await expect(links.nth(0).locator(".badge.lesson")).to_have_text("Lesson")
    await expect(links.nth(0).locator(".badge.turn")).to_have_text("Your turn")
    await expect(page.locator(".my-tables .badge.lesson")).to_have_count(1)
    await expect(links.nth(1).locator(".badge.turn")).to_have_text("Your turn")
    await expect(links.nth(2).locator(".badge.turn")).to_have_count(0)
    assert (await server.service.info(lesson.id)).lesson
    await shoot(page, "your-tables-your-turn", page.locator(".my-tables"))
    assert phone.errors == []


# Counts the AudioContexts the page makes, and the notes it schedules, before any page script runs.
COUNT_AUDIO = """(() => {
  window.__audio = { contexts: 0, notes: 0 };
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.__audio.contexts += 1; }
    createOscillator() { window.__audio.notes += 1; return super.createOscillator(); }
  };
})();"""


async def test_sound_is_on_from_the_first_tap_and_one_tap_turns_it_off_for_good(browser: Any, server: Server) -> None:
    table_id = await new_table(server, "coins", 5704, {"first_dealer": "seat:2"})
    phone = await open_phone(browser, server, user(4), start_param=table_id)
    page = phone.page
    await phone.context.add_init_script(COUNT_AUDIO)
    await page.reload()
    toggle = page.locator(".topbar .sound-btn")
    await expect(toggle).to_have_attribute("aria-pressed", "true")
    await expect(page.locator(".hand .card")).to_have_count(16)
    await expect(page.locator(".topbar .title")).to_have_text("Coins")  # the game's default: no line under it
    # it is Ann's turn (the chime's moment) and sound is on, yet the browser allows no audio before a tap
    assert await page.evaluate("window.__audio") == {"contexts": 0, "notes": 0}
    assert await page.evaluate("localStorage.getItem('cardroom.sound')") is None
    card = await page.locator(".hand .card").first.get_attribute("data-card")
    await page.locator(f'.hand .card[data-card="{card}"]').tap()  # the first tap starts the audio, and plays it
    assert await page.evaluate("window.__audio.contexts") == 1
    await page.wait_for_function("() => window.__audio.notes > 0")  # played: its card lands with a blip
    await toggle.tap()
    await expect(toggle).to_have_attribute("aria-pressed", "false")
    assert await page.evaluate("localStorage.getItem('cardroom.sound')") == "off"
    # a reload remembers the choice: taps make no audio at all
    await page.reload()
    await expect(toggle).to_have_attribute("aria-pressed", "false")
    await expect(page.locator(".hand .card")).to_have_count(15)
    await page.locator(".hand .card").first.tap()
    assert await page.evaluate("window.__audio.contexts") == 0
    await toggle.tap()  # and one tap turns it back on, answering with a blip
    await expect(toggle).to_have_attribute("aria-pressed", "true")
    assert await page.evaluate("localStorage.getItem('cardroom.sound')") == "on"
    await page.wait_for_function("window.__audio.notes > 0")
    await shoot(page, "sound-on")
    assert phone.errors == []


def kings_move(state: dict[str, Any]) -> dict[str, Any]:
    """Ann's move: any card or pile move she has, else ending her turn."""
    legal: list[dict[str, Any]] = state["legal"]
    return next((a for a in legal if a["type"] != "end_turn"), legal[0])


async def test_kings_score_sheet_shows_each_hand_after_it_ends(browser: Any, server: Server) -> None:
    ann = 5705
    table_id = await new_table(server, "kings_corner", ann, {"players": 2, "scoring": "penalty", "penalty_limit": 999})
    for _ in range(3000):  # Ann plays through the service until the first hand is over
        await server.service.autoplay.idle()
        view = await server.service.view(table_id, ann)
        if view["state"]["hand_no"] == 2:
            break
        assert view["state"]["turn"] == 0  # the AI has moved: Ann is to act
        await server.service.act(table_id, ann, kings_move(view["state"]), view["seq"])
    state = view["state"]
    assert state["hand_no"] == 2
    penalties, totals = state["penalties"], state["totals"]
    # kings_corner/RULES.md §4 penalty: who went out scores 0 for the hand; the other pays per card left (at least 1)
    assert sorted(p == 0 for p in penalties) == [False, True] or min(penalties) > 0
    assert totals == penalties  # after one hand the totals are that hand's points
    phone = await open_phone(browser, server, user(5), start_param=table_id)
    page = phone.page
    await page.locator(".kc-scorebar .score-btn").tap()
    sheet = page.locator(".sheet.scores-sheet")
    await expect(sheet.locator("thead th")).to_have_text(["", "You", "Ada (AI)"])
    out = ["0 ✓" if p == 0 else str(p) for p in penalties]
    blocked = min(penalties) > 0
    await expect(sheet.locator("tbody tr")).to_have_count(1)
    await expect(sheet.locator("tbody tr th")).to_have_text("Hand 1, blocked" if blocked else "Hand 1")
    await expect(sheet.locator("tbody tr td")).to_have_text(out)
    await expect(sheet.locator("tfoot td")).to_have_text([str(n) for n in totals])
    await expect(sheet.locator(".hint")).to_contain_text("✓ marks who went out")
    await shoot(page, "kings-score-sheet")
    assert phone.errors == []
