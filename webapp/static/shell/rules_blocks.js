// The building blocks of a game's rules sheet: a paragraph of the page's text and a titled part. A game's rules
// module builds its body from these alone, so it never reaches back to the shell that opens the sheet.

import { h } from "./dom.js";
import { t } from "./i18n.js";

// A paragraph of the page's text ``key``.
export function para(key) {
  return h("p", { text: t(key) });
}

// A titled part of a rules sheet.
export function section(titleKey, ...body) {
  return h("section", { class: "rules-part" }, h("h3", { text: t(titleKey) }), ...body);
}
