// Home's game picker: one card per game with Play (a started game against AI players, in one tap), Learn (a guided
// first game) and Table options (the rules' variants, the turn timer and the AI's level, remembered per game on this
// device). Under each game's name one line says what its next table changes from the standard rules.

import { h } from "./dom.js";
import { t, tn, tOr } from "./i18n.js";
import { cardEl } from "./cards.js";
import { gameTitle } from "./titles.js";
import { applies, optionLabel, valueLabel } from "./lobby.js";
import { deckOf, facts as factsOf, game as gameOf } from "./games.js";
import { variantLabel } from "./history.js";
import { openSheet } from "./sheet.js";
import { optionHelpEl, rulesButton } from "./rules.js";

const CHOICES_KEY = "cardroom.choices."; // + the game's name: what Table options changed, as {name: value}
const TABLE_OPTIONS = [
  { name: "timer", choices: ["none", "live", "relaxed"], default: "none" },
  { name: "ai_level", choices: ["easy", "strong"], default: "easy" },
];

// Every option home offers for game ``g`` (as /api/config describes it), as {name, label, choices, default,
// applies_to?}: its rules' settings that have presets, the table's size where it may vary, the timer and the AI.
function optionsOf(g) {
  const list = (g.settings || []).filter((s) => s.choices && s.choices.length)
    .map((s) => ({ ...s, label: optionLabel(s.name, s.label) }));
  if (g.min_players !== g.max_players) {
    const sizes = [];
    for (let n = g.min_players; n <= g.max_players; n += 1) sizes.push(n);
    list.push({ name: "players", label: optionLabel("players"), choices: sizes, default: g.default_players });
  }
  for (const o of TABLE_OPTIONS) list.push({ ...o, label: optionLabel(o.name) });
  return list;
}

const same = (a, b) => String(a) === String(b);

// The options of ``g`` as this device last chose them: the defaults, with every remembered value that is still one
// of its option's choices (a preset the server no longer offers falls back to the default).
function rememberedChoices(g, options) {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(CHOICES_KEY + g.name) || "{}") || {};
  } catch {
    saved = {};
  }
  const chosen = {};
  for (const o of options) {
    const kept = o.choices.find((c) => same(c, saved[o.name]));
    chosen[o.name] = kept !== undefined ? kept : o.default;
  }
  return chosen;
}

// Only what differs from the defaults is kept, so a default the server changes later reaches this device too.
function remember(g, options, chosen) {
  const changed = Object.fromEntries(options.filter((o) => !same(chosen[o.name], o.default))
    .map((o) => [o.name, chosen[o.name]]));
  try {
    if (Object.keys(changed).length) localStorage.setItem(CHOICES_KEY + g.name, JSON.stringify(changed));
    else localStorage.removeItem(CHOICES_KEY + g.name);
  } catch {
    // a browser that keeps nothing still plays with the choices until the page is closed
  }
}

// The options a new table of ``g`` is made with: those that apply under the chosen variant.
function applying(options, chosen) {
  return options.filter((o) => applies(o, chosen));
}

// One changed option in a few words: the game's headline setting as the game says it ("First to 15", "9-5-2"),
// the table's size, the AI and the timer in short ("Strong AI"), any other as "Setting: value".
function changeText(g, o, value) {
  const info = factsOf(g.name);
  if (info && info.headline === o.name) {
    const said = variantLabel(g.name, { [o.name]: value });
    if (said) return said;
  }
  if (o.name === "players") return tn("players_n", value);
  return tOr(`summary_${o.name}_${value}`, "")
    || t("option_is", { option: o.label, value: valueLabel(o.name, value) });
}

// What a table made with ``chosen`` changes from the standard rules, the game's headline setting first; [] for none.
function changes(g, options, chosen) {
  const headline = (factsOf(g.name) || {}).headline;
  const changed = applying(options, chosen).filter((o) => !same(chosen[o.name], o.default));
  changed.sort((a, b) => Number(b.name === headline) - Number(a.name === headline));
  return changed.map((o) => changeText(g, o, chosen[o.name]));
}

// "3 players · Tricks and trumps that change": who plays, and the game in a few words.
function blurbOf(g) {
  const players = g.min_players === g.max_players ? tn("players_n", g.min_players)
    : t("players_range", { min: g.min_players, max: g.max_players });
  const words = tOr(`game_blurb_${g.name}`, "");
  return words ? `${players} · ${words}` : players;
}

// A few of the game's own cards, fanned, so the card reads as a game at a glance.
function showcase(g) {
  const desc = gameOf(g.name);
  const deck = deckOf(g.name);
  const cards = (desc && desc.showcase) || [];
  return h("div", { class: `game-art n${cards.length}`, "aria-hidden": "true" },
    cards.map((card, i) => {
      const el = cardEl(card, deck, { classes: `art-card art-${i}` });
      el.removeAttribute("role");
      el.removeAttribute("aria-label");
      return el;
    }));
}

