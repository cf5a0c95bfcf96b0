"""Bugs a new player met (issue 32): a bad table link, Kings in the Corner's turn log, Sergeant Major's Last trick,
the opponents' panels, the fair-deal sheet and History's Kings scores."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import Locator, Page, ViewportSize, expect

from tests.browser.conftest import PHONE, Phone, Server, open_phone, screenshot_path

SEED = "b0675" * 13
SMALL: ViewportSize = {"width": 360, "height": 640}


def user(n: int, lang: str = "en") -> dict[str, Any]:
    """A Telegram user speaking ``lang``."""
    return {"id": 6100 + n, "first_name": "Ann", "language_code": lang}


async def shoot(page: Page, name: str, focus: Locator | None = None) -> None:
    """Screenshots of the page at 390×844 and at 360×640, scrolled to ``focus`` when given."""
    for size in (PHONE, SMALL):
        await page.set_viewport_size(size)
        if focus is not None:
            await focus.scroll_into_view_if_needed()
        await page.screenshot(path=str(screenshot_path(f"{name}-{size['width']}x{size['height']}.png")))
    await page.set_viewport_size(PHONE)


async def test_bad_table_link_says_the_table_is_gone_and_leads_home(browser: Any, server: Server) -> None:
    for lang, words in (("en", "This table does not exist or has ended."),
                        ("ru", "Этого стола нет или игра за ним закончилась.")):
        for scheme in ("light", "dark"):
            phone: Phone = await open_phone(browser, server, user(1, lang), start_param="nosuchtable1",
                                            locale=lang, scheme=scheme)
            page = phone.page
            notice = page.locator(".table-missing")
            await expect(notice).to_contain_text(words)
            await expect(page.locator(".topbar .title")).to_have_count(0)  # no "Loading…" left behind
            await shoot(page, f"table-missing-{lang}-{scheme}")
            await notice.locator("button").tap()
            await expect(page.locator(".game-picker")).to_be_visible()
            assert "table=" not in page.url
            await phone.context.close()


async def new_table(server: Server, game: str, uid: int, options: dict[str, Any], *, start: bool = True,
                    seed: str = SEED) -> str:
    """A table of ``game`` hosted by ``uid`` (seat 0) with AI players in the other seats, started unless told."""
    info = await server.service.create_table(game, uid, "Ann", options, seed=seed)
    for _ in range(info.size - 1):
        await server.service.add_ai(info.id, uid)
    if start:
        await server.service.start_game(info.id, uid)
    return info.id


async def play_out(server: Server, table_id: str, uid: int, moves: int = 2000) -> None:
    """The host (seat 0) plays the rules' first legal action whenever on turn, for ``moves`` moves or to the end."""
    service = server.service
    for _ in range(moves):
        await service.autoplay.idle()
        live = service.live(table_id)
        assert live is not None
        if live.row.status != "playing":
            return
        await service.act(table_id, uid, live.game.legal_actions(live.state, 0)[0], live.seq)


async def finished_kings(server: Server, uid: int, options: dict[str, Any]) -> str:
    """A Kings in the Corner game of ``uid`` against an AI player, played out through the service."""
    table_id = await new_table(server, "kings_corner", uid, options)
    await play_out(server, table_id, uid)
    assert (await server.service.info(table_id)).status == "finished"
    return table_id


async def test_history_gives_kings_scores_their_unit(browser: Any, server: Server) -> None:
    first_out = await finished_kings(server, 6102, {"scoring": "first_out"})
    penalty = await finished_kings(server, 6102, {"scoring": "penalty", "penalty_limit": 1})
    phone = await open_phone(browser, server, user(2))
    page = phone.page
    await page.locator("#tab-history").tap()
    for table_id, unit in ((first_out, r"^\d+ cards? left$"), (penalty, r"^\d+ penalty points?$")):
        scores = page.locator(f'.record[data-table="{table_id}"] .pscore')
        await expect(scores).to_have_count(2)  # the default table: Ann and one AI player
        for text in await scores.all_inner_texts():
            assert re.match(unit, text), text
    await shoot(page, "history-kings-units", page.locator(f'.record[data-table="{penalty}"]'))
    assert phone.errors == []


