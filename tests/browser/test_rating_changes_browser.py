"""The end of a game shows each person's rating ("1392?") over its change beside their place (none for AI players) with
Play again still on the first screen in every language; History shows each game's best rating and the trend of the
last games."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import Page, ViewportSize, expect

from tests.browser.conftest import PHONE, THEME_JS, Phone, Server, open_phone, screenshot_path
from tests.service.helpers import play_out

SMALL: ViewportSize = {"width": 360, "height": 640}
MINUS = "\u2212"
# "Rating {rating} ({change})" in each language, written here from the translations
RATING_WORDS = {"en": "Rating", "ru": "Рейтинг", "ko": "레이팅", "lv": "Reitings"}
PLAY_AGAIN = {"en": "Play again", "ru": "Сыграть ещё", "ko": "다시 하기", "lv": "Spēlēt vēlreiz"}


def person(uid: int, name: str = "Ann", lang: str = "en") -> dict[str, Any]:
    """A Telegram user speaking ``lang``."""
    return {"id": uid, "first_name": name, "language_code": lang}


def rating_text(rating: int, provisional: bool = False) -> str:
    """A rating as the page writes it: whole points as the server gives them, "?" after a provisional one."""
    return f"{rating}?" if provisional else str(rating)


def change_text(change: int) -> str:
    """A change as the sheet writes it: a plus sign, or a real minus sign (U+2212), in whole points."""
    return f"+{change}" if change > 0 else f"{MINUS}{-change}" if change < 0 else "0"


async def solo_game(server: Server, uid: int, game: str, options: dict[str, Any], *, seed: str) -> str:
    """A game of ``uid`` (seat 0) against AI players, played out through the service."""
    info = await server.service.create_table(game, uid, "Ann", options, seed=seed)
    for _ in range(info.size - 1):
        await server.service.add_ai(info.id, uid)
    await server.service.start_game(info.id, uid)
    service = server.service
    for _ in range(3000):
        await service.autoplay.idle()
        live = service.live(info.id)
        assert live is not None
        if live.row.status != "playing":
            break
        await service.act(info.id, uid, live.game.legal_actions(live.state, 0)[0], live.seq)
    assert (await service.info(info.id)).status == "finished"
    return info.id


async def coins_ending(server: Server, first_uid: int, *, won: bool) -> tuple[str, int]:
    """A newcomer's first Coins game to one point against two AI players, which they won, or lost and lost rating
    by; the table and the newcomer (``first_uid`` or one of the next 59)."""
    for n in range(60):
        uid = first_uid + n
        table_id = await solo_game(server, uid, "coins", {"target_score": 1}, seed=f"{n:04x}" * 16)
        result = (await server.service.info(table_id)).result
        [change] = await server.service.record.rating_changes(table_id)
        assert result is not None
        lost = 0 not in result["winners"] and change["change"] < 0
        if (result["winners"] == [0]) if won else lost:
            return table_id, uid
    raise AssertionError("no seed of 60 gives the wanted end")


async def rated(page: Page) -> None:
    """The sheet's standings have their rating changes."""
    await expect(page.locator(".sheet.game-over .placements.rated")).to_have_count(1)


async def on_first_screen(page: Page, selector: str) -> None:
    """The element shows whole without scrolling: inside the viewport and inside the sheet's own box."""
    target = page.locator(selector)
    await expect(target).to_be_visible()
    box = await target.bounding_box()
    sheet = await page.locator(".sheet.game-over").bounding_box()
    size = page.viewport_size
    assert box is not None and sheet is not None and size is not None
    assert box["y"] >= max(0, sheet["y"]) and box["y"] + box["height"] <= min(size["height"],
                                                                              sheet["y"] + sheet["height"]), (box, size)
    assert await page.locator(".sheet.game-over").evaluate("e => e.scrollTop") == 0


