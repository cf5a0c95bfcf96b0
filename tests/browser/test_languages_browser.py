"""The Mini App in Russian, Korean and Latvian: the language a player sees, a few moves of each game with the
seat panels, turn bar, narration and game-over sheet in that language, and nothing cut off on a small phone.

Expected texts are written here by hand from the translations and each language's plural rule, never read
back from the page's own strings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.async_api import Page, Position, ViewportSize, WebSocketRoute, expect

from tests.browser.conftest import Phone, Server, open_phone, screenshot_path
from tests.browser.test_sergeant_major_browser import decide as decide_sergeant_major

VISIBLE_EDGE: Position = {"x": 6, "y": 24}  # where a fanned card shows from under its neighbour

LANGS = ("ru", "ko", "lv")
SMALL: ViewportSize = {"width": 360, "height": 640}
SETTLED_KC = "() => ['mine', 'over'].includes(document.querySelector('.kc-table')?.dataset.turn)"
MY_TURN = "() => document.querySelector('.status.mine')"
SEQ_PAST = "s => Number(document.querySelector('.table-screen').dataset.seq) > s"

# Every visible text node (words for screen readers only aside) must lie inside its box and the screen; a box
# that clips its text (an ellipsis) fails too.
OVERFLOW_JS = """() => {
  const out = [];
  const vw = document.documentElement.clientWidth;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('svg, script, style, option, #toast, .kc-evs, .kc-fly, .sr-only')) continue;
    if (getComputedStyle(el).visibility === 'hidden' || !el.getClientRects().length) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (!r.width) continue;
    let box = el;
    while (box.parentElement && getComputedStyle(box).display === 'inline') box = box.parentElement;
    const b = box.getBoundingClientRect();
    const clips = getComputedStyle(box).overflowX !== 'visible' && box.scrollWidth > box.clientWidth + 1;
    if (clips || r.right > vw + 1 || r.left < -1 || r.right > b.right + 1 || r.left < b.left - 1) {
      out.push(`${box.tagName.toLowerCase()}.${box.className}: "${text.slice(0, 50)}" ` +
        `text ${Math.round(r.left)}..${Math.round(r.right)}, box ${Math.round(b.left)}..${Math.round(b.right)}, ` +
        `scroll ${box.scrollWidth}/${box.clientWidth}`);
    }
  }
  const caption = document.querySelector('.felt .caption');
  const button = document.querySelector('.felt .last-btn');
  if (caption && button && caption.firstChild) {
    const range = document.createRange();
    range.selectNodeContents(caption);
    const a = range.getBoundingClientRect();
    const b = button.getBoundingClientRect();
    if (a.width && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
      out.push(`the trick caption "${caption.textContent}" runs under the Last trick button`);
    }
  }
  return out;
}"""


def ru_plural(n: int, one: str, few: str, many: str) -> str:
    """Russian: 1, 21, 31 … one; 2-4, 22-24 … few; the rest (5-20, 11-14, 0) many."""
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def lv_plural(n: int, one: str, other: str, zero: str) -> str:
    """Latvian: 1, 21, 31 … (not 11) one; zero its own; everything else the other form."""
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return one
    return other if n else zero


def cards(lang: str, n: int) -> str:
    """"{n} cards" in the language."""
    if lang == "ru":
        return f"{n} {ru_plural(n, 'карта', 'карты', 'карт')}"
    if lang == "lv":
        return f"{n} {lv_plural(n, 'kārts', 'kārtis', 'kāršu')}"
    return f"{n}장"


def points(lang: str, n: int) -> str:
    """"{n} pts" in the language."""
    if lang == "ru":
        return f"{n} {ru_plural(n, 'очко', 'очка', 'очков')}"
    if lang == "lv":
        return f"{n} {lv_plural(n, 'punkts', 'punkti', 'punktu')}"
    return f"{n}점"


TEXT: dict[str, dict[str, str]] = {
    "ru": {
        "new_game": "Новая игра", "your_turn": "Твой ход", "ai": "(ИИ)", "game_over": "Игра окончена",
        "you_won": "Победа за тобой!", "winner_is": "Победитель: ", "play_again": "Сыграть ещё",
        "coins": "Монеты", "spanish_clubs": "Булавы", "leads_you": "Ты заходишь", "play": "Сыграть: ",
        "sm": "Сержант-майор (3-5-8)", "name_trumps": "Назначь козыри", "tricks_0_8": "взяток: 0/8", "dealer": "С",
        "kitty_title": "Снеси в прикуп 4 карты", "named_you": "Ты назначаешь козыри: ", "chosen": "выбрано {k}/4",
        "discard_btn": "Снести 4 карты",
        "kc": "Короли в углах", "kc_rule": "Побеждает первый, у кого кончатся карты", "end_turn": "Закончить ход",
        "you_log": "Ты:",
    },
    "ko": {
        "new_game": "새 게임", "your_turn": "내 차례", "ai": "(AI)", "game_over": "게임 종료",
        "you_won": "승리했어요!", "winner_is": "승자: ", "play_again": "다시 하기",
        "coins": "코인", "spanish_clubs": "클럽", "leads_you": "내가 선이에요", "play": " 내기",
        "sm": "서전트 메이저 (3-5-8)", "name_trumps": "으뜸패를 정하세요", "tricks_0_8": "트릭 0/8", "dealer": "D",
        "kitty_title": "키티로 4장 버리세요", "named_you": "내가 정한 으뜸패: ", "chosen": "{k}/4 선택",
        "discard_btn": "4장 버리기",
        "kc": "킹즈 인 더 코너", "kc_rule": "카드를 먼저 다 낸 사람이 승리", "end_turn": "턴 종료",
        "you_log": "나:",
    },
    "lv": {
        "new_game": "Jauna spēle", "your_turn": "Tavs gājiens", "ai": "(MI)", "game_over": "Spēle beigusies",
        "you_won": "Tu uzvarēji!", "winner_is": "Uzvarēja: ", "play_again": "Spēlēt vēlreiz",
        "coins": "Monētas", "spanish_clubs": "Nūjas", "leads_you": "Tu izej", "play": "Izspēlēt: ",
        "sm": "Seržants majors (3-5-8)", "name_trumps": "Nosaki trumpjus", "tricks_0_8": "stiķi: 0/8", "dealer": "D",
        "kitty_title": "Norok pirkumā 4 kārtis", "named_you": "Tu nosaki trumpjus: ", "chosen": "izvēlētas {k}/4",
        "discard_btn": "Norakt 4 kārtis",
        "kc": "Karaļi stūros", "kc_rule": "Uzvar, kurš pirmais paliek bez kārtīm", "end_turn": "Beigt gājienu",
        "you_log": "Tu:",
    },
}
# The caption under a trick once one has been taken (a player's name isolated: U+2068 … U+2069)
TRICK_CAPTION = {
    "ru": re.compile(r"^(Последняя взятка( твоя|: .+ \(ИИ\)\u2069?)?|Взятка твоя(: \+\d+)?"
                     r"|Взятка: .+ \(ИИ\)\u2069?(, \+\d+)?)$"),
    "ko": re.compile(r"^(지난 트릭(: 내 것|: .+ \(AI\)\u2069?)?|내가 트릭을 가져왔어요(: \+\d+)?"
                     r"|트릭 획득: .+ \(AI\)\u2069?( \+\d+)?)$"),
    "lv": re.compile(r"^(Pēdējais stiķis(: tavs|: .+ \(MI\)\u2069?)?|Tu paņēmi stiķi(: \+\d+)?"
                     r"|Stiķi paņem: .+ \(MI\)\u2069?(, \+\d+)?)$"),
}
# Sergeant Major's suit buttons, in the table's order: hearts, spades, diamonds, clubs (the French deck's words)
FRENCH_SUITS = {"ru": ["Червы", "Пики", "Бубны", "Трефы"], "ko": ["하트", "스페이드", "다이아몬드", "클로버"],
                "lv": ["Erceni", "Pīķi", "Kāravi", "Kreiči"]}
# A Coins card in words: rank and Spanish suit, in the language's order and case
SPANISH_CARD = {
    "ru": r"^(туз|король|рыцарь|валет|двойка|тройка|четвёрка|пятёрка|шестёрка|семёрка|восьмёрка|девятка)"
          r" (кубков|монет|мечей|булав)$",
    "ko": r"^(컵|코인|소드|클럽) (에이스|킹|나이트|잭|[2-9])$",
    "lv": r"^(kausu|monētu|zobenu|nūju) (dūzis|karalis|jātnieks|kalps|[2-9])$",
}
# What a court card or an Ace shows in its corner (Russian players read Т, К, Д, Р, В)
CORNER_LETTERS = {"ru": {"A": "Т", "K": "К", "N": "Р", "J": "В", "Q": "Д"}}
KC_LABELS = {"ru": {"С", "В", "Ю", "З", "СВ", "ЮВ", "ЮЗ", "СЗ"},
             "ko": {"북", "동", "남", "서", "북동", "남동", "남서", "북서"},
             "lv": {"Z", "A", "D", "R", "ZA", "DA", "DR", "ZR"}}
GAME_OVER_IN = {"ru": "coins", "ko": "kings_corner", "lv": "sergeant_major"}  # one whole game per language
# Refusals as each language says them, the card named the way its players name it, never by its wire code
NOT_HELD = {"ru": "У тебя нет {card}.", "ko": "손패에 {card} 카드가 없어요.", "lv": "Tev nav {card}."}
NOT_A_KING = {"ru": "Карта {card} — не король: угловые стопки начинаются только с короля.",
              "ko": "{card} 카드는 킹이 아니에요. 코너 더미는 킹으로만 시작해요.",
              "lv": "Kārts {card} nav karalis: stūra kaudzes sāk tikai ar karali."}
# Cards Ann may not hold, and their names in NOT_HELD's case: Coins in words (the genitive in Russian and Latvian),
# the French deck by letter and sign
UNHELD: dict[str, dict[str, dict[str, str]]] = {
    "coins": {"A-coins": {"ru": "туза монет", "ko": "코인 에이스", "lv": "monētu dūža"},
              "K-coins": {"ru": "короля монет", "ko": "코인 킹", "lv": "monētu karaļa"},
              "N-coins": {"ru": "рыцаря монет", "ko": "코인 나이트", "lv": "monētu jātnieka"}},
    "sergeant_major": {"Q-spades": {"ru": "Д♠", "ko": "Q♠", "lv": "Q♠"},
                       "K-spades": {"ru": "К♠", "ko": "K♠", "lv": "K♠"},
                       "A-spades": {"ru": "Т♠", "ko": "A♠", "lv": "A♠"}},
}
FRENCH_LETTERS = {"ru": {"A": "Т", "K": "К", "Q": "Д", "J": "В"}}
SIGNS = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}
# The first dealer's choices (random, the host, each seat) and the 6-3-8 removed card's (the twos, or random)
FIRST_DEALERS = {"ru": ["Случайно", "Хозяин стола", "Место 1", "Место 2", "Место 3"],
                 "ko": ["무작위", "방장", "1번 자리", "2번 자리", "3번 자리"],
                 "lv": ["Nejauši", "Galda saimnieks", "Vieta 1", "Vieta 2", "Vieta 3"]}
REMOVED_CARDS = {"ru": ["Двойка треф", "Двойка червей", "Двойка бубен", "Двойка пик", "Случайная в каждой раздаче"],
                 "ko": ["클로버 2", "하트 2", "다이아몬드 2", "스페이드 2", "라운드마다 무작위"],
                 "lv": ["Kreiču 2", "Erceņu 2", "Kāravu 2", "Pīķu 2", "Katrā partijā nejauši"]}
EMPTY_CORNER = ('.kc-pile[data-count="0"]:is([data-space="NE"], [data-space="SE"], [data-space="SW"], '
                '[data-space="NW"])')


def kc_stock(lang: str, n: int) -> str:
    """"{n} in stock"."""
    if lang == "ru":
        return f"{n} {ru_plural(n, 'карта', 'карты', 'карт')} в колоде"
    if lang == "lv":
        return f"Kavā {n} {lv_plural(n, 'kārts', 'kārtis', 'kāršu')}"
    return f"덱 {n}장"


def kc_hold(lang: str, n: int) -> str:
    """"You hold {n}"."""
    if lang == "ru":
        return f"У тебя {cards(lang, n)}"
    if lang == "lv":
        return f"Tev ir {cards(lang, n)}"
    return f"내 손패 {n}장"


def kc_left(lang: str, n: int) -> str:
    """"{n} cards left"."""
    if lang == "ru":
        return f"{ru_plural(n, 'осталась', 'осталось', 'осталось')} {cards(lang, n)}"
    if lang == "lv":
        return f"{cards(lang, n)} {lv_plural(n, 'palikusi', 'palikušas', 'palicis')}"
    return f"{n}장 남음"


def french_card(card: str, lang: str) -> str:
    """A French card as a refusal names it: the corner letter and the suit's sign ("Д♠" in Russian)."""
    rank, _, suit = card.partition("-")
    return FRENCH_LETTERS.get(lang, {}).get(rank, rank) + SIGNS[suit]


