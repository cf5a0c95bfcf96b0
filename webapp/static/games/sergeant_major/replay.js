// Sergeant Major in a replay: the auction, trumps, calls, the kitty and swaps in words; trumps and the face-up card
// under the trick; each seat's tricks against its target and its running total.

import { h } from "../../shell/dom.js";
import { t } from "../../shell/i18n.js";
import { suitName } from "../../shell/cards.js";

export const replay = {
  handLabel(view) {
    return view.last_hand ? t("sm_hand_of", { n: view.hand_no, of: view.last_hand }) : null;
  },

  action(a, { name, deck, prev }) {
    switch (a.type) {
      case "bid": return { text: t("sm_bid_made", { name, n: a.tricks }) };
      case "pass": return { text: t("sm_bid_pass", { name }) };
      case "name_trump": return { text: t("sm_named", { name, suit: suitName(a.suit, deck) }) };
      case "call": return { text: t("sm_called", { name, call: t(`sm_call_${a.call}`) }) };
      case "discard": return { text: t("sm_discarded", { name }), cards: a.cards || [] };
      case "swap": {
        const faceUp = prev && prev.views[0].face_up;
        return { text: t("sm_swapped", { name }), cards: faceUp ? [faceUp] : [] };
      }
      case "decline_swap": return { text: t("sm_declined", { name }) };
      default: return null;
    }
  },

  tags(view, { deck, chips }) {
    const out = [];
    if (view.trump !== undefined) {
      out.push(h("span", { class: "rp-tag" }, `${t("sm_trumps")}: `,
        view.trump ? suitName(view.trump, deck) : (view.call ? t(`sm_call_${view.call}`) : "–")));
    }
    if (view.face_up) out.push(h("span", { class: "rp-tag" }, `${t("sm_face_up")}: `, chips([view.face_up])));
    return out;
  },

  seatFacts(view, seat) {
    const out = [];
    if (view.tricks && view.targets) out.push(t("sm_tricks", { n: view.tricks[seat], target: view.targets[seat] }));
    if (view.totals) {
      const kind = view.score_kind === "running" ? "sm_total_running" : "sm_total_ledger";
      out.push(t(kind, { n: view.totals[seat] }));
    }
    return out;
  },
};
