// The Coins score sheet: points taken in each hand and in total.

import { t } from "../../shell/i18n.js";

// Points each seat took in ``hand``: the next hand's start (or the scores now) minus this one's, or null.
export function handPoints(book, hand, s) {
  const here = book.hands[String(hand)];
  if (!here || !here.start) return null;
  const next = hand === s.hand_no ? s.scores : (book.hands[String(hand + 1)] || {}).start;
  return next ? next.map((n, i) => n - here.start[i]) : null;
}

// The last hand's points per seat, for the summary shown at a new deal, or null.
export function lastHandPoints(book, s) {
  return s.hand_no > 1 ? handPoints(book, s.hand_no - 1, s) : null;
}

export function sheet(s, book, seats) {
  const rows = [];
  for (let n = 1; n <= s.hand_no; n += 1) {
    const pts = handPoints(book, n, s);
    rows.push([t("hand_n", { n }), ...seats.map((seat) => (pts ? String(pts[seat]) : "–"))]);
  }
  const foot = [t("score_total"), ...seats.map((seat) => String(s.scores[seat]))];
  return { rows, foot, note: t("score_sheet_coins_note") };
}