async def test_fair_deal_offers_the_re_dealt_hands_as_a_disclosure_not_a_dangling_label(
    browser: Any, server: Server
) -> None:
    table_id = await new_table(server, "coins", 6103, {"target_score": 1})
    phone = await open_phone(browser, server, user(3), start_param=table_id)
    page = phone.page
    await expect(page.locator(".hand .card")).to_have_count(16)  # the page sees the deal it will check
    await play_out(server, table_id, 6103)
    sheet = page.locator(".sheet.game-over")
    await sheet.locator(".fair-summary").tap()
    first = sheet.locator(".fair-first")
    summary = first.locator("summary")
    await expect(summary).to_have_text("Show deal 1 from this seed")
    marker = await summary.evaluate("e => getComputedStyle(e, '::before').content")
    assert marker == '"▸"'  # it reads as something to open
    await expect(first.locator(".fair-hands")).to_be_hidden()
    await summary.tap()
    await expect(first.locator(".fair-hands li")).to_have_count(3)
    await shoot(page, "fair-first-deal", first)
    assert phone.errors == []


# A turn of the sort that fills a line: three cards built and three drawn, each shown as a card chip.
LONG_TURN = [
    {"type": "built", "seat": 0, "card": "8-clubs", "space": "N"},
    {"type": "built", "seat": 0, "card": "7-hearts", "space": "N"},
    {"type": "built", "seat": 0, "card": "10-diamonds", "space": "E"},
    {"type": "drew", "seat": 0, "count": 3, "cards": ["Q-spades", "10-hearts", "J-clubs"]},
]

# Every move of the log's line (with its card chips): how much of it shows inside the line's box, and whether it is
# the turn's newest.
CHIPS_SHOWN = """([events, name]) => import('/static/games/kings_corner/parts.js').then((m) => {
  const log = document.querySelector('.kc-log');
  log.replaceChildren(m.turnLine(0, events, name, true));
  for (const evs of log.querySelectorAll('.kc-evs')) {
    evs.classList.toggle('overflow', evs.scrollWidth > evs.clientWidth);
  }
  const evs = log.querySelector('.kc-evs');
  const box = evs.getBoundingClientRect();
  const chips = [...evs.querySelectorAll('.kc-ev')];
  return chips.map((c, i) => {
    const r = c.getBoundingClientRect();
    const w = Math.max(0, Math.min(r.right, box.right) - Math.max(r.left, box.left));
    const hgt = Math.max(0, Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top));
    return { shown: (w * hgt) / (r.width * r.height), newest: i === chips.length - 1 };
  });
})"""


async def test_kings_turn_log_shows_whole_chips_or_none(browser: Any, server: Server) -> None:
    table_id = await new_table(server, "kings_corner", 6104, {})
    for size, scheme in ((SMALL, "light"), (SMALL, "dark"), (PHONE, "light"), (PHONE, "dark")):
        phone = await open_phone(browser, server, user(4), start_param=table_id, viewport=size, scheme=scheme)
        page = phone.page
        await expect(page.locator(".kc-table .kc-log")).to_be_attached()
        await expect(page.locator(".kc-hand .card").first).to_be_visible()
        await server.service.autoplay.idle()
        for name in ("Alexandra", "Alexandra Konstantinopolskaya"):
            moves = await page.evaluate(CHIPS_SHOWN, [LONG_TURN, name])
            assert moves and moves[-1] == {"shown": 1, "newest": True}, moves
            for move in moves:  # a move shows whole or not at all, never a chip clipped into a glyph fragment
                assert move["shown"] in (0, 1), (name, moves)
        await page.screenshot(path=str(screenshot_path(
            f"kings-log-long-turn-{scheme}-{size['width']}x{size['height']}.png")))
        assert phone.errors == []
        await phone.context.close()


