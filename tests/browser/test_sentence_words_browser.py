"""The page's sentences in Russian, Latvian and Korean: a card or a suit in the case its sentence needs, Korean
particles chosen by the name's last sound as the server chooses them, and people's names isolated so a
right-to-left name cannot reorder the words after it.

Expected sentences are written here by hand in each language's grammar, never read back from the catalogs.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page, expect

from engine import words
from engine.i18n import translations
from tests.architecture.test_grammar import korean_names
from tests.browser.conftest import Server, open_phone, screenshot_path
from tests.browser.guided import follow, open_lesson
from tests.browser.test_guided_coins_browser import play_ringed_card
from tests.browser.test_languages_browser import SMALL, open_in_language, user_for

FSI, PDI = "\u2068", "\u2069"

# The coach on a trick of three suits (the King of Cups takes it: Clubs are missing, Clubs beat Cups).
TRICK_THREE = {
    "ru": f"{FSI}Ann{PDI} берёт взятку королём кубков: все три масти разные, и булав среди них нет. Булавы бьют "
          "кубки, поэтому выигрывает карта кубков, какой бы младшей она ни была.",
    "lv": f"{FSI}Ann{PDI} paņēma stiķi ar kausu karali: visi trīs masti ir dažādi, un nūju nav. Nūjas pārspēj "
          "kausus, tāpēc uzvar kausu kārts neatkarīgi no vērtības.",
    "ko": f"{FSI}Ann{PDI} 님이 컵 킹으로 트릭을 가져갔어요. 무늬가 모두 다르고 클럽이 없어요. 클럽은 컵을 이기니까, "
          "숫자와 상관없이 컵이 이겨요.",
}
# The coach of Kings in the Corner: the Queen of Spades goes on the King of Hearts.
BUILD = {
    "ru": "Клади по убыванию, чередуя цвета: дама пик из твоей руки ложится на короля червей (N). Нажми на карту, "
          "затем на стопку.",
    "lv": "Liec dilstošā secībā, mainot krāsas: pīķu dāma no tavas rokas iet uz erceņu karali (N). Pieskaries "
          "kārtij, tad kaudzei.",
    "ko": "색을 번갈아 가며 한 단계 낮은 카드를 쌓아요. 내 스페이드 퀸은 하트 킹 위에 놓을 수 있어요(N). "
          "카드를 누른 다음 더미를 누르세요.",
}
# Sergeant Major's coach when Spades were led and the player holds some.
FOLLOW = {
    "ru": "Зашли с пик, а у тебя есть карты пик, значит, надо ходить в масть: карты, которые нельзя сыграть, "
          "приглушены.",
    "lv": "Gājienu sāka ar pīķiem, un tev ir pīķu kārtis, tāpēc jāliek mastā: kārtis, kuras nedrīkst likt, ir pelēkas.",
    "ko": "스페이드로 시작했고 나도 스페이드를 가지고 있으니 같은 무늬를 내야 해요. 낼 수 없는 카드는 흐리게 보여요.",
}


async def shell_module(page: Page, name: str) -> str:
    """The URL the page loads one of its shell modules from (versioned, as the page imports it)."""
    src: str = await page.evaluate("[...document.scripts].map((s) => s.src).find((s) => s.includes('/shell/app.js'))")
    return src.replace("/shell/app.js", f"/shell/{name}")


SAY = """async ([i18nUrl, cardsUrl]) => {
  const { t } = await import(i18nUrl);
  const { cardName, suitName } = await import(cardsUrl);
  return [
    t("coach_coins_trick_three", { name: "Ann", card: cardName("K-cups", "spanish"),
      suit: suitName("cups", "spanish"), missing: suitName("clubs", "spanish") }),
    t("coach_kc_build", { card: cardName("Q-spades", "french"), top: cardName("K-hearts", "french"), pile: "N" }),
    t("coach_sm_follow", { suit: suitName("spades", "french") }),
  ];
}"""


@pytest.mark.parametrize("lang", ["ru", "lv", "ko"])
async def test_coach_sentences_put_cards_and_suits_in_the_form_they_need(browser: Any, server: Server,
                                                                        lang: str) -> None:
    ann = await open_in_language(browser, server, user_for(lang, 40), lang)
    page = ann.page
    await expect(page.locator(".game-picker")).to_be_visible()
    said = await page.evaluate(SAY, [await shell_module(page, "i18n.js"), await shell_module(page, "cards.js")])
    assert said == [TRICK_THREE[lang], BUILD[lang], FOLLOW[lang]]
    assert ann.errors == []


async def test_the_pages_korean_particles_follow_every_card_and_suit_name_as_the_servers_do(
        browser: Any, server: Server) -> None:
    ann = await open_in_language(browser, server, user_for("ko", 41), "ko")
    page = ann.page
    names = korean_names()
    which = ["을", "이", "은", "으로", "과"]
    chosen = await page.evaluate("""async ([url, names, which]) => {
      const { particle } = await import(url);
      return names.map((name) => which.map((w) => particle(name, w)));
    }""", [await shell_module(page, "i18n.js"), names, which])
    assert chosen == [[words.particle(name, w) for w in which] for name in names]
    with_ro = {name + forms[3] for name, forms in zip(names, chosen, strict=True)}
    assert len(names) > 100 and {"컵 킹으로", "하트 10으로", "K♠로"} <= with_ro


# Where each character of the words after the name is drawn, left to right in a left-to-right sentence.
ORDER = """async ([url, name]) => {
  const { t } = await import(url);
  const p = document.createElement("p");
  p.dir = "ltr";
  p.style.cssText = "position:absolute;top:0;left:0;white-space:nowrap;font:16px sans-serif";
  p.textContent = t("coach_coins_watch", { name });
  document.body.append(p);
  const text = p.firstChild;
  const after = text.data.indexOf(" plays now");
  const xs = [];
  for (let i = after + 1; i < after + 10; i += 1) {
    const range = document.createRange();
    range.setStart(text, i);
    range.setEnd(text, i + 1);
    xs.push(range.getBoundingClientRect().left);
  }
  p.remove();
  return { text: text.data, xs };
}"""


@pytest.mark.parametrize("name", ["\u202eevil", "שרה", "علي 7"])
async def test_a_right_to_left_name_does_not_reorder_the_sentence_after_it(browser: Any, server: Server,
                                                                           name: str) -> None:
    ann = await open_phone(browser, server, {"id": 5490, "first_name": "Ann", "language_code": "en"})
    page = ann.page
    await expect(page.locator(".game-picker")).to_be_visible()
    drawn = await page.evaluate(ORDER, [await shell_module(page, "i18n.js"), name])
    assert drawn["xs"] == sorted(drawn["xs"]) and len(set(drawn["xs"])) == len(drawn["xs"])  # "plays now" reads on
    assert drawn["text"].startswith(f"{FSI}{name}{PDI} plays now")
    assert ann.errors == []


class Seen(Exception):
    """The step looked for is on show: the lesson need not go on."""


KO = translations("ko")
KO_RANKS = {"A": "Ace", "K": "King", "N": "Knight", "J": "Knave"}


def korean_spanish_card(code: str) -> str:
    """A Spanish card as the Korean page names it in full (``컵 킹``), from the catalog's own words."""
    rank, suit = code.split("-")
    word = KO.gettext(KO_RANKS[rank]) if rank in KO_RANKS else rank
    return str(KO.pgettext("Spanish card", f"{{rank}} of {suit.capitalize()}")).format(rank=word)


async def test_the_korean_coach_names_the_winning_card_with_the_particle_its_sound_takes(
        browser: Any, server: Server) -> None:
    user = {"id": 7190, "first_name": "Nova", "language_code": "ko"}
    phone = await open_phone(browser, server, user, locale="ko-KR", viewport=SMALL)
    lesson = await open_lesson(phone, server, "coins", "배우기")
    page = lesson.page

    async def check(step: str, text: str) -> None:
        if step not in ("trick_one", "trick_two", "trick_three"):
            return
        name = korean_spanish_card(await page.locator(".trick.done .card.win").get_attribute("data-card") or "")
        said = name + words.particle(name, "이" if step == "trick_one" else "으로")
        assert said in text and "(으)로" not in text and "(이)" not in text, (said, text)
        await page.wait_for_function("""() => document.getAnimations().every((a) => a.playState !== 'running'
          || a.effect.getTiming().iterations === Infinity)""")  # the cards have landed (the ring keeps pulsing)
        await page.screenshot(path=str(screenshot_path(f"coach-{step}-ko-360x640.png")))
        raise Seen

    with pytest.raises(Seen):
        await follow(lesson, check, lambda: play_ringed_card(lesson))
    assert phone.errors == []
