// Kings in the Corner in a replay: the board of piles around the stock, each move in words, cards left per seat.

import { h } from "../../shell/dom.js";
import { t, tn } from "../../shell/i18n.js";

const GRID = ["NW", "N", "NE", "W", null, "E", "SW", "S", "SE"];
const space = (s) => t(`kc_space_${s}`);

export const replay = {
  styles: [new URL("./replay.css", import.meta.url).href],

  action(a, { name, card, prev }) {
    const who = t("kc_log_who", { name });
    switch (a.type) {
      case "build": return { text: `${who} ${t("kc_log_built", { card: card(a.card), space: space(a.space) })}`, cards: [a.card] };
      case "place_king": return { text: `${who} ${t("kc_log_king", { card: card(a.card), space: space(a.corner) })}`, cards: [a.card] };
      case "fill_side": return { text: `${who} ${t("kc_log_filled", { card: card(a.card), space: space(a.side) })}`, cards: [a.card] };
      case "move_pile":
      case "move_king_pile": {
        const src = a.src || a.side;
        const dst = a.dst || a.corner;
        const n = prev && prev.views[0].piles ? (prev.views[0].piles[src] || []).length : 0;
        return { text: `${who} ${t("kc_log_moved", { src: space(src), n, dst: space(dst) })}` };
      }
      case "end_turn": return { text: `${who} ${t("kc_log_passed")}` };
      default: return null;
    }
  },

  board(view, { just, chips }) {
    if (!view.piles) return null;
    const children = GRID.map((name) => {
      if (!name) return h("div", { class: "rp-pile stock" }, h("span", { class: "label", text: tn("kc_stock_n", view.stock) }));
      const pile = view.piles[name] || [];
      return h("div", { class: `rp-pile${name.length === 2 ? " corner" : ""}`, dataset: { space: name } },
        h("span", { class: "label", text: t(`kc_short_${name}`) }),
        pile.length ? chips(pile, just) : null);
    });
    return { className: "rp-board kc", children };
  },

  seatFacts(view, seat, hand) {
    return [tn("cards_n", hand.length)];
  },
};