async def test_sergeant_major_last_trick_hides_the_live_trick(browser: Any, server: Server) -> None:
    table_id = await new_table(server, "sergeant_major", 6105, {"first_dealer": "seat:1"})
    service = server.service
    for _ in range(200):  # on to Ann's turn in a trick already begun, after at least one finished trick
        await service.autoplay.idle()
        live = service.live(table_id)
        assert live is not None
        state = live.state
        if state.trick_no >= 1 and state.trick and state.turn == 0:
            break
        await service.act(table_id, 6105, live.game.legal_actions(state, 0)[0], live.seq)
    for size, scheme in ((SMALL, "light"), (PHONE, "dark")):
        phone = await open_phone(browser, server, user(5), start_param=table_id, viewport=size, scheme=scheme)
        page = phone.page
        live_cards = page.locator(".sm-felt .trick .card")
        await expect(live_cards.first).to_be_visible()
        await page.locator(".sm-felt .last-btn").tap()
        overlay = page.locator(".sm-felt .last-trick")
        await expect(overlay.locator(".lt")).to_have_count(3)
        background = await overlay.evaluate("e => getComputedStyle(e).backgroundColor")
        assert "rgba" not in background and "/" not in background, background  # opaque: nothing shows through
        for i in range(await live_cards.count()):
            assert not await live_cards.nth(i).evaluate("e => e.checkVisibility({ visibilityProperty: true })")
        await page.screenshot(path=str(screenshot_path(
            f"sm-last-trick-{scheme}-{size['width']}x{size['height']}.png")))
        await page.locator(".sm-felt .last-btn").tap()  # closed again: the live trick is back
        await expect(live_cards.first).to_be_visible()
        assert phone.errors == []
        await phone.context.close()


async def test_sergeant_major_felt_stays_put_when_a_bid_badge_appears(browser: Any, server: Server) -> None:
    for size, scheme in ((SMALL, "light"), (PHONE, "dark")):
        # a deal where one AI player outbids Ann's 8 and the other passes: the bidding comes back to her, badges shown
        table_id = await new_table(server, "sergeant_major", 6106, {"woburn_first_bid": True, "first_dealer": "seat:0"},
                                   seed="00" * 32)
        phone = await open_phone(browser, server, user(6), start_param=table_id, viewport=size, scheme=scheme)
        page = phone.page
        await expect(page.locator(".sm-panel .sm-bid-btn, .sm-panel button").first).to_be_visible()
        badges = page.locator(".sm-player:not(.bottom) .badge.sm-passed, .sm-player:not(.bottom) .badge.sm-bid")
        await expect(badges).to_have_count(0)  # Ann bids first: nobody has bid or passed yet
        felt = page.locator(".sm-felt")
        before = await felt.bounding_box()
        live = server.service.live(table_id)
        assert live is not None
        await server.service.act(table_id, 6106, {"type": "bid", "tricks": 8}, live.seq)
        await expect(badges.first).to_be_visible()
        assert live.state.phase == "bid" and live.game.to_act(live.state) == {0}
        after = await felt.bounding_box()
        assert before is not None and after is not None
        assert after["y"] == before["y"], (before, after)
        await page.screenshot(path=str(screenshot_path(
            f"sm-bid-badges-{scheme}-{size['width']}x{size['height']}.png")))
        assert phone.errors == []
        await phone.context.close()


