// Each game's rules in the page: a sheet reachable from the table and the lobby, its body built by the game's own
// descriptor, and one line of help for every table option.

import { h } from "./dom.js";
import { t, tOr } from "./i18n.js";
import { openSheet } from "./sheet.js";
import { game as gameOf } from "./games.js";
import { para, section } from "./rules_blocks.js";

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

// The rules sheet of ``game``; ``options`` (the table's, when known) adds the help of each option in force.
export function showRules(game, options = null) {
  const desc = gameOf(game);
  const body = desc && desc.rules ? desc.rules() : [para("rules_missing")];
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