async def check_refused_play(phone: Phone, server: Server, table_id: str, uid: int, game: str, lang: str,
                             card: str) -> None:
    """Ann plays ``card`` by tapping it, and the server is told of a card she does not hold: it refuses, and the
    page says why in her language (the socket is routed from here on, so the page is loaded again)."""
    page = phone.page
    hand = set((await server.service.view(table_id, uid))["state"]["hand"])
    unheld, names = next((c, n) for c, n in UNHELD[game].items() if c not in hand)
    armed = [unheld]

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def forward(message: str | bytes) -> None:
            frame = json.loads(message) if isinstance(message, str) else {}
            action = frame.get("action") if frame.get("type") == "act" else None
            if armed and isinstance(action, dict) and action.get("type") == "play":
                action["card"] = armed.pop()
                message = json.dumps(frame)
            upstream.send(message)

        ws.on_message(forward)

    await page.route_web_socket(re.compile(r"/ws/"), route)
    await page.reload()
    await page.wait_for_function(MY_TURN)
    before = await seq_of(page)
    await page.locator(f'.hand .card[data-card="{card}"]').tap()
    # once: a tap is retried if the hand redraws
    await page.evaluate("window.Telegram.WebView.receiveEvent('main_button_pressed')")
    await expect(page.locator("#toast")).to_have_text(NOT_HELD[lang].format(card=names[lang]))
    assert not armed and await seq_of(page) == before


