// The History tab: the player's finished games, newest first, each with its placements and a Replay button.

import { h, clear } from "./dom.js";
import { lang, t, tOr } from "./i18n.js";
import { aiName, valueLabel } from "./lobby.js";
import { facts as factsOf, game as gameOf } from "./games.js";

const PAGE = 20;

// A game's title in the page's language.
export function gameTitle(game) {
  return tOr(`game_${game}`, game);
}

// A game's variant in a few words: the value of its headline setting (the server names it), as its game words it.
export function variantLabel(game, options = {}) {
  const desc = gameOf(game);
  const info = factsOf(game);
  const name = info && info.headline;
  const value = name && options ? options[name] : undefined;
  if (!desc || !value) return "";
  return (desc.headlineLabel && desc.headlineLabel(value, options)) || valueLabel(name, value);
}

// When a game finished, in the page's language.
export function finishedAt(seconds) {
  try {
    return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
  } catch {
    return new Date(seconds * 1000).toLocaleString();
  }
}

// A score as its game counts it.
export function scoreText(game, score) {
  const desc = gameOf(game);
  return desc && desc.scoreText ? desc.scoreText(score) : String(score);
}

function gameItem(app, game) {
  const seats = [...game.seats].sort((a, b) => a.placement - b.placement || a.seat - b.seat);
  const mine = game.seats.find((s) => s.you);
  const won = mine && mine.placement === 1;
  const variant = variantLabel(game.game, game.options);
  return h("li", { class: `record${won ? " won" : ""}`, dataset: { table: game.table_id } },
    h("div", { class: "record-top" },
      h("span", { class: "record-game", text: gameTitle(game.game) }),
      variant ? h("span", { class: "record-variant", text: variant }) : null,
      h("time", { class: "record-date", datetime: new Date(game.finished_at * 1000).toISOString(),
        text: finishedAt(game.finished_at) })),
    h("ol", { class: "record-seats" }, seats.map((s) => h("li", { class: s.you ? "you" : "" },
      h("span", { class: `place p${s.placement}`, text: String(s.placement), "aria-label": t("place_n", { n: s.placement }) }),
      h("span", { class: "pname", text: s.you ? t("you") : aiName(s.name) }),
      h("span", { class: "pscore", text: scoreText(game.game, s.score) })))),
    h("button", { class: "btn small replay-btn", type: "button", text: t("replay"),
      onclick: () => app.openReplay(game.table_id) }));
}

export function historyPanel(app) {
  const list = h("ul", { class: "records" });
  const status = h("p", { class: "hint history-status", role: "status", text: t("loading") });
  const more = h("button", { class: "btn more-btn", type: "button", hidden: true, text: t("load_more") });
  let before = null;
  const load = async () => {
    more.disabled = true;
    try {
      const query = new URLSearchParams({ limit: String(PAGE) });
      if (before !== null) query.set("before", String(before));
      const page = await app.api.get(`/api/history?${query}`);
      list.append(...page.games.map((game) => gameItem(app, game)));
      before = page.next;
      more.hidden = page.next === null || page.next === undefined;
      status.textContent = list.children.length ? "" : t("history_empty");
      status.hidden = Boolean(list.children.length);
    } catch (err) {
      if (err.status === 401) { app.authFailed(); return; }
      status.hidden = false;
      status.textContent = err.message || t("error_generic");
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener("click", load);
  load();
  return h("div", { class: "history" }, clear(list), status, more);
}
