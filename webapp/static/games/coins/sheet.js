// The Coins score sheet: points taken in each hand (the view's rows, the hand in play so far) and in total.

import { t } from "../../shell/i18n.js";

export function sheet(s, seats) {
  const rows = (s.score_sheet || []).map((row) => [t("hand_n", { n: row.hand_no }),
    ...seats.map((seat) => String(row.points[seat]))]);
  const foot = [t("score_total"), ...seats.map((seat) => String(s.scores[seat]))];
  return { rows, foot, note: t("score_sheet_coins_note") };
}