// One game's card on home.
function gameCard(app, g) {
  const options = optionsOf(g);
  let chosen = rememberedChoices(g, options);
  const title = gameTitle(g.name, g.title);
  const nameId = `game-name-${g.name}`;
  const summary = h("p", { class: "game-summary" });
  const error = h("p", { class: "error", role: "alert" });
  const busy = new Set();

  // on the card nothing shows while the rules are the standard ones; the sheet says so in words
  const showSummary = (line, standard = "") => {
    const said = changes(g, options, chosen);
    line.textContent = said.length ? said.join(" · ") : standard;
    line.hidden = !line.textContent;
    line.classList.toggle("changed", said.length > 0);
    line.title = line.textContent; // the whole line where a narrow card cuts it
  };
  const optionsToSend = () => {
    const sent = {};
    for (const o of applying(options, chosen)) sent[o.name] = chosen[o.name];
    return sent;
  };
  const setBusy = (on) => {
    for (const el of [...busy].filter((b) => b.isConnected)) el.disabled = on;
  };

  // A new table with the chosen options; ``start`` asks for a game already dealt against AI players in one
  // request (the server's play now: nothing is left behind if it cannot deal), else a lobby for friends to join.
  const open = async (start, said) => {
    said.textContent = "";
    setBusy(true);
    try {
      const info = await app.api.post("/api/tables", { game: g.name, options: optionsToSend(), play_now: start });
      app.openTable(info.id);
    } catch (err) {
      if (err.status === 401) app.authFailed();
      else said.textContent = err.message || t("error_generic");
    } finally {
      setBusy(false);
    }
  };

  const openOptions = () => {
    const sheetSummary = h("p", { class: "game-summary options-now" });
    const sheetError = h("p", { class: "error", role: "alert" });
    const selects = {};
    const fields = h("div", { class: "fields" }, options.map((o) => {
      selects[o.name] = h("select", { id: `opt-${o.name}`, name: o.name, dataset: { option: o.name },
        onchange: (ev) => {
          const raw = ev.target.value;
          const choice = o.choices.find((c) => same(c, raw));
          chosen = { ...chosen, [o.name]: choice !== undefined ? choice : raw };
          changed();
        } },
      o.choices.map((c) => h("option", { value: String(c), selected: same(c, chosen[o.name]),
        text: valueLabel(o.name, c) })));
      return h("div", { class: "field", dataset: { field: o.name } },
        h("label", { for: `opt-${o.name}`, text: o.label }), selects[o.name], optionHelpEl(o.name));
    }));
    const reset = h("button", { class: "btn link reset-options", type: "button", text: t("reset_options"),
      onclick: () => {
        chosen = Object.fromEntries(options.map((o) => [o.name, o.default]));
        for (const o of options) selects[o.name].value = String(o.default);
        changed();
      } });
    // only the settings that apply to the chosen variant show (and are sent); the card and the sheet say what changed
    const changed = () => {
      remember(g, options, chosen);
      for (const o of options) fields.querySelector(`[data-field="${o.name}"]`).hidden = !applies(o, chosen);
      showSummary(summary);
      showSummary(sheetSummary, t("standard_rules"));
      reset.hidden = !changes(g, options, chosen).length;
    };
    const play = h("button", { class: "btn primary play-btn", type: "button", text: t("play_game"),
      onclick: () => open(true, sheetError) });
    const friends = h("button", { class: "btn create-btn", type: "button", text: t("open_for_friends"),
      onclick: () => open(false, sheetError) });
    busy.add(play);
    busy.add(friends);
    changed();
    openSheet(title, [sheetSummary, fields, reset, sheetError, h("div", { class: "options-go" }, play, friends)], {
      cls: "options-sheet",
      onClose: () => { busy.delete(play); busy.delete(friends); },
    });
  };

  const play = h("button", { class: "btn primary play-btn", type: "button", text: t("play_game"),
    "aria-describedby": nameId, onclick: () => open(true, error) });
  const learn = h("button", { class: "btn learn-btn", type: "button", text: t("learn"), "aria-describedby": nameId,
    onclick: async () => {
      error.textContent = "";
      setBusy(true);
      try {
        await app.startLesson(g.name, error);
      } finally {
        setBusy(false);
      }
    } });
  // Table options and How to play sit beside Play and Learn as icons (named for screen readers and on a long
  // press), so each game's card is one short block and every game's Play is on the first screen of a small phone
  const optionsButton = h("button", { class: "icon-btn options-btn", type: "button", "aria-haspopup": "dialog",
    "aria-label": t("table_options"), title: t("table_options"), "aria-describedby": nameId, onclick: openOptions },
  h("span", { class: "options-icon", "aria-hidden": "true", text: "\u2699\ufe0e" }));
  const rules = rulesButton(g.name, optionsToSend);
  busy.add(play);
  busy.add(learn);
  showSummary(summary);
  return h("li", { class: "game-card", dataset: { game: g.name } },
    h("div", { class: "game-card-head" },
      showcase(g),
      h("div", { class: "game-words" },
        h("h3", { class: "game-name", id: nameId, text: title }),
        h("p", { class: "game-blurb", text: blurbOf(g) }),
        summary)),
    h("div", { class: "game-actions" }, play, learn, optionsButton, rules),
    error);
}

// The picker: every game the server offers, in its order.
export function gamePicker(app) {
  const games = (app.config && app.config.games) || [];
  return h("section", { class: "game-picker", "aria-labelledby": "picker-title" },
    h("h2", { id: "picker-title", text: t("new_game") }),
    h("ul", { class: "game-cards" }, games.map((g) => gameCard(app, g))));
}
