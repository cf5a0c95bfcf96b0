"""Every screen a player meets passes axe-core's serious and critical checks, in light and dark, and every
control a player taps is big enough for a thumb."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, ViewportSize, expect

from tests.browser.conftest import Phone, Server, open_phone, screenshot_path

AXE = Path(__file__).resolve().parent / "fixtures" / "axe" / "axe.min.js"
GAMES = ["coins", "sergeant_major", "kings_corner"]
SCHEMES = ["light", "dark"]
SEED = "a11y" * 16
TALL: ViewportSize = {"width": 390, "height": 844}
SMALL: ViewportSize = {"width": 360, "height": 640}
# Coins has no choice to make before the first card; Ann deals Sergeant Major (she names trumps); two at Kings.
OPTIONS: dict[str, dict[str, Any]] = {"coins": {}, "sergeant_major": {"first_dealer": "host"},
                                      "kings_corner": {"players": 2}}
# Motion finished and the page still, so colours are measured as a player sees them at rest.
SETTLED = """() => document.getAnimations().every((a) => a.playState !== 'running'
  || (a.effect && a.effect.getTiming().iterations === Infinity))"""


def user(n: int) -> dict[str, Any]:
    """A Telegram user speaking English."""
    return {"id": 7700 + n, "first_name": "Ann", "language_code": "en"}


async def new_table(server: Server, game: str, uid: int, *, start: bool = True) -> str:
    """A table of ``game`` hosted by ``uid`` with AI players in the other seats, started unless ``start`` is off."""
    info = await server.service.create_table(game, uid, "Ann", OPTIONS[game], seed=SEED)
    for _ in range(info.size - 1):
        await server.service.add_ai(info.id, uid)
    if start:
        await server.service.start_game(info.id, uid)
        await server.service.idle()
    return info.id


async def big_kings_hand(server: Server, uid: int, size: int) -> str:
    """A two-player Kings table where Ann has ended her turns without playing until she holds ``size`` cards."""
    info = await server.service.create_table("kings_corner", uid, "Ann",
                                             {"players": 2, "draw_count": 2, "king_compulsory": False}, seed="ab" * 32)
    await server.service.add_ai(info.id, uid)
    await server.service.start_game(info.id, uid)
    for _ in range(40):
        await server.service.idle()
        view = await server.service.view(info.id, uid)
        state = view["state"]
        assert state["phase"] != "over", "the AI went out before Ann's hand grew"
        if len(state["hand"]) >= size and state["turn"] == view["you"]:
            return info.id
        if state["turn"] == view["you"]:
            await server.service.act(info.id, uid, {"type": "end_turn"}, view["seq"])
    raise AssertionError("Ann's hand never grew")


async def axe_run(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    await page.wait_for_function(SETTLED)
    if not await page.evaluate("() => Boolean(window.axe)"):
        await page.add_script_tag(path=str(AXE))
    result: dict[str, Any] = await page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


def describe(violations: list[dict[str, Any]]) -> str:
    """The violations, one line per element, for an assertion message."""
    return "\n".join(f"{v['id']} ({v['impact']}): {node['target']} {node['failureSummary'][:300]!r}"
                     for v in violations for node in v["nodes"])


async def open_screen(browser: Any, server: Server, screen: str, scheme: str, n: int,
                      viewport: ViewportSize = TALL) -> Phone:
    """Ann's phone on ``screen``: "home", "lobby" (a table waiting to start) or a game's table."""
    if screen == "home":
        phone = await open_phone(browser, server, user(n), scheme=scheme, viewport=viewport)
        await expect(phone.page.locator(".game-picker")).to_be_visible()
        return phone
    game = "coins" if screen == "lobby" else screen
    table_id = await new_table(server, game, 7700 + n, start=screen != "lobby")
    phone = await open_phone(browser, server, user(n), start_param=table_id, scheme=scheme, viewport=viewport)
    page = phone.page
    if screen == "lobby":
        await expect(page.locator(".lobby .start-btn")).to_be_visible()
    else:
        await expect(page.locator(".table-body .hand .card").first).to_be_visible()
    return phone


SCREENS = ["home", "lobby", *GAMES]
# The sheets a table opens, by the button that opens each.
SHEETS = {".topbar .rules-btn": ".rules-sheet", ".topbar .fair-badge": ".fair-sheet",
          ".topbar .settings-btn": ".settings-sheet", ".table-body .score-btn": ".scores-sheet"}


async def axe_sheets(page: Page) -> list[dict[str, Any]]:
    """axe-core's findings on each sheet the table bar and the score bar open, each closed again."""
    found: list[dict[str, Any]] = []
    for button, sheet in SHEETS.items():
        await page.locator(button).tap()
        await expect(page.locator(f"{sheet}")).to_be_visible()
        found += await axe_run(page)
        await page.locator(f"{sheet} .sheet-close").tap()
        await expect(page.locator(".sheet-backdrop")).to_have_count(0)
    return found