async def rows_fit(page: Page) -> None:
    """Each row's score and rating change stand side by side inside the row, neither cut nor overlapping."""
    problems = await page.locator(".sheet.game-over .placements li").evaluate_all("""rows => rows.flatMap(li => {
      const row = li.getBoundingClientRect(), score = li.querySelector('.pscore'), delta = li.querySelector('.prate');
      const s = score.getBoundingClientRect(), d = delta.getBoundingClientRect();
      const out = [];
      if (d.width && (d.right > row.right + 0.5 || s.right > d.left + 0.5)) out.push(`${li.textContent}: overlaps`);
      if (s.right > row.right + 0.5 || score.scrollWidth > score.clientWidth + 1) out.push(`${li.textContent}: cut`);
      if (delta.scrollWidth > delta.clientWidth + 1) out.push(`${li.textContent}: change cut`);
      return out; })""")
    assert problems == []


async def shots(phone: Phone, name: str) -> None:
    """Screenshots at 360×640 and 390×844, light and dark (the page's own dark colours beside Telegram's background)."""
    page = phone.page
    for scheme in ("light", "dark"):
        await page.emulate_media(color_scheme=scheme)
        await page.evaluate(THEME_JS, scheme)
        for size in (SMALL, PHONE):
            await page.set_viewport_size(size)
            await page.wait_for_timeout(100)
            await on_first_screen(page, ".sheet.game-over .play-again")
            await page.screenshot(path=str(screenshot_path(f"{name}-{size['width']}x{size['height']}-{scheme}.png")))


async def test_the_end_sheet_shows_each_persons_rating_change_and_none_for_the_ai(
    browser: Any, server: Server
) -> None:
    service = server.service
    for n in range(60):  # two newcomers' game where one of them gains and the other loses
        ann, bob = person(8200 + 2 * n), person(8201 + 2 * n, "Bob")
        info = await service.create_table("coins", ann["id"], "Ann", {"target_score": 1}, seed=f"{n:04x}" * 16)
        await service.join(info.id, bob["id"], "Bob")
        await service.add_ai(info.id, ann["id"])
        await service.start_game(info.id, ann["id"])
        await play_out(service, info.id)
        changes = await service.record.rating_changes(info.id)
        if sorted(change_text(c["change"])[0] for c in changes) == ["+", MINUS]:
            break
    else:
        raise AssertionError("no seed of 60 has one person gain and the other lose")
    assert [c["seat"] for c in changes] == [0, 1]  # the AI in seat 2 is never rated
    phone = await open_phone(browser, server, ann, start_param=info.id)
    page = phone.page
    sheet = page.locator(".sheet.game-over")
    await expect(sheet).to_be_visible()
    await rated(page)
    for change in changes:
        cell = sheet.locator(f'.placements li[data-seat="{change["seat"]}"] .prate')
        row = cell.locator(".pdelta")
        text = change_text(change["change"])
        rating = rating_text(change["after"], change["provisional"])
        await expect(row).to_have_text(text)
        await expect(cell.locator(".prating")).to_have_text(rating)
        await expect(row).to_have_class(re.compile(r"\bup\b" if text.startswith("+") else r"\bdown\b"))
        await expect(cell).to_have_attribute("aria-label", f"Rating {rating} ({text})")
    loss = sheet.locator(".pdelta.down")
    await expect(loss).to_have_text(re.compile(rf"^{MINUS}\d+$"))  # a real minus sign, not a hyphen
    ai = sheet.locator('.placements li[data-seat="2"] .prate')
    await expect(ai).to_have_text("")
    await expect(ai).to_have_attribute("aria-hidden", "true")
    colours = await sheet.locator(".pdelta.up, .pdelta.down").evaluate_all(
        "els => els.map(e => getComputedStyle(e).color)")
    assert len(set(colours)) == 2  # a gain and a loss are told apart by colour as well as by sign
    await rows_fit(page)
    await on_first_screen(page, ".sheet.game-over .play-again")
    assert phone.errors == []


@pytest.mark.parametrize("won", [True, False], ids=["won", "lost"])
async def test_the_end_sheet_screens_keep_play_again_in_view(browser: Any, server: Server, won: bool) -> None:
    table_id, uid = await coins_ending(server, 9000 + 100 * won, won=won)
    [change] = await server.service.record.rating_changes(table_id)
    text = change_text(change["change"])
    phone = await open_phone(browser, server, person(uid),
                             start_param=table_id, viewport=SMALL)
    page = phone.page
    await rated(page)
    await expect(page.locator('.sheet.game-over li.you .pdelta')).to_have_text(text)
    await shots(phone, f"end-sheet-{'won' if won else 'lost'}")
    assert phone.errors == []


