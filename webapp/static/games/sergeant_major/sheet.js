// The Sergeant Major score sheet: tricks taken against the target in each hand, up or down, and the totals. The
// view's rows hold every finished hand, then the hand in play (or the one a trick-count win stopped, whose result
// never reaches the stakes, SM-D28) without a result.

import { t } from "../../shell/i18n.js";
import { signed } from "../../shell/scoresheet.js";

export function sheet(s, seats) {
  const rows = (s.score_sheet || []).map((row) => [t("hand_n", { n: row.hand_no }), ...seats.map((seat) => {
    const count = `${row.tricks[seat]}/${row.targets[seat]}`;
    return row.results ? `${count} (${signed(row.results[seat])})` : count;
  })]);
  const foot = [t(s.score_kind === "running" ? "sm_col_score" : "sm_col_stakes"), ...seats.map((seat) => signed(s.totals[seat]))];
  return { rows, foot, note: t("score_sheet_sm_note") };
}