def user_for(lang: str, n: int) -> dict[str, Any]:
    """A Telegram user whose app speaks ``lang``."""
    return {"id": 5400 + n, "first_name": "Ann", "language_code": lang}


async def open_in_language(browser: Any, server: Server, user: dict[str, Any], lang: str,
                           start_param: str | None = None, *, confirm_cards: bool = False) -> Phone:
    """Open the Mini App from Telegram: the page reloads once in the user's language (``confirm_cards``: one-tap
    play turned off, so each card shows its Play button, in that language, before it is played)."""
    phone = await open_phone(browser, server, user, start_param=start_param, confirm_cards=confirm_cards)
    await phone.page.wait_for_url(re.compile(rf"[?&]lang={lang}\b"))
    await expect(phone.page.locator("html")).to_have_attribute("lang", lang)
    return phone


async def new_table(server: Server, game: str, uid: int, options: dict[str, Any], seed: str) -> str:
    """A started table of ``game`` hosted by ``uid``, the other seats AI players."""
    info = await server.service.create_table(game, uid, "Ann", options, seed=seed)
    for _ in range(info.size - 1):
        await server.service.add_ai(info.id, uid)
    await server.service.start_game(info.id, uid)
    return info.id


async def seq_of(page: Page) -> int:
    """The seq the page's table view is at."""
    return int(await page.locator(".table-screen").get_attribute("data-seq") or "-1")


