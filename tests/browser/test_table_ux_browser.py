"""The table people learn in one game and trust: rules sheets, followable tricks, fair deals checked in the page,
and every table fitting a small phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import Phone, Server, open_phone, screenshot_path

GAMES = ["coins", "sergeant_major", "kings_corner"]
SEED = "5eed" * 16


def user(n: int) -> dict[str, Any]:
    """A Telegram user speaking English."""
    return {"id": 5600 + n, "first_name": "Ann", "language_code": "en"}


async def new_table(server: Server, game: str, uid: int, options: dict[str, Any] | None = None, *,
                    seed: str = SEED, start: bool = True) -> str:
    """A table of ``game`` hosted by ``uid`` with AI players in the other seats, started unless ``start`` is off."""
    info = await server.service.create_table(game, uid, "Ann", options or {}, seed=seed)
    for _ in range(info.size - 1):
        await server.service.add_ai(info.id, uid)
    if start:
        await server.service.start_game(info.id, uid)
    return info.id


async def open_table(browser: Any, server: Server, n: int, table_id: str) -> Phone:
    """Ann's phone with the table open."""
    phone = await open_phone(browser, server, user(n), start_param=table_id)
    await expect(phone.page.locator(".table-screen")).to_be_visible()
    return phone


async def check_rules_sheet(page: Page, game: str) -> None:
    """The rules sheet is open for ``game`` and closes again."""
    sheet = page.locator(".sheet.rules-sheet")
    await expect(sheet).to_be_visible()
    await expect(sheet.locator(".rules")).to_have_attribute("data-game", game)
    if game == "coins":
        await expect(sheet.locator(".cycle")).to_contain_text("Cups")
        await expect(sheet.locator(".rules-trick")).to_have_count(3)
        odd = sheet.locator(".rt-card.odd")
        await expect(odd).to_have_count(1)
        await expect(odd.locator("figcaption")).to_have_text("never wins")
        await expect(sheet.locator(".rt-card.win")).to_have_count(3)
    await sheet.locator(".sheet-close").tap()
    await expect(sheet).to_have_count(0)


@pytest.mark.parametrize("game", GAMES)
async def test_rules_sheet_opens_from_lobby_and_table(browser: Any, server: Server, game: str) -> None:
    uid = 5600 + GAMES.index(game)
    lobby_id = await new_table(server, game, uid, start=False)
    phone = await open_table(browser, server, GAMES.index(game), lobby_id)
    page = phone.page
    await expect(page.locator(".lobby")).to_be_visible()
    await expect(page.locator(".options .option-help").first).to_be_visible()
    await page.locator(".lobby .rules-btn").tap()
    await check_rules_sheet(page, game)
    await page.locator(".start-btn").tap()
    await expect(page.locator(".table-body .hand")).to_be_visible()
    await page.locator(".topbar .rules-btn").tap()
    await check_rules_sheet(page, game)
    if game == "coins":
        await page.locator(".topbar .rules-btn").tap()
        await page.screenshot(path=str(screenshot_path("rules-coins-390x844.png")))
    assert phone.errors == []


async def seq_of(page: Page) -> int:
    """The seq of the newest frame the page has received."""
    return int(await page.locator(".table-screen").get_attribute("data-seq") or "-1")


async def play_first_card(page: Page) -> None:
    """Tap the first card of the hand twice and wait until the server has the move."""
    before = await seq_of(page)
    card = page.locator(".hand .card").first
    await card.tap()
    await card.tap()
    await page.wait_for_function("s => Number(document.querySelector('.table-screen').dataset.seq) > s", arg=before)


async def test_coins_finished_trick_stays_readable_until_the_next_lead(browser: Any, server: Server) -> None:
    table_id = await new_table(server, "coins", 5610, {"first_dealer": "seat:1"})
    phone = await open_table(browser, server, 10, table_id)
    page = phone.page
    done = page.locator(".trick.done")
    for _ in range(16):
        await page.wait_for_selector(".status.mine")
        trick_before = await page.locator(".trick:not(.done) .card").count()
        await play_first_card(page)
        if trick_before != 2:
            continue
        # my card finished the trick: the three cards stay, whole, the winner's marked
        await expect(done.locator(".card")).to_have_count(3)
        winner = done.locator(".card.win")
        await expect(winner).to_have_count(1)
        await expect(winner.locator(".win-mark")).to_have_text("wins")
        assert await done.evaluate("el => getComputedStyle(el).opacity") == "1"
        assert await done.locator(".card").first.evaluate("el => getComputedStyle(el).opacity") == "1"
        await expect(page.locator(".felt .caption")).to_contain_text("took the trick")
        if await winner.get_attribute("data-seat") == "0":
            continue
        # an AI won and leads at once: its lead waits until the finished trick has been on show for a while
        for _ in range(50):
            if (await server.service.view(table_id, 5610))["state"]["trick"]:
                break
            await page.wait_for_timeout(20)
        assert (await server.service.view(table_id, 5610))["state"]["trick"], "the AI has led on the server"
        await expect(done.locator(".card")).to_have_count(3)
        await page.screenshot(path=str(screenshot_path("coins-finished-trick-390x844.png")))
        await expect(page.locator(".trick:not(.done) .card").first).to_be_visible(timeout=5000)
        await expect(done).to_have_count(0)
        assert phone.errors == []
        return
    raise AssertionError("no trick finished by my card was won by an AI in 16 plays")