@pytest.mark.parametrize("lang", ["en", "ru", "ko", "lv"])
async def test_play_again_stays_on_the_first_screen_at_360x640_with_the_rating_changes(
    browser: Any, server: Server, lang: str
) -> None:
    """A won and a lost Coins game and a four-player Kings in the Corner game, each with its rating change."""
    won, lost = await coins_ending(server, 9200, won=True), await coins_ending(server, 9300, won=False)
    kings = await solo_game(server, 9400, "kings_corner", {"players": 4}, seed="4ce" * 20), 9400
    for table_id, uid in (won, lost, kings):
        [change] = await server.service.record.rating_changes(table_id)
        text = change_text(change["change"])
        phone = await open_phone(browser, server, person(uid, lang=lang),
                                 start_param=table_id, viewport=SMALL)
        page = phone.page
        await expect(page.locator("html")).to_have_attribute("lang", lang)
        await rated(page)
        mine = page.locator(".sheet.game-over li.you .prate")
        await expect(mine.locator(".pdelta")).to_have_text(text)
        words = f"{RATING_WORDS[lang]} {rating_text(change['after'], change['provisional'])} ({text})"
        await expect(mine).to_have_attribute("aria-label", words)
        await expect(page.locator(".sheet.game-over .play-again")).to_have_text(PLAY_AGAIN[lang])
        await on_first_screen(page, ".sheet.game-over .play-again")
        await rows_fit(page)
        if table_id == kings[0]:
            await page.screenshot(path=str(screenshot_path(f"end-sheet-kings-{lang}-360x640.png")))
        assert phone.errors == []
        await phone.context.close()


async def check_history_trend(page: Page, afters: list[int]) -> None:
    """History's Coins figures: the best of these ratings (provisional: fewer than ten games), and a line through
    them, oldest first, in words too."""
    card = page.locator('.my-stats .stat-game[data-game="coins"]')
    await expect(card.locator(".stat-best")).to_have_text(f"Best {rating_text(max(afters), True)}")
    await expect(card.locator(".stat-rating")).to_have_text(f"Rating {rating_text(afters[-1], True)}")
    trend = card.locator("svg.spark")
    await expect(trend).to_have_attribute("role", "img")
    await expect(trend).to_have_attribute(
        "aria-label", f"Rating trend: {rating_text(afters[0])} \u2192 {rating_text(afters[-1])}")
    points = (await trend.locator("polyline").get_attribute("points") or "").split()
    assert len(points) == len(afters)
    xs, ys = zip(*((float(x), float(y)) for x, y in (p.split(",") for p in points)), strict=True)
    assert list(xs) == sorted(xs)  # left to right, oldest to latest
    # SVG's y grows downwards: the line falls where the rating fell, and rises where it rose
    for i in range(1, len(afters)):
        assert (ys[i] > ys[i - 1], ys[i] < ys[i - 1]) == (afters[i] < afters[i - 1], afters[i] > afters[i - 1])


async def test_history_shows_the_best_rating_and_the_trend_after_two_games(browser: Any, server: Server) -> None:
    uid = 9500

    async def games(*seeds: str) -> list[int]:
        played = [await solo_game(server, uid, "coins", {"target_score": 1}, seed=seed * 32) for seed in seeds]
        return [(await server.service.record.rating_changes(t))[0]["after"] for t in played]

    afters = await games("1a", "2b")
    phone = await open_phone(browser, server, person(uid))
    page = phone.page
    await page.locator("#tab-history").tap()
    await check_history_trend(page, afters)
    afters += await games("3c", "4d", "5e", "6f")  # a few more: the line follows each of them
    await page.reload()
    await page.locator("#tab-history").tap()
    await check_history_trend(page, afters)
    await page.screenshot(path=str(screenshot_path("history-stats-390x844.png")))
    await page.emulate_media(color_scheme="dark")
    await page.evaluate(THEME_JS, "dark")
    await page.screenshot(path=str(screenshot_path("history-stats-390x844-dark.png")))
    assert phone.errors == []