async def axe_choices(page: Page, screen: str) -> list[dict[str, Any]]:
    """axe-core's findings while a game asks for a choice: Sergeant Major's trumps, a Kings card and its piles."""
    found: list[dict[str, Any]] = []
    if screen == "sergeant_major":
        # Ann deals: the four suit buttons, then the table with Spades named as trumps
        await expect(page.locator(".sm-suit-btn")).to_have_count(4)
        await page.locator('.sm-suit-btn[data-suit="spades"]').tap()
        await expect(page.locator(".sm-trump")).to_contain_text("Spades")
        found += await axe_run(page)
    if screen == "kings_corner":
        await page.wait_for_function("() => document.querySelector('.kc-table').dataset.turn !== 'wait'")
        playable = page.locator(".kc-hand .card.playable")
        if await playable.count():
            await playable.first.click()
            await expect(page.locator(".kc-pile.target").first).to_be_visible()
            found += await axe_run(page)
    return found


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("screen", SCREENS)
async def test_axe_finds_nothing_serious(browser: Any, server: Server, screen: str, scheme: str) -> None:
    n = SCREENS.index(screen) * 2 + SCHEMES.index(scheme)
    phone = await open_screen(browser, server, screen, scheme, n)
    page = phone.page
    found = await axe_run(page)
    if screen == "home":  # a game's Table options, its longest (Sergeant Major's)
        await page.locator(".game-card[data-game='sergeant_major'] .options-btn").tap()
        await expect(page.locator(".options-sheet .create-btn")).to_be_visible()
        found += await axe_run(page)
        await page.locator(".options-sheet .sheet-close").tap()
        await expect(page.locator(".sheet-backdrop")).to_have_count(0)
    if screen in GAMES:
        found += await axe_sheets(page)
        found += await axe_choices(page, screen)
    await page.screenshot(path=str(screenshot_path(f"axe-{screen}-{scheme}-390x844.png")))
    assert not found, describe(found)
    assert phone.errors == []


# Each suit symbol outside a card: its colour's contrast with what is behind it (the backgrounds of its ancestors,
# translucent ones laid over the first opaque one).
SUIT_CONTRAST_JS = """() => {
  const rgba = (css) => {
    const srgb = /color\\(srgb ([\\d.e-]+) ([\\d.e-]+) ([\\d.e-]+)(?: \\/ ([\\d.]+))?\\)/.exec(css);
    if (srgb) return [+srgb[1] * 255, +srgb[2] * 255, +srgb[3] * 255, srgb[4] === undefined ? 1 : +srgb[4]];
    const m = css.match(/[\\d.]+/g).map(Number);
    return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  };
  const lum = ([r, g, b]) => [r, g, b]
    .map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; })
    .reduce((s, c, i) => s + c * [0.2126, 0.7152, 0.0722][i], 0);
  const behind = (el) => {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const cs = getComputedStyle(node);
      if (cs.backgroundImage !== 'none') throw new Error('a suit symbol over a picture: ' + node.className);
      const c = rgba(cs.backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] === 1) break;
    }
    return layers.reverse().reduce((acc, [r, g, b, a]) => [r * a + acc[0] * (1 - a), g * a + acc[1] * (1 - a),
      b * a + acc[2] * (1 - a)], [255, 255, 255]);
  };
  return [...document.querySelectorAll('.suit-icon')].filter((el) => el.offsetParent !== null).map((el) => {
    const [fg, bg] = [rgba(getComputedStyle(el).color), behind(el)];
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    return {where: el.parentElement.className, suit: el.className, ratio: (hi + 0.05) / (lo + 0.05)};
  });
}"""


@pytest.mark.parametrize("game", GAMES)
async def test_suit_symbols_stand_out_in_light_and_dark(browser: Any, server: Server, game: str) -> None:
    seen: set[str] = set()
    for scheme in SCHEMES:
        n = 20 + GAMES.index(game) * 2 + SCHEMES.index(scheme)
        if game == "kings_corner":  # Ann has drawn: her cards in the log, each a small chip
            table_id = await big_kings_hand(server, 7700 + n, 9)
            phone = await open_phone(browser, server, user(n), start_param=table_id, scheme=scheme)
        else:
            phone = await open_screen(browser, server, game, scheme, n)
        page = phone.page
        if game == "sergeant_major":  # a black suit named as trumps: the chip in the score bar
            await page.locator('.sm-suit-btn[data-suit="spades"]').tap()
            await expect(page.locator(".sm-trump .suit-icon")).to_be_visible()
        if game == "kings_corner":
            await expect(page.locator(".kc-log .kc-chip").first).to_be_visible()
        if game == "coins":  # the suit cycle, on the table and in the rules
            await page.locator(".topbar .rules-btn").tap()
            await expect(page.locator(".rules-sheet .cycle")).to_be_visible()
        await page.wait_for_function(SETTLED)
        suits = await page.evaluate(SUIT_CONTRAST_JS)
        assert suits, "no suit symbol on the page"
        low = [s for s in suits if s["ratio"] < 3]
        assert not low, (scheme, low)
        seen |= {s["suit"] for s in suits}
        await page.screenshot(path=str(screenshot_path(f"suits-{game}-{scheme}-390x844.png")))
        assert phone.errors == []
    if game == "sergeant_major":
        assert any("spades" in suit for suit in seen), seen
