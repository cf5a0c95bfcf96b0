// The Kings in the Corner score sheet: per hand, penalty points (or, in the one hand of the other scorings, corners
// or cards left) with a mark for whoever went out; the totals below.

import { t, tn } from "../../shell/i18n.js";
import { loadHands, saveHands } from "../../shell/scoresheet.js";

// A final score in the scoring's words: cards left, corners completed or penalty points.
export function scoreText(scoring, score) {
  if (scoring === "corners") return tn("kc_corners_n", score);
  if (scoring === "penalty") return tn("kc_total_n", score);
  return tn("kc_cards_left", score);
}

const WENT_OUT = "✓"; // the player who went out (the sheet's note says so in words)

// What a page has seen of its hands: {hand_no: {went_out, blocked, penalties}}, from the hand_over events and, for
// hands it did not see end, from the view (which keeps the last hand's penalties).
export class KingsBook {
  constructor(tableId) {
    this.tableId = tableId;
    this.hands = loadHands(tableId);
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
    if (changed) saveHands(this.tableId, this.hands);
  }
}

export function sheet(s, book, seats) {
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
