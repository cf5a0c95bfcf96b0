// The score sheet of every hand, built from what the page has seen (kept per table in localStorage, so a reload
// keeps it) and the view. The sheet's frame and its memory are shared; each game's sheet says what goes in its
// rows, its totals and its note.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { openSheet } from "./sheet.js";

const KEY = "cardroom.hands.";

// What this page kept of a table's hands, or {}.
export function loadHands(tableId) {
  try { return JSON.parse(localStorage.getItem(KEY + tableId) || "{}") || {}; } catch { return {}; }
}

// Keep a table's hands for a reload.
export function saveHands(tableId, data) {
  try { localStorage.setItem(KEY + tableId, JSON.stringify(data)); } catch { /* private mode: the sheet is shorter */ }
}

// A change or a balance with its sign: "+3", "−16" (a real minus sign, as the table shows it), "0".
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0");

// What one table's page has seen of its hands: {hand_no: {start: scores at the deal, ...hand_over fields}}.
export class HandBook {
  constructor(tableId) {
    this.tableId = tableId;
    this.hands = loadHands(tableId);
  }

  // Record a view (the scores each hand started from) and its events (hand_over: tricks, targets, results).
  see(s, events) {
    let changed = false;
    const key = String(s.hand_no);
    for (const e of events || []) {
      if (e.type === "hand_over") {
        this.hands[String(e.hand_no)] = { ...(this.hands[String(e.hand_no)] || {}), over: { tricks: e.tricks,
          targets: e.targets, results: e.results } };
        changed = true;
      }
    }
    const scores = s.scores || s.totals;
    if (scores && !this.hands[key]) {
      // a hand seen from its first trick starts from the scores now; one joined later is marked unknown
      const fresh = s.hand_no === 1 || (s.trick_no <= 1 && !(s.trick && s.trick.length > 1));
      this.hands[key] = { start: fresh ? [...scores] : null };
      changed = true;
    }
    if (changed) saveHands(this.tableId, this.hands);
  }
}

function grid(head, rows, foot) {
  return h("table", { class: "score-sheet" },
    h("thead", {}, h("tr", {}, head.map((x, i) => h("th", { text: x, scope: i ? "col" : null })))),
    h("tbody", {}, rows.map((row) => h("tr", {}, row.map((x, i) => h(i ? "td" : "th", { text: x, scope: i ? null : "row" }))))),
    foot ? h("tfoot", {}, h("tr", {}, foot.map((x, i) => h(i ? "td" : "th", { text: x })))) : null);
}

// Open the score sheet: ``sheet(s, book, seats)`` (the game's) gives {rows, foot, note}; ``name(seat)`` heads each column.
export function showScoreSheet(sheet, s, book, name) {
  const seats = [...Array(s.players || 3).keys()];
  const head = ["", ...seats.map((seat) => String(name(seat)))];
  const { rows, foot, note } = sheet(s, book, seats);
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
