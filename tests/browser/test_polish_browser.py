"""The Mini App table and lobby looked at as a player would (issues 32 and 33): Coins' Last trick as opaque as
Sergeant Major's, toasts clear of the title and the buttons, Sergeant Major's title on one line in every language,
one hand result at a time, the coach clear of the trick, shared places on the leaderboard. Screenshots at 360×640 and
390×844, light and dark."""

from __future__ import annotations

import contextlib
import json
from functools import partial
from typing import Any

import pytest
from playwright.async_api import FloatRect, Route, ViewportSize, expect

from tests.browser.conftest import BOT_USERNAME, PHONE, SHORT_NAME, Server, open_phone, screenshot_path
from tests.browser.guided import Lesson, follow, open_lesson
from tests.browser.test_guided_coins_browser import play_ringed_card
from tests.browser.test_issue_bugs_browser import new_table, play_out

SMALL: ViewportSize = {"width": 360, "height": 640}
SIZES: tuple[ViewportSize, ...] = (SMALL, PHONE)
SCHEMES = ("light", "dark")


def user(n: int, lang: str = "en") -> dict[str, Any]:
    """A Telegram user speaking ``lang``."""
    return {"id": 6300 + n, "first_name": "Ann", "language_code": lang, "allows_write_to_pm": True}


def shot(name: str, size: ViewportSize) -> str:
    """The path of a kept screenshot of ``name`` at ``size``."""
    return str(screenshot_path(f"polish-{name}-{size['width']}x{size['height']}.png"))


def overlaps(a: FloatRect, b: FloatRect) -> bool:
    """Whether two boxes share any area."""
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


async def test_coins_last_trick_is_opaque_and_hides_the_live_trick(browser: Any, server: Server) -> None:
    table_id = await new_table(server, "coins", 6301, {"first_dealer": "seat:2"})
    service = server.service
    for _ in range(100):  # on to Ann's turn in a trick already begun, after at least one finished trick
        await service.autoplay.idle()
        live = service.live(table_id)
        assert live is not None
        state = live.state
        if state.trick_no >= 2 and state.trick and state.turn == 0:
            break
        await service.act(table_id, 6301, live.game.legal_actions(state, 0)[0], live.seq)
    for size in SIZES:
        for scheme in SCHEMES:
            phone = await open_phone(browser, server, user(1), start_param=table_id, viewport=size, scheme=scheme)
            page = phone.page
            live_cards = page.locator(".felt .trick .card")
            await expect(live_cards.first).to_be_visible()
            await page.locator(".felt .last-btn").tap()
            overlay = page.locator(".felt .last-trick")
            await expect(overlay.locator(".lt")).to_have_count(3)
            background = await overlay.evaluate("e => getComputedStyle(e).backgroundColor")
            assert "rgba" not in background and "/" not in background, background  # opaque: nothing shows through
            for i in range(await live_cards.count()):
                assert not await live_cards.nth(i).evaluate("e => e.checkVisibility({ visibilityProperty: true })")
            await page.screenshot(path=shot(f"coins-last-trick-{scheme}", size))
            await page.locator(".felt .last-btn").tap()  # closed again: the live trick is back
            await expect(live_cards.first).to_be_visible()
            assert phone.errors == []
            await phone.context.close()


async def test_invitation_sent_toast_covers_neither_the_title_nor_a_button(browser: Any, server: Server) -> None:
    for size in SIZES:
        for scheme in SCHEMES:
            info = await server.service.create_table("kings_corner", 6302, "Ann")
            link = f"https://t.me/{BOT_USERNAME}/{SHORT_NAME}?startapp={info.id}"
            phone = await open_phone(browser, server, user(2), start_param=info.id, viewport=size, scheme=scheme)
            page = phone.page

            body = f'{{"id": "prep-6302", "expires": 1900000000, "link": "{link}"}}'
            prepared = partial(Route.fulfill, status=200, content_type="application/json", body=body)

            await page.route("**/api/tables/*/invite", prepared)
            await page.locator(".invite-btn").tap()
            await page.wait_for_function("() => (window.__tgCalls || []).some(([n, d]) =>"
                                         " n === 'web_app_send_prepared_message')")
            await phone.deliver("prepared_message_sent")
            toast = page.locator("#toast")
            await expect(toast).to_have_text("Invitation sent.")
            await expect(toast).to_have_css("opacity", "1")
            await page.screenshot(path=shot(f"invite-sent-{scheme}", size))
            box = await toast.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
            for heading in (".topbar .title", ".lobby-head h2"):  # the game's name and the lobby's title
                title = await page.locator(heading).bounding_box()
                assert title is not None and not overlaps(box, title), (heading, box, title)
            # every other button on screen stays clear; the toast answers Invite and stands over it
            buttons = page.locator("button:visible:not(.invite-btn), select:visible")
            for i in range(await buttons.count()):
                other = await buttons.nth(i).bounding_box()
                if other is not None and other["y"] < size["height"]:
                    label = await buttons.nth(i).evaluate("e => e.className + ' ' + e.textContent")
                    assert not overlaps(box, other), (label, box, other)
            assert phone.errors == []
            await phone.context.close()


