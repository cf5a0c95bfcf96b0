// The games this page can show. Each game's folder (games/<id>/) exports one descriptor from its index.js, listed
// here and nowhere else; what the server knows of each game (seats, deck, hand size, headline setting, options)
// comes with the page. The shell asks these two, never a game's name.
//
// A descriptor: {id, table: () => import(table module), lesson?: () => import(lesson module), styles: [css URLs],
// rules() -> elements, sheet?, replay?: {action, board, tags, seatFacts, where, styles}, fair?: {wholeHand, skipDeal},
// headlineLabel?(value, options), titleLabel?(value, options), headlineInTitle?, scoreText?(score, options),
// showcase?: [a few cards of its deck that picture the game on home, "K-clubs"]}.

import { loadStyles } from "./dom.js";
import coins from "../games/coins/index.js";
import sergeantMajor from "../games/sergeant_major/index.js";
import kingsCorner from "../games/kings_corner/index.js";

const DESCRIPTORS = [coins, sergeantMajor, kingsCorner];

function readFacts() {
  try {
    return JSON.parse(document.getElementById("games")?.textContent || "[]") || [];
  } catch {
    return [];
  }
}

const FACTS = readFacts();

// Every game the page has a client for, in the registry's order.
export const games = DESCRIPTORS;

// The descriptor of game ``id``, or null when this page has no client for it.
export function game(id) {
  return DESCRIPTORS.find((d) => d.id === id) || null;
}

// What the server says of game ``id`` ({id, title, min_players, max_players, deck, hand_size, headline, settings}).
export function facts(id) {
  return FACTS.find((f) => f.id === id) || null;
}

// The first game offered when none is chosen.
export function firstGame() {
  return (FACTS[0] && FACTS[0].id) || (DESCRIPTORS[0] && DESCRIPTORS[0].id) || "";
}

// The deck game ``id`` is played with ("spanish", "french"), as the card art and the words know it.
export function deckOf(id) {
  const f = facts(id);
  return (f && f.deck && f.deck.id) || "french";
}

// How many cards each player is dealt in game ``id`` (under variant ``variant`` where the variant decides).
export function handSize(id, variant = null) {
  const f = facts(id);
  if (!f) return 0;
  const byVariant = f.hand_size_by_variant || {};
  return (variant && byVariant[variant]) || f.hand_size || 0;
}

// Whether a deal of game ``id`` under ``variant`` first takes one card out of the deck.
export function removesCard(id, variant) {
  const f = facts(id);
  return Boolean(f && variant && (f.removes_card_in || []).includes(variant));
}

// A setting of game ``id`` as the server describes it ({name, default, choices, ...}), or null.
export function setting(id, name) {
  const f = facts(id);
  return (f && name && (f.settings || []).find((s) => s.name === name)) || null;
}

// The stylesheets in ``urls`` (a descriptor's), each loaded once; resolves when they are all in.
export function loadAll(urls) {
  return Promise.all((urls || []).map((url) => loadStyles(url)));
}
