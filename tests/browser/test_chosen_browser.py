"""What makes the table a place people choose: home with the tables first and Create on the first screen, the game's
end with Play again first, Invite through Telegram's own sharing, History's own figures and its Load more, and
names that stay whole in any script."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from playwright.async_api import Page, Route, ViewportSize, expect

from tests.browser.conftest import (
    BOT_USERNAME,
    PHONE,
    SHORT_NAME,
    THEME_JS,
    Phone,
    Server,
    in_view,
    open_phone,
    screenshot_path,
)
from tests.service.helpers import play_out

SMALL: ViewportSize = {"width": 360, "height": 640}
SIZES = (SMALL, PHONE)
RTL = "\u202eesrever"  # a right-to-left override in a name: it must not turn round what follows
ARABIC = "مرحبا بالعالم"
LONG = "Z\u200bW\u200dJ" + "x" * 59  # zero-width characters, 64 characters in all
ISOLATED = ("isolate", "isolate-override", "plaintext")


def person(n: int, name: str = "Ann") -> dict[str, Any]:
    """A Telegram user speaking English."""
    return {"id": 7800 + n, "first_name": name, "language_code": "en"}


async def shots(phone: Phone, name: str) -> None:
    """Screenshots at 360×640 and 390×844, light and dark (the browser's scheme outside Telegram's theme)."""
    page = phone.page
    for scheme in ("light", "dark"):
        await page.emulate_media(color_scheme=scheme)
        # Telegram's dark theme sending its background alone: the page's own dark colours for the rest
        await page.evaluate(THEME_JS, scheme)
        for size in SIZES:
            await page.set_viewport_size(size)
            await page.wait_for_timeout(100)
            where = f"chosen-{name}-{scheme}-{size['width']}x{size['height']}.png"
            await page.screenshot(path=str(screenshot_path(where)))
    await page.set_viewport_size(SMALL)


async def ai_table(server: Server, uid: int, name: str, game: str, options: dict[str, Any], *, seed: str | None = None,
                   start: bool = True) -> str:
    """A table of ``game`` hosted by ``uid`` with AI players in every other seat."""
    info = await server.service.create_table(game, uid, name, options, seed=seed)
    for _ in range(info.size - 1):
        await server.service.add_ai(info.id, uid)
    if start:
        await server.service.start_game(info.id, uid)
    return info.id


async def finished_coins(server: Server, uid: int, *, won: bool) -> str:
    """A Coins game to one point against two AI players that ``uid`` (seat 1) won, or lost."""
    for n in range(60):
        table_id = await ai_table(server, uid, "Ann", "coins", {"target_score": 1}, seed=f"{n:04x}" * 16)
        await play_out(server.service, table_id)
        info = await server.service.info(table_id)
        assert info.result is not None
        if (info.result["winners"] == [0]) == won:
            return table_id
    raise AssertionError("no seed of 60 gives the wanted end")


async def test_home_puts_your_tables_first_and_play_and_learn_on_the_first_screen(
    browser: Any, server: Server
) -> None:
    uid = 7801
    await ai_table(server, uid, "Ann", "coins", {}, start=False)
    await ai_table(server, uid, "Ann", "sergeant_major", {"first_dealer": "host"})  # Ann names trumps: her turn
    ann = await open_phone(browser, server, person(1), viewport=SMALL)
    page = ann.page
    await expect(page.locator(".my-tables .table-link")).to_have_count(2)
    first = await page.evaluate("""() => Boolean(document.querySelector('.my-tables').compareDocumentPosition(
        document.querySelector('.game-picker')) & Node.DOCUMENT_POSITION_FOLLOWING)""")
    assert first, "Your tables come before the games"
    await expect(page.locator(".my-tables .table-link").first).to_have_class(re.compile(r"\bmy-turn\b"))
    await in_view(page, ".my-tables .badge.turn")
    await in_view(page, ".game-card[data-game='coins'] .play-btn")
    await in_view(page, ".game-card[data-game='coins'] .learn-btn")
    # Kings in the Corner's rules wait behind Table options; the card names the scoring Play will use once it
    # is not the standard one
    kings = page.locator(".game-card[data-game='kings_corner']")
    await expect(page.locator("#opt-players")).to_have_count(0)
    await expect(kings.locator(".game-summary")).to_be_hidden()
    await shots(ann, "home")
    await kings.locator(".options-btn").tap()
    await expect(page.locator("#opt-players")).to_be_visible()
    await page.locator("#opt-scoring").select_option(index=1)
    assert await kings.locator(".game-summary").text_content() == await page.locator(
        "#opt-scoring option:checked").text_content()
    assert ann.errors == []


async def test_game_over_leads_to_play_again_on_the_first_screen_which_starts_at_once(
    browser: Any, server: Server
) -> None:
    uid = 7802
    table_id = await finished_coins(server, uid, won=True)
    ann = await open_phone(browser, server, person(2), start_param=table_id, viewport=SMALL)
    page = ann.page
    sheet = page.locator(".sheet.game-over")
    await expect(sheet).to_be_visible()
    await expect(sheet).to_have_class(re.compile(r"\bwon\b"))
    await expect(sheet.locator(".winner")).to_have_text("You won!")
    await expect(sheet.locator(".confetti i")).to_have_count(18)
    await expect(sheet.locator(".placements li")).to_have_count(3)
    await in_view(page, ".sheet.game-over .play-again")
    # the check of the deal is one line, its verdict in the words of every game (this page saw no deal: the seed was
    # checked against its hash, the panel says), details folded
    await expect(sheet.locator(".fair-summary")).to_have_text("Fair deal — verified")
    await expect(sheet.locator(".fair-summary")).to_have_attribute("data-ok", "true")
    await expect(sheet.locator(".seed-value")).to_be_hidden()
    info = await server.service.info(table_id)
    await expect(sheet.locator(".seed-value")).to_have_text(info.seed or "")
    await shots(ann, "game-over-won")
    await page.emulate_media(reduced_motion="reduce")  # the moment keeps still for those who ask
    await expect(sheet.locator(".confetti")).to_be_hidden()
    assert await sheet.locator(".go-icon").evaluate("e => getComputedStyle(e).animationName") == "none"
    await page.emulate_media(reduced_motion="no-preference")
    await page.locator(".fair-summary").tap()
    await expect(sheet.locator(".seed-value")).to_be_visible()
    await expect(sheet.locator(".fair-out")).to_contain_text("The seed matches its hash")
    await page.locator(".fair-summary").tap()

    await page.locator(".play-again").tap()
    await expect(page.locator(".table-screen")).to_have_attribute("data-status", "playing")
    new_id = await page.locator(".table-screen").get_attribute("data-table")
    assert new_id and new_id != table_id
    again = await server.service.info(new_id)
    assert again.status == "playing" and again.game == "coins" and again.options["target_score"] == 1
    await expect(page.locator(".lobby")).to_have_count(0)
    await expect(page.locator(".hand .card").first).to_be_visible()
    await shots(ann, "table")
    assert ann.errors == []


async def test_game_over_when_you_lose_names_your_place(
    browser: Any, server: Server
) -> None:
    table_id = await finished_coins(server, 7803, won=False)
    ann = await open_phone(browser, server, person(3), start_param=table_id, viewport=SMALL)
    page = ann.page
    sheet = page.locator(".sheet.game-over")
    info = await server.service.info(table_id)
    assert info.result is not None
    place = info.result["placements"][0]
    shared = info.result["placements"].count(place) > 1
    await expect(sheet.locator(".go-place")).to_have_text(f"Your place: {'=' if shared else ''}{place}")
    await expect(sheet.locator(".confetti")).to_have_count(0)
    await expect(sheet.locator(".go-icon")).to_have_count(0)
    await in_view(page, ".sheet.game-over .play-again")
    await shots(ann, "game-over-lost")


async def test_sergeant_major_places_are_shown_as_the_game_placed_them(browser: Any, server: Server) -> None:
    uid = 7804
    table_id = await ai_table(server, uid, "Ann", "sergeant_major", {}, seed="ab" * 32)
    await play_out(server.service, table_id)
    info = await server.service.info(table_id)
    assert info.result is not None
    placements = info.result["placements"]
    ann = await open_phone(browser, server, person(4), start_param=table_id, viewport=SMALL)
    page = ann.page
    sheet = page.locator(".sheet.game-over")
    await expect(sheet).to_be_visible()
    # the seat that made 12 tricks is 1st; the others by their stakes (level ones share a place, shown "=2")
    assert sorted(placements)[0] == 1 and placements.count(1) == 1
    wanted = [("=" if placements.count(p) > 1 else "") + str(p) for p in sorted(placements)]
    assert await sheet.locator(".placements .place").all_text_contents() == wanted
    await in_view(page, ".sheet.game-over .play-again")
    await page.locator(".go-home").tap()
    await page.locator("#tab-history").tap()
    await expect(page.locator(f'.record[data-table="{table_id}"] .place')).to_have_text(wanted)


async def test_sergeant_major_discard_caption_names_the_cards(browser: Any, server: Server) -> None:
    uid = 7805
    table_id = await ai_table(server, uid, "Ann", "sergeant_major", {"first_dealer": "host"}, seed="5e" * 32)
    service = server.service
    state = (await service.view(table_id, uid))["state"]
    assert state["phase"] == "trump"
    seq = (await service.view(table_id, uid))["seq"]
    await service.act(table_id, uid, {"type": "name_trump", "suit": "hearts"}, seq)
    ann = await open_phone(browser, server, person(5), start_param=table_id)
    page = ann.page
    await expect(page.locator(".sm-panel h2")).to_have_text("Discard 4 cards to the kitty")
    hand = (await service.view(table_id, uid))["state"]["hand"]
    cards = sorted(hand, key=lambda c: c.endswith("hearts"))[:4]
    for card in cards:
        await page.locator(f'.hand .card[data-card="{card}"]').tap()
    await page.evaluate("window.Telegram.WebView.receiveEvent('main_button_pressed')")
    caption = page.locator(".caption")
    await expect(caption).to_have_text(re.compile(r"^You discarded: \S.*"))
    text = await caption.text_content()
    assert text is not None and len(text.split(":", 1)[1].split(",")) == 4, text


async def test_invite_shares_the_prepared_message_through_telegram(browser: Any, server: Server) -> None:
    uid = 7806
    table_id = await ai_table(server, uid, "Ann", "coins", {}, start=False)
    link = f"https://t.me/{BOT_USERNAME}/{SHORT_NAME}?startapp={table_id}"
    ann = await open_phone(browser, server, person(6), start_param=table_id)
    page = ann.page

    async def prepared(route: Route) -> None:
        await route.fulfill(status=200, content_type="application/json",
                            body=f'{{"id": "prep-1", "expires": 1900000000, "link": "{link}"}}')

    await page.route("**/api/tables/*/invite", prepared)
    await page.locator(".invite-btn").tap()
    await page.wait_for_function(
        "() => (window.__tgCalls || []).some(([n, d]) => n === 'web_app_send_prepared_message' && d.id === 'prep-1')")
    await ann.deliver("prepared_message_sent")
    await expect(page.locator("#toast")).to_have_text("Invitation sent.")

    # the person closes Telegram's chooser: the link goes to Telegram's own share of a link instead
    await page.locator(".invite-btn").tap()
    await page.wait_for_function(
        "() => (window.__tgCalls || []).filter(([n]) => n === 'web_app_send_prepared_message').length === 2")
    await ann.deliver("prepared_message_failed", {"error": "USER_DECLINED"})
    await expect(page.locator("#toast")).to_have_text("The invitation was not sent. Choose a chat to send the link to.")
    opened = [d for n, d in await ann.tg_calls() if n == "web_app_open_tg_link"]
    assert opened and quote(link, safe="") in opened[-1]["path_full"]
    assert ann.errors == []


async def test_invite_without_a_prepared_message_shares_the_mini_apps_link_not_the_servers(
    browser: Any, server: Server
) -> None:
    uid = 7807
    table_id = await ai_table(server, uid, "Ann", "coins", {}, start=False)
    ann = await open_phone(browser, server, person(7), start_param=table_id, version="7.10")
    page = ann.page
    await page.locator(".invite-btn").tap()  # no bot runs here: the server refuses, and the page knows the link
    await expect(page.locator("#toast")).to_have_text("Choose a chat to send the link to.")
    opened = [d for n, d in await ann.tg_calls() if n == "web_app_open_tg_link"]
    link = f"https://t.me/{BOT_USERNAME}/{SHORT_NAME}?startapp={table_id}"
    assert opened and quote(link, safe="") in opened[-1]["path_full"]
    assert server.url.split("//")[1] not in opened[-1]["path_full"]
    assert not [n for n, _ in await ann.tg_calls() if n == "web_app_send_prepared_message"]


async def test_the_page_outside_telegram_says_what_cardroom_is_and_opens_it_in_telegram(
    browser: Any, server: Server
) -> None:
    visitor = await open_phone(browser, server, path="/?table=abc123", locale="ru-RU", viewport=SMALL)
    page = visitor.page
    button = page.locator(".open-telegram")
    await expect(button).to_have_text("Открыть в Telegram")
    await expect(button).to_have_attribute("href", f"https://t.me/{BOT_USERNAME}/{SHORT_NAME}?startapp=abc123")
    await expect(page.locator(".outside-what")).to_contain_text("Карточные игры")
    await in_view(page, ".open-telegram")
    await shots(visitor, "outside")


async def test_history_load_more_shows_only_when_there_is_more_and_never_repeats(
    browser: Any, server: Server
) -> None:
    uid = 7808
    nobody = await open_phone(browser, server, person(8), viewport=SMALL)
    await nobody.page.locator("#tab-history").tap()
    await expect(nobody.page.locator(".history-status")).to_have_text(re.compile("No finished games yet"))
    await expect(nobody.page.locator(".more-btn")).to_be_hidden()
    await expect(nobody.page.locator(".my-stats")).to_have_count(0)

    for n in range(21):
        table_id = await ai_table(server, uid, "Ann", "coins", {"target_score": 1}, seed=f"{n:02x}" * 32)
        await play_out(server.service, table_id)
    await nobody.page.reload()
    page = nobody.page
    await expect(page.locator(".records > li")).to_have_count(20)
    await expect(page.locator(".my-stats .stat-game")).to_have_count(1)
    await expect(page.locator(".my-stats .stat-game")).to_contain_text("21 games")
    await expect(page.locator(".my-stats .form-dot")).to_have_count(10)
    more = page.locator(".more-btn")
    await expect(more).to_be_visible()
    await more.tap()
    await expect(page.locator(".records > li")).to_have_count(21)
    await expect(more).to_be_hidden()
    ids = await page.locator(".records > li").evaluate_all("els => els.map(e => e.dataset.table)")
    assert len(set(ids)) == 21
    await page.screenshot(path=str(screenshot_path("chosen-history-360x640.png")))


BIDI_JS = """([root, names]) => {
  const bad = [];
  for (const top of document.querySelectorAll(root)) {
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      const name = names.find((x) => node.data.includes(x));
      if (!name) continue;
      let el = node.parentElement;
      if (el.closest('option, select')) continue;
      const style = getComputedStyle(el).unicodeBidi;
      if (!ISOLATED.includes(style) || el.textContent !== node.data) bad.push(`${el.className}: ${style}`);
    }
  }
  return bad;
}""".replace("ISOLATED", str(list(ISOLATED)))


async def isolated(page: Page, root: str, names: list[str]) -> None:
    """Every name under ``root`` sits alone in an isolated element, and at least one is there."""
    assert await page.locator(root).count(), root
    found = await page.evaluate("([root, names]) => [...document.querySelectorAll(root)].some(e => "
                                "names.some(n => e.textContent.includes(n)))", [root, names])
    assert found, f"no name under {root}"
    assert await page.evaluate(BIDI_JS, [root, names]) == [], root


async def test_names_in_any_script_stay_isolated_at_the_lobby_table_sheet_and_history(
    browser: Any, server: Server
) -> None:
    uid = 7809
    service = server.service
    info = await service.create_table("coins", uid, RTL, {"target_score": 1})
    await service.join(info.id, 7810, ARABIC)
    await service.join(info.id, 7811, LONG)
    names = [RTL, ARABIC, LONG]
    host = await open_phone(browser, server, person(9, RTL), start_param=info.id, viewport=SMALL)
    page = host.page
    await expect(page.locator(".lobby .seats li")).to_have_count(3)
    await isolated(page, ".lobby .seats", names[1:])
    you = page.locator(".seats li").first
    await expect(you.locator(".badge.you")).to_have_text("You")
    name_box = await you.locator(".pname").bounding_box()
    badge_box = await you.locator(".badge.you").bounding_box()
    assert name_box and badge_box, "the name and its badge are shown"
    assert badge_box["x"] >= name_box["x"] + name_box["width"] - 1, "You stays after the name"
    await page.screenshot(path=str(screenshot_path("chosen-names-lobby-360x640.png")))

    await service.start_game(info.id, uid)
    await expect(page.locator(".hand .card").first).to_be_visible()
    await isolated(page, ".player .pname", names[1:])
    await page.screenshot(path=str(screenshot_path("chosen-names-table-360x640.png")))
    await play_out(service, info.id)
    sheet = page.locator(".sheet.game-over")
    await expect(sheet).to_be_visible()
    await isolated(page, ".sheet.game-over .placements", names[1:])
    if await sheet.locator(".winner bdi").count():  # someone else won: their name, isolated in the sentence
        await isolated(page, ".sheet.game-over .winner", names[1:])
    await page.screenshot(path=str(screenshot_path("chosen-names-sheet-360x640.png")))
    await page.locator(".go-home").tap()
    await expect(page.locator(".hello bdi")).to_contain_text("esrever")  # the server keeps no bidi controls
    await page.locator("#tab-history").tap()
    await expect(page.locator(".records > li")).to_have_count(1)
    await isolated(page, ".records", names[1:])
    await page.screenshot(path=str(screenshot_path("chosen-names-history-360x640.png")))
    assert host.errors == []
