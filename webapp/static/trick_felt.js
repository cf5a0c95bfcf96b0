// What the trick-taking tables show under the trick: a caption (who took the last trick, who leads,
// or a short flash) and the "Last trick" toggle with the finished trick's cards.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardEl } from "./cards.js";

// `table` has ctx, lastWinner, flashed, showLast and render(); `leading` says whether to name the leader.
export function appendTrickExtras(table, felt, s, { live, deck, leading }) {
  const lastLabel = () => (table.lastWinner !== null
    ? t("last_trick_won_by", { name: table.ctx.name(table.lastWinner) }) : t("last_trick"));
  let caption = "";
  if (!live && s.last_trick.length) caption = lastLabel();
  else if (!live && leading) caption = t("leads", { name: table.ctx.name(s.turn) });
  if (table.flashed && Date.now() < table.flashed.until) caption = table.flashed.text;
  felt.append(h("div", { class: "caption", text: caption }));
  if (!live || !s.last_trick.length) return;
  felt.append(h("button", { class: "btn small last-btn", type: "button", "aria-expanded": String(table.showLast),
    onclick: () => { table.showLast = !table.showLast; table.render(); }, text: t("last_trick") }));
  if (table.showLast) {
    felt.append(h("div", { class: "last-trick" },
      h("div", { class: "label", text: lastLabel() }),
      h("div", { class: "row" }, s.last_trick.map((play) => h("div", { class: "lt" },
        cardEl(play.card, deck), h("span", { text: table.ctx.name(play.seat) }))))));
  }
}
