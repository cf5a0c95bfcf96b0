// The score sheet of every hand, built from the view alone: each game's view carries its rows (``score_sheet``),
// so a second phone, a late joiner and a watcher read the same sheet. The sheet's frame is shared; each game's
// sheet says what goes in its rows, its totals and its note.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { openSheet } from "./sheet.js";

// A change or a balance with its sign: "+3", "−16" (a real minus sign, as the table shows it), "0".
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0");

// The view's row of hand ``n`` ({hand_no, done, ...the game's figures}), or null.
export function handRow(s, n) {
  return (s.score_sheet || []).find((row) => row.hand_no === n) || null;
}

function grid(head, rows, foot) {
  return h("table", { class: "score-sheet" },
    h("thead", {}, h("tr", {}, head.map((x, i) => h("th", { text: x, scope: i ? "col" : null })))),
    h("tbody", {}, rows.map((row) => h("tr", {}, row.map((x, i) => h(i ? "td" : "th", { text: x, scope: i ? null : "row" }))))),
    foot ? h("tfoot", {}, h("tr", {}, foot.map((x, i) => h(i ? "td" : "th", { text: x })))) : null);
}

// Open the score sheet: ``sheet(s, seats)`` (the game's) gives {rows, foot, note}; ``name(seat)`` heads each column.
export function showScoreSheet(sheet, s, name) {
  const seats = [...Array(s.players || 3).keys()];
  const head = ["", ...seats.map((seat) => String(name(seat)))];
  const { rows, foot, note } = sheet(s, seats);
  return openSheet(t("score_sheet"), [grid(head, rows, foot), h("p", { class: "hint", text: note })],
    { cls: "scores-sheet" });
}

export function scoreSheetButton(onclick) {
  const icon = h("span", { class: "score-icon", "aria-hidden": "true" });
  icon.innerHTML = '<svg viewBox="0 0 24 24" width="18" height="18"><path d="M4 4h16v16H4zM4 9.3h16M4 14.6h16M10 4v16" ' +
    'fill="none" stroke="currentColor" stroke-width="2"/></svg>';
  return h("button", { class: "btn small score-btn", type: "button", "aria-label": t("score_sheet"), title: t("score_sheet"),
    onclick }, icon, h("span", { class: "score-text", text: t("score_sheet") }));
}
