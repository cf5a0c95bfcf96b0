// The Kings in the Corner score sheet: per hand, penalty points (or, in the one hand of the other scorings, corners
// or cards left) with a mark for whoever went out; the totals below. The rows are the view's.

import { t, tn } from "../../shell/i18n.js";

// A final score in the scoring's words: cards left, corners completed or penalty points.
export function scoreText(scoring, score) {
  if (scoring === "corners") return tn("kc_corners_n", score);
  if (scoring === "penalty") return tn("kc_total_n", score);
  return tn("kc_cards_left", score);
}

const WENT_OUT = "✓"; // the player who went out (the sheet's note says so in words)
const FIGURE = { penalty: "penalties", corners: "corners", first_out: "cards_left" }; // each row's figures

export function sheet(s, seats) {
  const scoring = s.options.scoring;
  const figures = FIGURE[scoring] || FIGURE.first_out;
  const rows = (s.score_sheet || []).map((row) => [
    row.blocked ? t("kc_sheet_blocked", { n: row.hand_no }) : t("hand_n", { n: row.hand_no }),
    ...seats.map((seat) => `${row[figures][seat]}${seat === row.went_out ? ` ${WENT_OUT}` : ""}`)]);
  const foot = scoring === "penalty" ? [t("score_total"), ...seats.map((seat) => String(s.totals[seat]))] : null;
  return { rows, foot, note: t(`kc_sheet_note_${scoring}`) };
}
