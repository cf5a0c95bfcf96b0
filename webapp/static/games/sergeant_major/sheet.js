// The Sergeant Major score sheet: tricks taken against the target in each hand, up or down, and the totals.

import { t } from "../../shell/i18n.js";
import { signed } from "../../shell/scoresheet.js";

export function sheet(s, book, seats) {
  const rows = [];
  const history = s.history || [];
  history.forEach((results, i) => {
    const over = (book.hands[String(i + 1)] || {}).over;
    rows.push([t("hand_n", { n: i + 1 }), ...seats.map((seat) => (over
      ? `${over.tricks[seat]}/${over.targets[seat]} (${signed(results[seat])})` : signed(results[seat])))]);
  });
  // The hand in play, or the one a trick-count win ended (its result never reaches the stakes, SM-D28).
  if (s.phase === "play" || (s.over && history.length < s.hand_no)) {
    rows.push([t("hand_n", { n: s.hand_no }), ...seats.map((seat) => `${s.tricks[seat]}/${s.targets[seat]}`)]);
  }
  const foot = [t(s.score_kind === "running" ? "sm_col_score" : "sm_col_stakes"), ...seats.map((seat) => signed(s.totals[seat]))];
  return { rows, foot, note: t("score_sheet_sm_note") };
}