async def test_sergeant_major_title_fits_one_line_in_every_language(browser: Any, server: Server) -> None:
    table_id = await new_table(server, "sergeant_major", 6303, {"first_dealer": "seat:1"})
    for lang in ("en", "ru", "ko", "lv"):
        for size in SIZES:
            for scheme in SCHEMES:
                phone = await open_phone(browser, server, user(3, lang), start_param=table_id, viewport=size,
                                         scheme=scheme, locale=lang)
                page = phone.page
                title = page.locator(".topbar .title-game")
                await expect(page.locator(".sm-hand .card, .hand .card").first).to_be_visible()
                lines = await title.evaluate(
                    "e => { const r = e.getClientRects(); const lh = parseFloat(getComputedStyle(e).lineHeight);"
                    " return { height: e.getBoundingClientRect().height, lh, text: e.textContent,"
                    " cut: e.scrollWidth > e.clientWidth + 1 }; }")
                assert lines["height"] < lines["lh"] * 1.5, (lang, size, lines)  # one line
                assert not lines["cut"], (lang, size, lines)
                await page.screenshot(path=shot(f"sm-title-{lang}-{scheme}", size))
                assert phone.errors == []
                await phone.context.close()


async def test_sergeant_major_tells_a_hand_result_once(browser: Any, server: Server) -> None:
    for size in SIZES:
        for scheme in SCHEMES:
            table_id = await new_table(server, "sergeant_major", 6304, {"first_dealer": "seat:1"})
            phone = await open_phone(browser, server, user(4), start_param=table_id, viewport=size, scheme=scheme)
            page = phone.page
            await expect(page.locator(".sm-hand .card, .hand .card").first).to_be_visible()
            service = server.service
            for _ in range(300):  # Ann plays her first legal move until hand 1 is over
                await service.autoplay.idle()
                live = service.live(table_id)
                assert live is not None
                if live.state.match.hand_no == 2:
                    break
                if 0 in live.game.to_act(live.state):
                    await service.act(table_id, 6304, live.game.legal_actions(live.state, 0)[0], live.seq)
            card = page.locator(".felt .hand-end")
            await expect(card).to_contain_text("Hand 1:", timeout=20000)
            # the result is on the felt's card and nowhere else on the page meanwhile
            await expect(page.get_by_text("Hand 1:")).to_have_count(1)
            await expect(page.locator(".sm-notes")).not_to_contain_text("Hand 1")
            await page.screenshot(path=shot(f"sm-hand-end-{scheme}", size))
            await expect(card).to_have_count(0, timeout=5000)  # gone: each panel keeps its last hand's change
            await expect(page.get_by_text("Hand 1:")).to_have_count(0)
            await expect(page.locator(".player .sm-prev:not(.none)")).to_have_count(3)
            await page.screenshot(path=shot(f"sm-after-hand-end-{scheme}", size))
            assert phone.errors == []
            await phone.context.close()


async def test_leaderboard_shows_players_level_on_rating_sharing_a_place(browser: Any, server: Server) -> None:
    service = server.service
    ann = 6305
    table_id = await new_table(server, "coins", ann, {"target_score": 1})
    await play_out(server, table_id, ann)
    # the board as the server gives it: rows in rating order, numbered one by one; two people level on 1625
    rows = [{"place": 1, "name": "Bob", "rating": 1625, "provisional": False, "games": 13, "wins": 2, "you": False},
            {"place": 2, "name": "Ann", "rating": 1625, "provisional": True, "games": 3, "wins": 1, "you": True},
            {"place": 3, "name": "Cat", "rating": 1410, "provisional": True, "games": 2, "wins": 0, "you": False},
            {"place": 4, "name": "Dan", "rating": 1355, "provisional": True, "games": 1, "wins": 0, "you": False},
            {"place": 5, "name": "Eve", "rating": 1355, "provisional": True, "games": 1, "wins": 0, "you": False}]
    body = json.dumps({"game": "coins", "players": rows, "provisional_games": 10})
    assert (await service.info(table_id)).status == "finished"

    async def board(route: Route) -> None:
        await route.fulfill(status=200, content_type="application/json", body=body)

    for size in SIZES:
        for scheme in SCHEMES:
            phone = await open_phone(browser, server, user(5), viewport=size, scheme=scheme)
            page = phone.page
            await page.route("**/api/played-with?*", board)
            await page.locator("#tab-leaderboard").tap()
            places = page.locator(".lb-board .board tbody td.place")
            await expect(places).to_have_text(["=1", "=1", "3", "=4", "=4"])
            names = page.locator(".lb-board .board tbody .pname")
            await expect(names).to_have_text(["Bob", "You", "Cat", "Dan", "Eve"])
            ratings = page.locator(".lb-board .board tbody .rating")
            await expect(ratings).to_have_text(["1625", "1625?", "1410?", "1355?", "1355?"])
            await expect(page.locator(".lb-board .lb-title")).to_have_text("Coins")
            await page.screenshot(path=shot(f"leaderboard-shared-{scheme}", size))
            assert phone.errors == []
            await phone.context.close()


