// The score sheet of every hand, built from what the page has seen (kept per table in localStorage, so a reload
// keeps it) and the view: Coins points per hand and in total, Sergeant Major tricks against targets, up and down,
// Kings in the Corner's hands (who went out; penalty points, corners or cards left) and totals.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { openSheet } from "./sheet.js";

const KEY = "cardroom.hands.";
const WENT_OUT = "✓"; // Kings in the Corner: the player who went out (the sheet's note says so in words)

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
    foot ? h("tfoot", {}, h("tr", {}, foot.map((x, i) => h(i ? "td" : "th", { text: x })))) : null);
}

// What a Kings in the Corner page has seen of its hands: {hand_no: {went_out, blocked, penalties}}, from the
// hand_over events and, for hands it did not see end, from the view (which keeps the last hand's penalties).
export class KingsBook {
  constructor(tableId) {
    this.tableId = tableId;
    this.hands = load(tableId);
  }

  see(s, events) {
    let changed = false;
    const put = (hand, entry) => {
      this.hands[String(hand)] = entry;
      changed = true;
    };
    for (const e of events || []) {
      if (e.type === "hand_over") put(e.hand_no, { went_out: e.went_out, blocked: e.blocked, penalties: e.penalties });
    }
    // §4 penalty: only the player who went out scores 0, so the view's last penalties also say who that was
    if (s.options.scoring === "penalty" && s.hand_no > 1 && !this.hands[String(s.hand_no - 1)]) {
      const out = s.penalties.indexOf(0);
      put(s.hand_no - 1, { went_out: out < 0 ? null : out, blocked: out < 0, penalties: [...s.penalties] });
    }
    if (changed) save(this.tableId, this.hands);
  }
}

// Kings in the Corner: per hand, penalty points (or, in the one hand of the other scorings, corners or cards left)
// with a mark for whoever went out; the totals below.
function kingsSheet(s, book, seats) {
  const scoring = s.options.scoring;
  const out = (seat, wentOut) => (seat === wentOut ? ` ${WENT_OUT}` : "");
  const label = (n, blocked) => (blocked ? t("kc_sheet_blocked", { n }) : t("hand_n", { n }));
  const rows = [];
  let foot = null;
  if (scoring === "penalty") {
    const last = s.over ? s.hand_no : s.hand_no - 1;
    for (let n = 1; n <= last; n += 1) {
      const hand = n === s.hand_no ? { went_out: s.went_out, blocked: s.blocked, penalties: s.penalties }
        : book.hands[String(n)];
      rows.push([label(n, hand && hand.blocked),
        ...seats.map((seat) => (hand ? `${hand.penalties[seat]}${out(seat, hand.went_out)}` : "–"))]);
    }
    foot = [t("score_total"), ...seats.map((seat) => String(s.totals[seat]))];
  } else {
    const figure = scoring === "corners" ? s.collected : s.hand_counts;
    rows.push([label(s.hand_no, s.over && s.blocked), ...seats.map((seat) => `${figure[seat]}${out(seat, s.went_out)}`)]);
  }
  return { rows, foot, note: t(`kc_sheet_note_${scoring}`) };
}

export function showScoreSheet(game, s, book, name) {
  const seats = [...Array(s.players || 3).keys()];
  const head = ["", ...seats.map((seat) => String(name(seat)))];
  const open = (rows, foot, note) => openSheet(t("score_sheet"), [grid(head, rows, foot), h("p", { class: "hint", text: note })],
    { cls: "scores-sheet" });
  if (game === "kings_corner") {
    const { rows, foot, note } = kingsSheet(s, book, seats);
    return open(rows, foot, note);
  }
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
  return open(rows, foot, game === "coins" ? t("score_sheet_coins_note") : t("score_sheet_sm_note"));
}

export function scoreSheetButton(onclick) {
  const icon = h("span", { class: "score-icon", "aria-hidden": "true" });
  icon.innerHTML = '<svg viewBox="0 0 24 24" width="18" height="18"><path d="M4 4h16v16H4zM4 9.3h16M4 14.6h16M10 4v16" ' +
    'fill="none" stroke="currentColor" stroke-width="2"/></svg>';
  return h("button", { class: "btn small score-btn", type: "button", "aria-label": t("score_sheet"), title: t("score_sheet"),
    onclick }, icon, h("span", { class: "score-text", text: t("score_sheet") }));
}
