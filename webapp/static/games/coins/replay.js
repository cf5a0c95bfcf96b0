// Coins in a replay: each seat's points beside its name.

import { tn } from "../../shell/i18n.js";

export const replay = {
  seatFacts(view, seat) {
    return view.scores && view.scores[seat] !== undefined ? [tn("points_n", view.scores[seat])] : [];
  },
};
