// The score sheet of every hand, built from what the page has seen (kept per table in localStorage, so a reload
// keeps it) and the view: Coins points per hand and in total, Sergeant Major tricks against targets, up and down.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { openSheet } from "./sheet.js";

const KEY = "cardroom.hands.";

function load(tableId) {
  try { return JSON.parse(localStorage.getItem(KEY + tableId) || "{}") || {}; } catch { return {}; }
}

function save(tableId, data) {
  try { localStorage.setItem(KEY + tableId, JSON.stringify(data)); } catch { /* private mode: the sheet is shorter */ }
}

export const signed = (n) => (n > 0 ? `+${n}` : String(n));

// What one table's page has seen of its hands: {hand_no: {start: scores at the deal, ...hand_over fields}}.
export class HandBook {
  constructor(tableId) {
    this.tableId = tableId;
    this.hands = load(tableId);
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
    if (changed) save(this.tableId, this.hands);
  }

  // Points each seat took in ``hand`` (Coins): the next hand's start (or the scores now) minus this one's.
  coinsPoints(hand, s) {
    const here = this.hands[String(hand)];
    if (!here || !here.start) return null;
    const next = hand === s.hand_no ? s.scores : (this.hands[String(hand + 1)] || {}).start;
    return next ? next.map((n, i) => n - here.start[i]) : null;
  }
}

// The last hand's points per seat, for the summary shown at a new deal (Coins), or null.
export function lastHandPoints(book, s) {
  return s.hand_no > 1 ? book.coinsPoints(s.hand_no - 1, s) : null;
}

function grid(head, rows, foot) {
  return h("table", { class: "score-sheet" },
    h("thead", {}, h("tr", {}, head.map((x, i) => h("th", { text: x, scope: i ? "col" : null })))),
    h("tbody", {}, rows.map((row) => h("tr", {}, row.map((x, i) => h(i ? "td" : "th", { text: x, scope: i ? null : "row" }))))),
    h("tfoot", {}, h("tr", {}, foot.map((x, i) => h(i ? "td" : "th", { text: x })))));
}

export function showScoreSheet(game, s, book, name) {
  const seats = [...Array(s.players || 3).keys()];
  const head = ["", ...seats.map((seat) => String(name(seat)))];
  const rows = [];
  let foot;
  if (game === "coins") {
    for (let n = 1; n <= s.hand_no; n += 1) {
      const pts = book.coinsPoints(n, s);
      rows.push([t("hand_n", { n }), ...seats.map((seat) => (pts ? String(pts[seat]) : "–"))]);
    }
    foot = [t("score_total"), ...seats.map((seat) => String(s.scores[seat]))];
  } else {
    const history = s.history || [];
    history.forEach((results, i) => {
      const over = (book.hands[String(i + 1)] || {}).over;
      rows.push([t("hand_n", { n: i + 1 }), ...seats.map((seat) => (over
        ? `${over.tricks[seat]}/${over.targets[seat]} (${signed(results[seat])})` : signed(results[seat])))]);
    });
    if (!s.over && s.phase === "play") {
      rows.push([t("hand_n", { n: s.hand_no }), ...seats.map((seat) => `${s.tricks[seat]}/${s.targets[seat]}`)]);
    }
    foot = [t(s.score_kind === "running" ? "sm_col_score" : "sm_col_stakes"), ...seats.map((seat) => signed(s.totals[seat]))];
  }
  const note = game === "coins" ? t("score_sheet_coins_note") : t("score_sheet_sm_note");
  return openSheet(t("score_sheet"), [grid(head, rows, foot), h("p", { class: "hint", text: note })], { cls: "scores-sheet" });
}

export function scoreSheetButton(onclick) {
  const icon = h("span", { class: "score-icon", "aria-hidden": "true" });
  icon.innerHTML = '<svg viewBox="0 0 24 24" width="18" height="18"><path d="M4 4h16v16H4zM4 9.3h16M4 14.6h16M10 4v16" ' +
    'fill="none" stroke="currentColor" stroke-width="2"/></svg>';
  return h("button", { class: "btn small score-btn", type: "button", "aria-label": t("score_sheet"), title: t("score_sheet"),
    onclick }, icon, h("span", { class: "score-text", text: t("score_sheet") }));
}