async def check_layout(page: Page, name: str) -> None:
    """Screenshots at 390×844 and 360×640, and at 360×640 no text spills out of its box or is cut off."""
    await page.screenshot(path=str(screenshot_path(f"{name}-390x844.png")))
    await page.set_viewport_size(SMALL)
    await page.wait_for_timeout(150)
    await page.screenshot(path=str(screenshot_path(f"{name}-360x640.png")))
    assert await page.evaluate(OVERFLOW_JS) == [], name
    await page.set_viewport_size({"width": 390, "height": 844})


async def finish_by_service(phone: Phone, server: Server, table_id: str, uid: int,
                            decide: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Play the rest of the game for Ann through the service while her page is away, then open the table again."""
    url = phone.page.url
    await phone.page.goto("about:blank")
    for _ in range(2000):
        await server.service.autoplay.idle()
        info = await server.service.info(table_id)
        if info.status == "finished":
            break
        view = await server.service.view(table_id, uid)
        await server.service.act(table_id, uid, decide(view["state"]), view["seq"])
    assert (await server.service.info(table_id)).status == "finished"
    await phone.page.goto(url)
    await expect(phone.page.locator(".sheet.game-over")).to_be_visible()


async def check_game_over(phone: Phone, server: Server, table_id: str, lang: str,
                          score_text: Callable[[int], str]) -> None:
    """The game-over sheet in the language: title, winner line, every seat's score, the buttons."""
    page = phone.page
    text = TEXT[lang]
    info = await server.service.info(table_id)
    assert info.result is not None
    sheet = page.locator(".sheet.game-over")
    await expect(sheet.locator("h2")).to_have_text(text["game_over"])
    winners = info.result["winners"]
    if winners == [0]:
        await expect(sheet.locator(".winner")).to_have_text(text["you_won"])
    elif len(winners) == 1:
        await expect(sheet.locator(".winner")).to_have_text(
            f"{text['winner_is']}{info.seats[winners[0]].name.replace('(AI)', text['ai'])}")
    wanted = sorted(score_text(score) for score in info.result["scores"])
    assert sorted(await page.locator(".placements .pscore").all_text_contents()) == wanted
    await expect(sheet.locator(".play-again")).to_have_text(text["play_again"])


@pytest.mark.parametrize("lang", LANGS)
async def test_coins_in_each_language(browser: Any, server: Server, lang: str) -> None:
    text = TEXT[lang]
    user = user_for(lang, 1)
    # coins/RULES.md §3.2: the seat after the dealer leads, so with seat 3 dealing Ann leads the first trick
    table_id = await new_table(server, "coins", user["id"], {"first_dealer": "seat:2"}, f"coins-{lang}")
    ann = await open_in_language(browser, server, user, lang, start_param=table_id, confirm_cards=True)
    page = ann.page
    await expect(page.locator(".hand .card")).to_have_count(16)
    await expect(page.locator(".topbar .title")).to_have_text(text["coins"])
    await expect(page.locator(".cycle")).to_contain_text(text["spanish_clubs"])
    await expect(page.locator(".status.mine")).to_contain_text(text["your_turn"])
    await expect(page.locator(".felt .caption")).to_have_text(text["leads_you"])
    for seat in (1, 2):
        panel = page.locator(f'.opps .player[data-seat="{seat}"]')
        await expect(panel.locator(".count")).to_have_text(cards(lang, 16))
        await expect(panel.locator(".pname")).to_contain_text(text["ai"])
    await expect(page.locator(".me .pname")).not_to_have_text("You")
    labels = await page.locator(".hand .card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert all(re.match(SPANISH_CARD[lang], label) for label in labels), labels
    corners = await page.locator(".hand .card").evaluate_all(
        "els => els.map(e => [e.dataset.card.split('-')[0], e.querySelector('.rank').textContent])")
    letters = CORNER_LETTERS.get(lang, {})
    assert all(shown == letters.get(rank, rank) for rank, shown in corners), corners
    for move in range(3):
        await page.wait_for_function(MY_TURN)
        card = (await page.locator(".hand .card").first.get_attribute("data-card")) or ""
        await page.locator(f'.hand .card[data-card="{card}"]').tap()
        label = await page.evaluate("window.Telegram.WebApp.MainButton.text")
        assert label.startswith(text["play"]) or label.endswith(text["play"]), label
        if move == 1:
            await check_layout(page, f"coins-{lang}")
        before = await seq_of(page)
        await page.locator(f'.hand .card[data-card="{card}"]').tap()
        await page.wait_for_function(SEQ_PAST, arg=before)
    await page.wait_for_function(MY_TURN)
    # under the trick: who took the last one (in "you" words when it was Ann), or the Last trick button
    await expect(page.locator(".felt .caption, .felt .last-btn").first).to_have_text(TRICK_CAPTION[lang])
    await expect(page.locator(".status.mine")).to_contain_text(text["your_turn"])
    first = (await page.locator(".hand .card").first.get_attribute("data-card")) or ""
    await check_refused_play(ann, server, table_id, user["id"], "coins", lang, first)

    if GAME_OVER_IN[lang] == "coins":
        await finish_by_service(ann, server, table_id, user["id"], lambda s: {"type": "play", "card": s["legal"][0]})
        await check_game_over(ann, server, table_id, lang, lambda n: points(lang, n))
        await check_layout(page, f"coins-{lang}-game-over")
    assert ann.errors == []


@pytest.mark.parametrize("lang", LANGS)
async def test_sergeant_major_in_each_language(browser: Any, server: Server, lang: str) -> None:
    text = TEXT[lang]
    user = user_for(lang, 2)
    table_id = await new_table(server, "sergeant_major", user["id"], {"first_dealer": "host"}, f"sm-{lang}")
    ann = await open_in_language(browser, server, user, lang, start_param=table_id, confirm_cards=True)
    page = ann.page
    await expect(page.locator(".sm-suit-btn")).to_have_count(4)
    await expect(page.locator(".topbar .title")).to_have_text(text["sm"])
    await expect(page.locator(".status.mine")).to_contain_text(text["name_trumps"])
    await expect(page.locator(".sm-suit-btn")).to_have_text(FRENCH_SUITS[lang])
    await expect(page.locator(".me .sm-tricks")).to_have_text(text["tricks_0_8"])
    await expect(page.locator(".me .sm-pos")).to_have_text(text["dealer"])
    await expect(page.locator(".opps .pname").first).to_contain_text(text["ai"])
    await check_layout(page, f"sergeant-major-{lang}-trumps")

    view = await server.service.view(table_id, user["id"])
    action = decide_sergeant_major(view["state"])
    suit = FRENCH_SUITS[lang][["hearts", "spades", "diamonds", "clubs"].index(action["suit"])]
    before = await seq_of(page)
    await page.locator(f'.sm-suit-btn[data-suit="{action["suit"]}"]').tap()
    await page.wait_for_function(SEQ_PAST, arg=before)
    await expect(page.locator(".sm-trump")).to_contain_text(suit)
    # classic: the dealer discards four to the kitty; the log says in "you" words who named trumps
    await expect(page.locator(".sm-panel h2")).to_have_text(text["kitty_title"])
    await expect(page.locator(".sm-log")).to_contain_text(f"{text['named_you']}{suit}")
    discard = decide_sergeant_major((await server.service.view(table_id, user["id"]))["state"])["cards"]
    for k, card in enumerate(discard, 1):
        await page.locator(f'.hand .card[data-card="{card}"]').tap()
        await expect(page.locator(".sm-count")).to_have_text(text["chosen"].format(k=k))
    assert await page.evaluate("window.Telegram.WebApp.MainButton.text") == text["discard_btn"]
    await check_layout(page, f"sergeant-major-{lang}-kitty")
    before = await seq_of(page)
    await page.evaluate("window.Telegram.WebView.receiveEvent('main_button_pressed')")
    await page.wait_for_function(SEQ_PAST, arg=before)

    for _ in range(2):  # two tricks by tapping
        await page.wait_for_function(MY_TURN)
        view = await server.service.view(table_id, user["id"])
        await page.wait_for_function("s => Number(document.querySelector('.table-screen').dataset.seq) === s",
                                     arg=view["seq"])
        await expect(page.locator(".status.mine")).to_contain_text(text["your_turn"])
        card = decide_sergeant_major(view["state"])["card"]
        await page.locator(f'.hand .card[data-card="{card}"]').tap()
        before = await seq_of(page)
        await page.locator(f'.hand .card[data-card="{card}"]').tap()
        await page.wait_for_function(SEQ_PAST, arg=before)
    await page.wait_for_function(MY_TURN)
    await expect(page.locator(".felt .caption, .felt .last-btn").first).to_have_text(TRICK_CAPTION[lang])
    await check_layout(page, f"sergeant-major-{lang}-play")
    card = decide_sergeant_major((await server.service.view(table_id, user["id"]))["state"])["card"]
    await check_refused_play(ann, server, table_id, user["id"], "sergeant_major", lang, card)

    if GAME_OVER_IN[lang] == "sergeant_major":
        await finish_by_service(ann, server, table_id, user["id"], decide_sergeant_major)
        # classic 3-5-8 keeps stakes, not points: "stakes {n}" in Latvian, signed as the table signs them ("−30")
        await check_game_over(ann, server, table_id, lang,
                              lambda n: f"likmes: {n:+d}".replace("-", "−") if n else "likmes: 0")
        await check_layout(page, f"sergeant-major-{lang}-game-over")
    assert ann.errors == []


def kings_move(state: dict[str, Any]) -> dict[str, Any]:
    """Any move that puts a card or a pile down, else end the turn."""
    legal: list[dict[str, Any]] = state["legal"]
    return next((a for a in legal if a["type"] != "end_turn"), legal[0])


@pytest.mark.parametrize("lang", LANGS)
async def test_kings_corner_in_each_language(browser: Any, server: Server, lang: str) -> None:
    text = TEXT[lang]
    user = user_for(lang, 3)
    table_id = await new_table(server, "kings_corner", user["id"], {"players": 2}, f"kc-{lang}")
    ann = await open_in_language(browser, server, user, lang, start_param=table_id)
    page = ann.page
    await expect(page.locator(".kc-pile")).to_have_count(8)
    await expect(page.locator(".topbar .title")).to_have_text(text["kc"])
    await expect(page.locator(".kc-rule")).to_have_text(text["kc_rule"])
    labels = set(await page.locator(".kc-label").all_text_contents())
    assert labels == KC_LABELS[lang]

    # a card that is no King put on an empty corner: the rules refuse it, in the page's language
    await page.wait_for_function(SETTLED_KC)
    card_el = page.locator('.kc-hand .card.playable:not([data-card^="K-"])').first
    card = (await card_el.get_attribute("data-card")) or ""
    await card_el.tap(position=VISIBLE_EDGE)
    before = await seq_of(page)
    await page.locator(EMPTY_CORNER).first.tap()
    await expect(page.locator("#toast")).to_have_text(NOT_A_KING[lang].format(card=french_card(card, lang)))
    assert await seq_of(page) == before

    told = 0
    for turn in range(3):
        await page.wait_for_function(SETTLED_KC)
        state = (await server.service.view(table_id, user["id"]))["state"]
        await expect(page.locator(".status.mine .kc-status-main")).to_have_text(text["your_turn"])
        await expect(page.locator(".kc-mine")).to_have_text(kc_hold(lang, len(state["hand"])))
        await expect(page.locator(".kc-seat .kc-n")).to_have_text(cards(lang, state["hand_counts"][1]))
        await expect(page.locator(".kc-stock-n")).to_have_text(kc_stock(lang, state["stock"]))
        playable = page.locator(".kc-hand .card.playable")
        if await playable.count():
            await playable.first.tap(position=VISIBLE_EDGE)  # a fanned hand covers the rest of the card
            before = await seq_of(page)
            await page.locator(".kc-pile.target").first.tap()
            await page.wait_for_function(SEQ_PAST, arg=before)
            await page.wait_for_function(SETTLED_KC)
            if await page.locator(".kc-table[data-turn='mine']").count():
                # the story of the turn so far, told about "you"
                await expect(page.locator(".kc-log .kc-turn.current .kc-who")).to_have_text(text["you_log"])
                told += 1
        if turn == 0:
            await check_layout(page, f"kings-corner-{lang}")
        end = page.locator(".kc-end-turn")
        if await page.locator(".kc-table[data-turn='over']").count():
            break
        if await end.is_enabled():
            await expect(end).to_contain_text(text["end_turn"])
            before = await seq_of(page)
            await end.tap()
            await page.wait_for_function(SEQ_PAST, arg=before)
            await page.wait_for_function(SETTLED_KC)
    assert told or await page.locator(".kc-table[data-turn='over']").count(), "Ann put a card down at least once"

    if GAME_OVER_IN[lang] == "kings_corner":
        await finish_by_service(ann, server, table_id, user["id"], kings_move)
        await check_game_over(ann, server, table_id, lang, lambda n: kc_left(lang, n))
        await check_layout(page, f"kings-corner-{lang}-game-over")
    assert ann.errors == []


async def test_page_follows_telegram_language_then_the_players_choice(browser: Any, server: Server) -> None:
    user = user_for("ru", 4)
    ann = await open_in_language(browser, server, user, "ru")
    page = ann.page
    await expect(page.locator(".game-picker h2")).to_have_text(TEXT["ru"]["new_game"])
    await expect(page.locator("#lang-select option")).to_have_text(["English", "Русский", "한국어", "Latviešu"])
    await expect(page.locator("#lang-select")).to_have_value("ru")
    await page.screenshot(path=str(screenshot_path("home-ru-390x844.png")))

    await page.locator("#lang-select").select_option("lv")
    await page.wait_for_url(re.compile(r"[?&]lang=lv\b"))
    await expect(page.locator("html")).to_have_attribute("lang", "lv")
    await expect(page.locator(".game-picker h2")).to_have_text(TEXT["lv"]["new_game"])
    assert await page.evaluate("localStorage.getItem('cardroom.lang')") == "lv"
    assert await server.service.store.people.user_language(user["id"]) == "lv"  # the bot writes to her in it too

    # opened again with no ?lang=: the choice beats Telegram's language, and the cookie renders it at once
    await page.goto(server.url + "/")
    await expect(page.locator("html")).to_have_attribute("lang", "lv")
    assert "lang=" not in page.url

    # the table's bar: its gear opens the settings, whose language list brings the table back in the new language
    await page.locator(".game-card[data-game='coins'] .options-btn").tap()
    await page.locator(".options-sheet .create-btn").tap()
    await expect(page.locator(".lobby")).to_be_visible()
    table_id = await page.locator(".table-screen").get_attribute("data-table")
    await page.locator(".topbar .settings-btn").tap()
    languages = page.locator(".settings-sheet #settings-lang option")
    await expect(languages).to_have_text(["English", "Русский", "한국어", "Latviešu"])
    await expect(page.locator(".settings-sheet #settings-lang")).to_have_value("lv")
    await page.screenshot(path=str(screenshot_path("table-settings-sheet-lv-390x844.png")))
    await page.locator(".settings-sheet #settings-lang").select_option("ko")
    await page.wait_for_url(re.compile(r"[?&]lang=ko\b"))
    await expect(page.locator("html")).to_have_attribute("lang", "ko")
    await expect(page.locator(".lobby h2")).to_have_text("플레이어를 기다리는 중")
    assert f"table={table_id}" in page.url
    assert ann.errors == []


async def test_the_language_chosen_with_the_bot_opens_the_mini_app_in_it(browser: Any, server: Server) -> None:
    dan_id = 5491
    user = {"id": dan_id, "first_name": "Dan", "language_code": "en"}
    await server.service.store.people.set_user_language(dan_id, "Dan", "ko")  # /language in the bot
    dan = await open_phone(browser, server, user)
    page = dan.page
    await page.wait_for_url(re.compile(r"[?&]lang=ko\b"))
    await expect(page.locator("html")).to_have_attribute("lang", "ko")
    await expect(page.locator(".game-picker h2")).to_have_text(TEXT["ko"]["new_game"])
    assert await page.evaluate("localStorage.getItem('cardroom.lang')") == "ko"

    # opened again with no ?lang=: Korean at once, with no reload
    await page.goto(server.url + "/")
    await expect(page.locator(".game-picker h2")).to_have_text(TEXT["ko"]["new_game"])
    await page.wait_for_timeout(300)
    assert "lang=" not in page.url

    # chosen again with the bot on another device: the next opening follows it, over this phone's own choice
    await server.service.store.people.set_user_language(dan_id, "Dan", "ru")
    await page.goto(server.url + "/")
    await page.wait_for_url(re.compile(r"[?&]lang=ru\b"))
    await expect(page.locator(".game-picker h2")).to_have_text(TEXT["ru"]["new_game"])
    assert dan.errors == []


async def test_unsupported_telegram_language_shows_english_and_never_reloads(browser: Any, server: Server) -> None:
    navigations: list[str] = []
    ann = await open_phone(browser, server, {"id": 5490, "first_name": "Gus", "language_code": "de"})
    ann.page.on("framenavigated", lambda frame: navigations.append(frame.url))
    await expect(ann.page.locator(".game-picker h2")).to_have_text("New game")
    await ann.page.wait_for_timeout(300)
    await expect(ann.page.locator("html")).to_have_attribute("lang", "en")
    assert navigations == [] and "lang=" not in ann.page.url
    assert ann.errors == []


async def test_local_mode_follows_the_browsers_language(browser: Any, local_server: Server) -> None:
    cleo = await open_phone(browser, local_server, locale="ko-KR")
    page = cleo.page
    await expect(page.locator("html")).to_have_attribute("lang", "ko")
    await expect(page.locator(".signin button[type=submit]")).to_have_text("로그인")
    assert "lang=" not in page.url
    await page.screenshot(path=str(screenshot_path("local-sign-in-ko-390x844.png")))
    assert cleo.errors == []


@pytest.mark.parametrize("lang", LANGS)
async def test_home_and_lobby_fit_a_small_phone_in_each_language(browser: Any, server: Server, lang: str) -> None:
    ann = await open_in_language(browser, server, user_for(lang, 5), lang)
    page = ann.page
    await page.set_viewport_size(SMALL)
    assert await page.evaluate(OVERFLOW_JS) == []
    for game in ("coins", "sergeant_major", "kings_corner"):
        await page.locator(f".game-card[data-game='{game}'] .options-btn").tap()  # the game's Table options
        assert await page.evaluate(OVERFLOW_JS) == [], game
        # every option reads whole inside its select (a select clips its text without telling)
        clipped = await page.locator(".options-sheet select").evaluate_all(
            """els => els.filter(s => s.offsetParent !== null).filter(s => {  // hidden: an option of another variant
              const m = document.createElement('span');
              m.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
              m.style.font = getComputedStyle(s).font;
              m.textContent = s.options[s.selectedIndex].text; document.body.append(m);
              const w = m.getBoundingClientRect().width; m.remove();
              return w > s.clientWidth - 24; }).map(s => s.name)""")
        assert clipped == [], (game, clipped)
        if game != "kings_corner":
            await page.locator(".options-sheet .sheet-close").tap()
    await page.screenshot(path=str(screenshot_path(f"home-kings-corner-{lang}-360x640.png")))
    await page.locator(".options-sheet .sheet-close").tap()
    await page.locator(".game-card[data-game='sergeant_major'] .options-btn").tap()
    await expect(page.locator("#opt-first_dealer option")).to_have_text(FIRST_DEALERS[lang])
    await expect(page.locator("#opt-removed_card option")).to_have_text(REMOVED_CARDS[lang])
    await page.locator(".options-sheet .create-btn").tap()
    await expect(page.locator(".lobby")).to_be_visible()
    # in the lobby a seat with a player is named by the player, isolated (an <option> holds no <bdi>): Ann hosts
    # from seat 1
    await expect(page.locator('.lobby select[name="first_dealer"] option')).to_have_text(
        [*FIRST_DEALERS[lang][:2], "\u2068Ann\u2069", *FIRST_DEALERS[lang][3:]])
    assert await page.evaluate(OVERFLOW_JS) == []
    await page.screenshot(path=str(screenshot_path(f"lobby-sergeant-major-{lang}-360x640.png")), full_page=True)
    assert ann.errors == []