async def test_leaderboard_with_no_group_shows_the_people_you_played_with(browser: Any, server: Server) -> None:
    service = server.service
    ann, bob = 6107, 6108
    info = await service.create_table("coins", ann, "Ann", {"target_score": 1}, seed=SEED)  # no group: local play
    await service.join(info.id, bob, "Bob")
    await service.add_ai(info.id, ann)
    await service.start_game(info.id, ann)
    for _ in range(100):
        await service.autoplay.idle()
        live = service.live(info.id)
        assert live is not None
        if live.row.status != "playing":
            break
        seat = min(live.game.to_act(live.state))
        await service.act(info.id, (ann, bob)[seat], live.game.legal_actions(live.state, seat)[0], live.seq)
    assert (await service.info(info.id)).status == "finished"
    for size, scheme in ((SMALL, "light"), (PHONE, "dark")):
        phone = await open_phone(browser, server, user(9), viewport=size, scheme=scheme)  # Cat: never played
        page = phone.page
        await page.locator("#tab-leaderboard").tap()
        await expect(page.locator(".lb-scope")).to_have_text("People you played with")  # no group: no group picker
        await expect(page.locator("#lb-group")).to_have_count(0)
        await expect(page.locator(".lb-board")).to_contain_text("Finish a game of this kind")
        await phone.context.close()
        phone = await open_phone(browser, server, {"id": ann, "first_name": "Ann", "language_code": "en"},
                                 viewport=size, scheme=scheme)
        page = phone.page
        await page.locator("#tab-leaderboard").tap()
        await expect(page.locator(".lb-scope")).to_have_text("People you played with")
        await expect(page.locator("#lb-game option:checked")).to_have_text("Coins (1 game)")
        board = page.locator(".lb-board .board tbody tr")
        await expect(board).to_have_count(2)
        names = sorted(await page.locator(".lb-board .board tbody .pname").all_inner_texts())
        assert names == ["Bob", "You"]
        await expect(page.locator(".lb-explained")).to_contain_text("every game you finished")
        await shoot(page, f"leaderboard-played-with-{scheme}")
        assert phone.errors == []
        await phone.context.close()


async def test_coins_last_trick_of_a_hand_stays_in_view_after_the_next_deal(browser: Any, server: Server) -> None:
    table_id = await new_table(server, "coins", 6110, {"target_score": 20, "first_dealer": "seat:2"})
    service = server.service
    live = None
    for _ in range(100):  # Ann plays her first card until the first hand is over and the second dealt
        await service.autoplay.idle()
        live = service.live(table_id)
        assert live is not None
        if live.state.hand_no == 2:
            break
        await service.act(table_id, 6110, live.game.legal_actions(live.state, 0)[0], live.seq)
    assert live is not None
    state = live.state
    # this deal: an AI player took the hand's 16th trick and has led the next hand's first card; Ann is to play
    assert state.hand_no == 2 and state.trick_no == 1 and len(state.trick) == 1 and state.turn == 0
    plays = live.game.view(state, 0)["last_trick"]
    last = sorted(play["card"] for play in plays)
    assert len(last) == 3
    # the trick's taker, by the rules (G6: the next dealer sits to the taker's right), is marked on a fresh page too
    taken = next(play["card"] for play in plays if play["seat"] == (state.dealer + 1) % 3)
    for size, scheme in ((SMALL, "light"), (PHONE, "dark")):
        phone = await open_phone(browser, server, user(10), start_param=table_id, viewport=size, scheme=scheme)
        page = phone.page
        await expect(page.locator(".felt .trick .card")).to_have_count(1)
        await page.locator(".felt .last-btn").tap()  # coins/RULES.md §3.4: the last trick, the hand's 16th, on review
        shown = page.locator(".felt .last-trick .card")
        await expect(shown).to_have_count(3)
        assert sorted(await shown.evaluate_all("els => els.map(e => e.dataset.card)")) == last
        await expect(page.locator(".felt .last-trick .lt.win .card")).to_have_attribute("data-card", taken)
        await page.screenshot(path=str(screenshot_path(
            f"coins-last-trick-next-hand-{scheme}-{size['width']}x{size['height']}.png")))
        assert phone.errors == []
        await phone.context.close()
