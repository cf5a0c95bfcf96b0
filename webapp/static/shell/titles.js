// A table's title and its seats' names as the page shows them: the game's name in the page's language, what this
// table plays beyond the game's default ("9-5-2"), and AI players' "(AI)" in the page's language.

import { t, tOr } from "./i18n.js";
import { aiName, valueLabel } from "./lobby.js";
import { facts as factsOf, game as gameOf, setting as settingOf } from "./games.js";

// A game's title in the page's language (the server's English title when the page has none).
export function gameTitle(game, fallback) {
  return tOr(`game_${game}`, fallback || game);
}

// What this table plays beyond its game's name ("9-5-2", "Penalty points to 50"), or "" for the game's default:
// its game's headline setting (the server names it, with its default) when the game shows it in titles.
export function titleVariant(game, options) {
  const desc = gameOf(game);
  const info = factsOf(game);
  const name = info && info.headline;
  const value = name && options ? options[name] : undefined;
  const described = settingOf(game, name);
  if (!desc || desc.headlineInTitle === false || value === undefined || !described || value === described.default) return "";
  return (desc.titleLabel && desc.titleLabel(value, options)) || valueLabel(name, value);
}

// A table's title as its game's name and, when not the game's default, what it plays ({game, variant}).
export function titleParts(table) {
  const variant = titleVariant(table.game, table.options);
  const full = gameTitle(table.game, table.title);
  return { game: variant ? tOr(`game_${table.game}_short`, full) : full, variant };
}

// A table's title on one line: its game, then what it plays when not the default ("<game> · <variant>").
export function tableTitle(table) {
  const { game, variant } = titleParts(table);
  return variant ? t("title_variant", { game, variant }) : game;
}

// A seat's name as shown: AI players' "(AI)" in the page's language ("Ada (ИИ)").
export function seatLabel(seat) {
  const name = (seat && seat.name) || "";
  return seat && seat.is_ai ? aiName(name) : name;
}