# What the coach covers of the trick: its cards, and its caption while the caption shows words.
COVERED_JS = """() => {
  const coach = document.querySelector('.coach').getBoundingClientRect();
  const meets = (r) => r.height > 0 && r.top < coach.bottom && coach.top < r.bottom
    && r.left < coach.right && coach.left < r.right;
  const panel = document.querySelector('.coach');
  const out = panel.scrollHeight > panel.clientHeight + 1 ? ['the coach words cut short'] : [];
  for (const card of document.querySelectorAll('.felt .trick .card')) {
    const shown = card.checkVisibility({ visibilityProperty: true });
    if (shown && meets(card.getBoundingClientRect())) out.push(card.dataset.card);
  }
  const caption = document.querySelector('.felt .caption');
  if (caption && caption.textContent.trim() && caption.checkVisibility({ visibilityProperty: true })
      && meets(caption.getBoundingClientRect())) out.push('caption: ' + caption.textContent);
  return out;
}"""


class Enough(Exception):
    """The lesson has shown what the test looks at."""


async def test_coach_never_covers_the_trick_or_its_caption_at_360x640(browser: Any, server: Server) -> None:
    for n, scheme in enumerate(SCHEMES):
        phone = await open_phone(browser, server, user(6 + n), viewport=SMALL, scheme=scheme)
        lesson: Lesson = await open_lesson(phone, server, "coins", "Learn")
        page = lesson.page
        tricks: list[str] = []

        async def check(step: str, text: str, page: Any = page, tricks: list[str] = tricks,
                        scheme: str = scheme) -> None:
            await page.wait_for_timeout(250)  # the panel has found its place
            covered = await page.evaluate(COVERED_JS)
            await page.screenshot(path=shot(f"coach-{step}-{scheme}", SMALL))
            assert covered == [], (step, text, covered)
            if step.startswith("trick_"):
                tricks.append(step)
            if len(tricks) >= 2:
                raise Enough

        with contextlib.suppress(Enough):
            await follow(lesson, check, partial(play_ringed_card, lesson))
        assert len(tricks) == 2, lesson.steps
        assert phone.errors == []
        await phone.context.close()


GAMES: dict[str, dict[str, Any]] = {"coins": {"target_score": 5}, "sergeant_major": {}, "kings_corner": {}}
HEADLINES = {"coins": "target_score", "sergeant_major": "variant", "kings_corner": "scoring"}  # what names a table


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_game_to_its_end_then_home_at_390x844_dark(browser: Any, server: Server, game: str) -> None:
    uid = 6310 + list(GAMES).index(game)
    table_id = await new_table(server, game, uid, GAMES[game])
    await play_out(server, table_id, uid)  # played through the service: Ann plays her first legal move each turn
    assert (await server.service.info(table_id)).status == "finished"
    phone = await open_phone(browser, server, user(uid - 6300), start_param=table_id, scheme="dark")
    page = phone.page
    sheet = page.locator(".sheet.game-over")
    await expect(sheet).to_be_visible(timeout=30000)
    await page.wait_for_timeout(1500)  # its celebration over
    await page.screenshot(path=shot(f"end-{game}-dark", PHONE))
    again = sheet.locator(".play-again")
    await expect(again).to_be_visible()
    box = await again.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    for score in await sheet.locator(".pscore").all_inner_texts():  # a loss is signed as the table signs it, "−16"
        assert "-" not in score, score
    await sheet.locator(".go-home").tap()
    card = page.locator(f".game-card[data-game='{game}']")
    await expect(card.locator(".play-btn")).to_be_visible()
    # a changed headline setting is named in the game's words ("First to 15"), never by a bare number
    await card.locator(".options-btn").tap()
    await page.locator(f"#opt-{HEADLINES[game]}").select_option(index=1)
    await page.locator(".options-sheet .sheet-close").tap()
    summary = await card.locator(".game-summary").inner_text()
    assert summary and not summary.strip().isdigit(), summary
    await page.wait_for_timeout(300)
    await page.screenshot(path=shot(f"home-after-{game}-dark", PHONE))
    assert phone.errors == []
    await phone.context.close()
