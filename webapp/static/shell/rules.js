// Each game's rules in the page: a sheet reachable from the table and the lobby, with the Coins suit cycle and a
// picture of each Coins trick type, and one line of help for every table option.

import { h } from "./dom.js";
import { t, tOr } from "./i18n.js";
import { cardEl, suitIcon, suitName } from "./cards.js";
import { openSheet } from "./sheet.js";

const COINS_CYCLE = ["cups", "coins", "swords", "clubs"];

// The help line of a table option ("help_kitty_order"), or null when the page has none.
export function optionHelp(name) {
  const key = `help_${name}`;
  const text = tOr(key, "");
  return text ? text : null;
}

export function optionHelpEl(name) {
  const text = optionHelp(name);
  return text ? h("p", { class: "hint option-help", text }) : null;
}

// The suit cycle, Cups > Coins > Swords > Clubs > Cups, with icons.
export function cycleEl(size = 16) {
  const el = h("div", { class: "cycle", role: "note", "aria-label": t("cycle_explained") });
  [...COINS_CYCLE, COINS_CYCLE[0]].forEach((suit, i) => {
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

function para(key) {
  return h("p", { text: t(key) });
}

function section(titleKey, ...body) {
  return h("section", { class: "rules-part" }, h("h3", { text: t(titleKey) }), ...body);
}

function coinsRules() {
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

function sergeantMajorRules() {
  return [
    para("sm_rules_goal"),
    section("sm_rules_hand_title", para("sm_rules_kitty"), para("sm_rules_play")),
    section("sm_rules_exchange_title", para("sm_rules_exchange")),
    section("sm_rules_variants_title", para("sm_rules_variants")),
  ];
}

function kingsRules() {
  return [
    para("kc_rules_goal"),
    section("kc_rules_build_title", para("kc_rules_build"), para("kc_rules_move")),
    section("kc_rules_turn_title", para("kc_rules_turn")),
    section("kc_rules_scoring_title", para("kc_rules_scoring")),
  ];
}

const RULES = { coins: coinsRules, sergeant_major: sergeantMajorRules, kings_corner: kingsRules };

// The rules sheet of ``game``; ``options`` (the table's, when known) adds the help of each option in force.
export function showRules(game, options = null) {
  const build = RULES[game];
  const body = build ? build() : [para("rules_missing")];
  if (options && Object.keys(options).length) {
    const items = Object.keys(options).map((name) => optionHelp(name) && h("li", {},
      h("b", { text: `${tOr(`setting_${name}`, name)}: ` }), h("span", { text: optionHelp(name) }))).filter(Boolean);
    if (items.length) body.push(section("rules_options_title", h("ul", { class: "rules-options" }, items)));
  }
  return openSheet(t("rules_title"), h("div", { class: "rules", dataset: { game } }, body), { cls: "rules-sheet" });
}

// A button that opens the rules of ``game`` (options from ``getOptions`` when it is called).
export function rulesButton(game, getOptions = () => null, { label = false } = {}) {
  return h("button", { class: label ? "btn small rules-btn" : "icon-btn rules-btn", type: "button",
    "aria-label": t("rules_title"), title: t("rules_title"), text: label ? t("rules_title") : "?",
    onclick: () => showRules(typeof game === "function" ? game() : game, getOptions()) });
}
