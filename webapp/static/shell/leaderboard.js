// The Leaderboard tab: a group's players of one game by rating, or, with no group (local play), the people you
// finished games with (/api/played-with). Groups come from /api/groups as opaque handles (the page never sees a
// chat's id); ?group=<handle>&game=<name> opens one directly (group=mine: the people you played with), and someone
// who never played in that group is told so in words.

import { h, clear } from "./dom.js";
import { isolate, t, tn } from "./i18n.js";
import { aiName } from "./lobby.js";
import { placeLabel, provisionalNote, ratingText } from "./history.js";
import { gameTitle } from "./titles.js";
import { firstGame } from "./games.js";

// An <option>'s words: the page's own label ("Group 2") and the names isolated (U+2068 … U+2069), as an option
// holds no <bdi>
function groupLabel(group) {
  const people = (group.people || []).map((name) => isolate(aiName(name)));
  return people.length ? t("group_with", { group: group.label, names: people.join(", ") }) : group.label;
}

// The group's games, most played first.
function gamesOf(group) {
  return Object.entries(group.games || {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name]) => name);
}

const MINE = "mine"; // the picker's value for the people you played with

// Each player's place by the rating shown: players level on it share a place, shown as the end-of-game sheet
// shows one ("=1"), and the next takes the place after all of them (=1, =1, 3).
function placesOf(players) {
  const places = players.map((p) => 1 + players.filter((q) => q.rating > p.rating).length);
  return places.map((place) => placeLabel(place, places));
}

function boardList(board, mine) {
  if (!board.players.length) return h("p", { class: "hint", text: t(mine ? "lb_mine_nobody" : "lb_nobody") });
  const places = placesOf(board.players);
  const table = h("table", { class: "board" },
    h("thead", {}, h("tr", {},
      h("th", { class: "place", scope: "col", text: "#" }),
      h("th", { class: "pname", scope: "col", text: t("lb_player") }),
      h("th", { class: "num", scope: "col", text: t("lb_rating") }),
      h("th", { class: "num", scope: "col", text: t("lb_games") }),
      h("th", { class: "num", scope: "col", text: t("lb_wins") }))),
    h("tbody", {}, board.players.map((p, i) => h("tr", { class: p.you ? "you" : "" },
      h("td", { class: "place", text: places[i] }),
      h("td", { class: "pname" }, h("bdi", { text: p.you ? t("you") : p.name })),
      h("td", { class: "num rating", text: ratingText(p.rating, p.provisional) }),
      h("td", { class: "num", text: String(p.games) }),
      h("td", { class: "num", text: String(p.wins) })))));
  return h("div", {}, table, provisionalNote(board.players, board.provisional_games));
}

export function leaderboardPanel(app) {
  const query = new URLSearchParams(location.search);
  const pickers = h("div", { class: "lb-pickers" });
  const out = h("div", { class: "lb-board", role: "region", "aria-live": "polite" },
    h("p", { class: "hint", text: t("loading") }));
  const explained = h("p", { class: "hint lb-explained", text: t("lb_explained") });
  const panel = h("div", { class: "leaderboard" }, pickers, out, explained);
  let groups = [];
  let played = {}; // the games the person has finished, by name: how many (their own figures, /api/stats)
  let asking = 0;

  const show = async (group, game) => {
    history.replaceState(null, "", app.urlWith({ group, game }));
    const ask = ++asking;
    const mine = group === MINE;
    explained.textContent = t(mine ? "lb_mine_explained" : "lb_explained");
    clear(out).append(h("p", { class: "hint", text: t("loading") }));
    try {
      const board = await app.api.get(mine ? `/api/played-with?${new URLSearchParams({ game })}`
        : `/api/leaderboard?${new URLSearchParams({ group, game })}`);
      if (ask !== asking) return;
      clear(out).append(h("h2", { class: "lb-title", text: gameTitle(board.game) }), boardList(board, mine));
    } catch (err) {
      if (ask !== asking) return;
      if (err.status === 401) { app.authFailed(); return; }
      clear(out).append(h("p", { class: "notice refusal", role: "alert", text: err.message || t("error_generic") }));
    }
  };

  const render = (chosen, game) => {
    clear(pickers);
    const mine = chosen === MINE;
    const group = mine ? { games: played } : groups.find((g) => g.group === chosen);
    const games = group ? gamesOf(group) : [];
    const gameName = games.includes(game) ? game : (games[0] || game || firstGame());
    const groupSelect = h("select", { id: "lb-group", onchange: () => render(groupSelect.value, gameName) },
      group ? null : h("option", { value: chosen, selected: true, text: t("lb_shared_group") }),
      groups.map((g) => h("option", { value: g.group, selected: g.group === chosen, text: groupLabel(g) })),
      h("option", { value: MINE, selected: mine, text: t("lb_mine") }));
    const gameSelect = h("select", { id: "lb-game", onchange: () => render(chosen, gameSelect.value) },
      (games.length ? games : [gameName]).map((name) => h("option", { value: name, selected: name === gameName,
        text: group ? `${gameTitle(name)} (${tn("games_n", group.games[name])})` : gameTitle(name) })));
    if (groups.length) pickers.append(h("div", { class: "field" }, h("label", { for: "lb-group", text: t("lb_group") }), groupSelect));
    else pickers.append(h("h2", { class: "lb-scope", text: t("lb_mine") })); // no group to choose: whose board this is
    if (group && games.length) {
      pickers.append(h("div", { class: "field" }, h("label", { for: "lb-game", text: t("game") }), gameSelect));
    }
    show(chosen, gameName);
  };

  (async () => {
    try {
      const [found, stats] = await Promise.all([app.api.get("/api/groups"), app.api.get("/api/stats")]);
      groups = found.groups || [];
      played = Object.fromEntries(((stats && stats.games) || []).map((x) => [x.game, x.games]));
    } catch (err) {
      if (err.status === 401) { app.authFailed(); return; }
      clear(out).append(h("p", { class: "notice", role: "alert", text: err.message || t("error_generic") }));
      return;
    }
    // with no group, the people you played with (local play has no group)
    render(query.get("group") || (groups.length ? groups[0].group : MINE), query.get("game"));
  })();
  return panel;
}