async def test_score_sheets_and_units(browser: Any, server: Server) -> None:
    table_id = await new_table(server, "sergeant_major", 5620)
    phone = await open_table(browser, server, 20, table_id)
    page = phone.page
    await page.locator(".sm-scorebar .score-btn").tap()
    sheet = page.locator(".sheet.scores-sheet")
    await expect(sheet.locator("tfoot")).to_contain_text("Stakes")
    # the sheet signs a loss as the table does, with a real minus sign
    signs = await page.evaluate(
        "async () => { const m = await import('/static/shell/scoresheet.js'); return [-16, 0, 3].map(m.signed); }")
    assert signs == ["\u221216", "0", "+3"]
    await sheet.locator(".sheet-close").tap()
    coins_id = await new_table(server, "coins", 5621)
    coins = await open_table(browser, server, 21, coins_id)
    await coins.page.locator(".scorebar .score-btn").tap()
    await expect(coins.page.locator(".sheet.scores-sheet tbody tr")).to_have_count(1)
    await expect(coins.page.locator(".sheet.scores-sheet tfoot")).to_contain_text("Total")
    assert phone.errors == [] and coins.errors == []


async def test_fair_deal_checked_in_the_page_and_refused_for_an_altered_seed(browser: Any, server: Server) -> None:
    table_id = await new_table(server, "coins", 5630, {"target_score": 1, "first_dealer": "seat:2"}, start=False)
    phone = await open_table(browser, server, 30, table_id)
    page = phone.page
    await page.locator(".start-btn").tap()
    await expect(page.locator(".hand .card")).to_have_count(16)
    # the hash shows from the start, behind the badge
    badge = page.locator(".topbar .fair-badge")
    await expect(badge).to_be_visible()
    await badge.tap()
    info = await server.service.info(table_id)
    await expect(page.locator(".sheet.fair-sheet .seed-hash")).to_have_text(info.seed_hash)
    await page.locator(".sheet.fair-sheet .sheet-close").tap()
    for _ in range(16):
        await page.wait_for_function(
            "() => document.querySelector('.status.mine') || document.querySelector('.sheet.game-over')")
        if await page.locator(".sheet.game-over").count():
            break
        await play_first_card(page)
    sheet = page.locator(".sheet.game-over")
    # the page checked the seed and every deal it saw: the verdict is one line, its details folded under it
    await expect(sheet.locator(".fair-summary")).to_have_text("Fair deal — verified")
    await sheet.locator(".fair-summary").tap()
    await expect(sheet.locator(".seed-value")).to_have_text(SEED)
    result = sheet.locator(".fair-result")
    await expect(result).to_have_attribute("data-ok", "true")
    await expect(result.locator(".fair-verdict")).to_contain_text("every deal matches")
    await expect(result.locator(".fair-hands li")).to_have_count(3)
    await page.screenshot(path=str(screenshot_path("coins-fair-verified-390x844.png")))
    # one digit changed: the hash no longer matches
    altered = ("0" if SEED[0] != "0" else "1") + SEED[1:]
    await sheet.locator(".fair-seed").fill(altered)
    await sheet.locator(".fair-check").tap()
    await expect(sheet.locator(".fair-result")).to_have_attribute("data-ok", "false")
    await expect(sheet.locator(".fair-verdict")).to_contain_text("does not match the hash")
    assert phone.errors == []


async def test_page_shuffle_equals_the_engines(browser: Any, server: Server) -> None:
    from engine.core.rng import DealRng

    phone = await open_phone(browser, server, user(40))
    await expect(phone.page.locator(".game-picker")).to_be_visible()
    for seed, purpose, n in ((SEED, "deal:1", 48), ("ab" * 32, "deal:7", 52), ("x", "first_dealer", 3)):
        order = await phone.page.evaluate(
            "([seed, purpose, n]) => import('/static/shell/fair.js').then((m) => m.shuffledOrder(seed, purpose, n))",
            [seed, purpose, n])
        assert order == DealRng(seed, purpose).shuffled(range(n)), (seed, purpose)


FIT_JS = """() => {
  const doc = document.documentElement;
  const hand = document.querySelector('.table-body .hand').getBoundingClientRect();
  const small = [...document.querySelectorAll('.topbar button, .hand .card, .actions .btn')]
    .filter((el) => el.offsetParent !== null)
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width < 43.5 && r.height < 43.5).length;
  return {scroll: doc.scrollWidth - doc.clientWidth, left: hand.left, right: hand.right, bottom: hand.bottom,
          width: innerWidth, height: innerHeight, small};
}"""


@pytest.mark.parametrize("game", GAMES)
async def test_table_fits_a_small_phone_light_and_dark(browser: Any, server: Server, game: str) -> None:
    options = {"players": 3} if game == "kings_corner" else {}
    table_id = await new_table(server, game, 5650 + GAMES.index(game), options)
    phone = await open_table(browser, server, 50 + GAMES.index(game), table_id)
    page = phone.page
    await expect(page.locator(".table-body .hand .card").first).to_be_visible()
    for scheme in ("light", "dark"):
        if scheme == "dark":
            # Telegram says dark and sends no colours: the page fills every one itself
            await page.evaluate("() => { document.documentElement.removeAttribute('style');"
                                " document.documentElement.dataset.scheme = 'dark'; }")
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.evaluate("() => document.documentElement.style.setProperty('--vh', '844px')")
        await page.wait_for_timeout(200)
        await page.screenshot(path=str(screenshot_path(f"fit-{game}-{scheme}-390x844.png")))
        await page.set_viewport_size({"width": 360, "height": 640})
        # Telegram's viewportChanged with the new stable height
        await page.evaluate("() => document.documentElement.style.setProperty('--vh', '640px')")
        await page.wait_for_timeout(200)
        await page.screenshot(path=str(screenshot_path(f"fit-{game}-{scheme}-360x640.png")))
        fit = await page.evaluate(FIT_JS)
        assert fit["scroll"] <= 0, fit
        assert fit["left"] >= 0 and fit["right"] <= fit["width"], fit
        assert fit["bottom"] <= fit["height"], fit
    assert phone.errors == []
