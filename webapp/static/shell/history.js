// The History tab: the player's finished games, newest first, each with its placements and a Replay button.

import { h, clear } from "./dom.js";
import { lang, t, tn } from "./i18n.js";
import { aiName, valueLabel } from "./lobby.js";
import { facts as factsOf, game as gameOf } from "./games.js";
import { gameTitle } from "./titles.js";

const PAGE = 20;

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

// A score as its game counts it, in its unit (which may depend on the table's options, as Kings' scoring does).
export function scoreText(game, score, options = {}) {
  const desc = gameOf(game);
  return desc && desc.scoreText ? desc.scoreText(score, options) : String(score);
}

// A rating as the server gives it (whole points, never below 0; the page never works one out), with "?" after a
// provisional one: "1500?".
export function ratingText(rating, provisional = false) {
  return `${rating}${provisional ? "?" : ""}`;
}

// A rating's change in points: "+86", "−151" (a real minus sign), "0".
export function changeText(change) {
  return change > 0 ? `+${change}` : change < 0 ? `\u2212${-change}` : "0";
}

// The line that says what "?" after a rating means, when one of the ratings shown has it (``games``: how many games
// a rating stays provisional, as the server says).
export function provisionalNote(ratings, games) {
  const marked = games && ratings.some((r) => r.provisional);
  return marked ? h("p", { class: "hint provisional-note", text: tn("rating_provisional", games) }) : null;
}

// Places shared by several seats are shown as shared ("=2"), never as an order the rules did not make.
export function placeLabel(placement, placements) {
  const shared = placements.filter((p) => p === placement).length > 1;
  return shared ? `=${placement}` : String(placement);
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
      h("span", { class: `place p${s.placement}`, text: placeLabel(s.placement, seats.map((x) => x.placement)),
        "aria-label": t("place_n", { n: s.placement }) }),
      s.you ? h("span", { class: "pname", text: t("you") }) : h("span", { class: "pname", dir: "auto", text: aiName(s.name) }),
      h("span", { class: "pscore", text: scoreText(game.game, s.score, game.options) })))),
    h("button", { class: "btn small replay-btn", type: "button", text: t("replay"),
      onclick: () => app.openReplay(game.table_id) }));
}

const SVG = "http://www.w3.org/2000/svg";
const SPARK_W = 84;
const SPARK_H = 24;

function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

// The ratings the last games left, oldest first, as a small line ending on the latest; null for fewer than two.
function sparkline(trend) {
  if (!trend || trend.length < 2) return null;
  const low = Math.min(...trend);
  const span = Math.max(...trend) - low;
  const pad = 3;
  const points = trend.map((r, i) => [pad + (i * (SPARK_W - 2 * pad)) / (trend.length - 1),
    span ? pad + ((1 - (r - low) / span) * (SPARK_H - 2 * pad)) : SPARK_H / 2]);
  const [x, y] = points[points.length - 1];
  const line = svg("svg", { class: "spark", viewBox: `0 0 ${SPARK_W} ${SPARK_H}`, width: SPARK_W, height: SPARK_H,
    role: "img", "aria-label": t("rating_trend", { first: ratingText(trend[0]), last: ratingText(trend[trend.length - 1]) }) });
  line.append(
    svg("polyline", { class: "spark-line", points: points.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ") }),
    svg("circle", { class: "spark-last", cx: x.toFixed(1), cy: y.toFixed(1), r: 2.5 }));
  return line;
}

// The person's own figures per game, wherever they played: games, wins, rating and the best they reached, the last
// games' places and the ratings those games left.
function statsCard(entries, provisionalGames) {
  if (!entries.length) return null;
  return h("section", { class: "my-stats", "aria-labelledby": "my-stats-title" },
    h("h2", { id: "my-stats-title", text: t("my_stats") }),
    h("ul", {}, entries.map((x) => h("li", { class: "stat-game", dataset: { game: x.game } },
      h("span", { class: "record-game", text: gameTitle(x.game) }),
      h("span", { class: "stat-figures" },
        h("span", { class: "stat", text: tn("games_n", x.games) }),
        h("span", { class: "stat stat-wins", text: tn("wins_n", x.wins) }),
        h("span", { class: "stat stat-rating", text: t("rating_n", { n: ratingText(x.rating, x.provisional) }) })),
      // under them the last games: their places on the left, the best rating and the ratings they left on the right
      h("div", { class: "stat-trail" },
        x.recent.length ? h("span", { class: "form", role: "img", "aria-label": t("recent_form",
          { n: x.recent.length, wins: x.recent.filter((p) => p === 1).length }) },
        // oldest first, so the row reads towards the latest game
        [...x.recent].reverse().map((p) => h("span", { class: `form-dot${p === 1 ? " win" : ""}` }))) : null,
        typeof x.best === "number"
          ? h("span", { class: "stat stat-best", text: t("best_rating_n", { n: ratingText(x.best, x.provisional) }) })
          : null,
        sparkline(x.trend))))),
    provisionalNote(entries, provisionalGames));
}

export function historyPanel(app) {
  const list = h("ul", { class: "records" });
  const stats = h("div", { class: "stats-slot" });
  const status = h("p", { class: "hint history-status", role: "status", text: t("loading") });
  const more = h("button", { class: "btn more-btn", type: "button", hidden: true, text: t("load_more") });
  let before = null;
  let done = false;
  app.api.get("/api/stats").then((data) => {
    const card = statsCard((data && data.games) || [], data && data.provisional_games);
    if (card) stats.append(card);
  }).catch(() => {}); // the list below still shows
  const load = async () => {
    if (done) return;
    more.disabled = true;
    try {
      const query = new URLSearchParams({ limit: String(PAGE) });
      if (before !== null) query.set("before", String(before));
      const page = await app.api.get(`/api/history?${query}`);
      list.append(...page.games.map((game) => gameItem(app, game)));
      done = page.next === null || page.next === undefined;
      if (!done) before = page.next;
      more.hidden = done || !list.children.length;
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
  return h("div", { class: "history" }, stats, clear(list), status, more);
}
