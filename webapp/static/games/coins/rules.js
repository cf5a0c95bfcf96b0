// The rules of Coins in the page: the suit cycle, a picture of each trick type, and the ranks.

import { h } from "../../shell/dom.js";
import { t } from "../../shell/i18n.js";
import { cardEl, suitIcon, suitName } from "../../shell/cards.js";
import { para, section } from "../../shell/rules_blocks.js";

const CYCLE = ["cups", "coins", "swords", "clubs"];

// The suit cycle, Cups > Coins > Swords > Clubs > Cups, with icons.
export function cycleEl(size = 16) {
  const el = h("div", { class: "cycle", role: "note", "aria-label": t("cycle_explained") });
  [...CYCLE, CYCLE[0]].forEach((suit, i) => {
    if (i) el.append(h("span", { class: "gt", "aria-hidden": "true", text: ">" }));
    el.append(h("span", { class: "cyc" }, suitIcon(suit, "spanish", size), h("span", { text: suitName(suit, "spanish") })));
  });
  return el;
}

// One example trick: its cards in play order, the winner marked, an odd card marked "never wins".
function exampleTrick(cards, winner, odd = -1) {
  return h("div", { class: "rules-trick" }, cards.map((card, i) => h("figure", {
    class: `rt-card${i === winner ? " win" : ""}${i === odd ? " odd" : ""}` },
  cardEl(card, "spanish"),
  h("figcaption", { text: i === winner ? t("rules_wins") : i === odd ? t("rules_never_wins") : "" }))));
}

export function rules() {
  return [
    para("coins_rules_goal"),
    para("coins_rules_play"),
    section("coins_rules_cycle_title", cycleEl(18), para("cycle_explained"), para("coins_rules_opposite")),
    section("coins_type1_title", para("coins_type1_text"), exampleTrick(["2-cups", "A-swords", "K-coins"], 0)),
    section("coins_type2_title", para("coins_type2_text"), exampleTrick(["5-swords", "A-coins", "9-swords"], 2, 1)),
    section("coins_type3_title", para("coins_type3_text"), exampleTrick(["4-clubs", "N-clubs", "7-clubs"], 1)),
    para("coins_rules_ranks"),
    h("p", { class: "hint", text: t("coins_credit") }),
  ];
}
